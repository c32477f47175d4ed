// kube-scheduler (default-scheduler): each pending pod with no node is filtered against every
// node (pod-fit.ts, pod-fit-affinity.ts), the fitting node with the most room (LeastAllocated) is chosen, and the pod is bound
// through pods/binding as `system:kube-scheduler`. When nothing fits, the pod gets
// PodScheduled=False (reason Unschedulable) and a FailedScheduling event, and is tried again
// when a node or a pod changes.
import type { Obj } from '../registry/objects';
import { ApiCallError, type ApiClient } from './client';
import { rfc3339Seconds } from './clock';
import { SCHEDULER, type Controller, type ControllerContext } from './controller';
import { EventsV1Recorder, SCHEDULER_HOSTNAME } from './events-v1-recorder';
import { keyOf, type Informer } from './informer';
import { fitErrorMessage, leastAllocatedScore, unfitReasons, type NodeUsage } from './pod-fit';
import { NODE_AFFINITY_WEIGHT, normalizedScores, preferredAffinityScore, TopologySpread } from './pod-fit-spread';
import { InterPodAffinity } from './pod-fit-affinity';
import { PodVolumes } from './pod-fit-volumes';
import { ANN_BOUND_BY_CONTROLLER, ANN_SELECTED_NODE } from './pv-matching';
import { KeyQueue } from './queue';
import { SchedulerCache } from './scheduler-cache';

function isTerminal(pod: Obj): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

function wantsScheduling(pod: Obj): boolean {
  const scheduler = pod.spec?.schedulerName ?? 'default-scheduler';
  return !pod.spec?.nodeName && scheduler === 'default-scheduler' && !pod.metadata?.deletionTimestamp && !isTerminal(pod);
}

export class Scheduler implements Controller {
  readonly name = 'scheduler';
  private ctx!: ControllerContext;
  private client!: ApiClient;
  private events!: EventsV1Recorder;
  private pods!: Informer;
  private nodes!: Informer;
  private namespaces!: Informer;
  private claims!: Informer;
  private volumes!: Informer;
  private classes!: Informer;
  /** Pods whose volumes are being bound or provisioned for their node (kube's PreBind wait). */
  private readonly waitingOnVolumes = new Set<string>();
  private queue!: KeyQueue;
  /** Pods bound here whose binding the informer has not shown yet (kube's assumed pods). */
  private readonly assumed = new Set<string>();
  /** The room each node's pods take, bound or assumed, kept as pods change. */
  private readonly cache = new SchedulerCache();
  private readonly unschedulable = new Set<string>();

  async start(ctx: ControllerContext): Promise<void> {
    this.ctx = ctx;
    this.client = ctx.client(SCHEDULER);
    this.events = new EventsV1Recorder(this.client, ctx.clock, 'default-scheduler', SCHEDULER_HOSTNAME);
    this.queue = ctx.queue(new KeyQueue('scheduler', ctx.clock, (key) => this.schedule(key)));
    this.nodes = await ctx.informer('/api/v1/nodes');
    this.namespaces = await ctx.informer('/api/v1/namespaces');
    this.classes = await ctx.informer('/apis/storage.k8s.io/v1/storageclasses');
    this.volumes = await ctx.informer('/api/v1/persistentvolumes');
    this.claims = await ctx.informer('/api/v1/persistentvolumeclaims');
    // A claim or volume changing may let a pod waiting on volumes (or refused for them) go on.
    const onStorage = () => {
      for (const key of this.waitingOnVolumes) this.queue.add(key);
      this.waitingOnVolumes.clear();
      this.retryUnschedulable((key) => ((this.pods.get(key)?.spec?.volumes ?? []) as Obj[]).some((v) => v?.persistentVolumeClaim));
    };
    this.claims.addHandlers({ onAdd: onStorage, onUpdate: onStorage });
    this.volumes.addHandlers({ onAdd: onStorage, onUpdate: onStorage });
    this.pods = await ctx.informer('/api/v1/pods');
    this.pods.addHandlers({
      onAdd: (pod) => this.onPod(pod),
      onUpdate: (pod, old) => {
        // A pod newly placed may be what a waiting pod's affinity asks for (kube's AssignedPodAdd).
        if (pod.spec?.nodeName && !old.spec?.nodeName) this.retryUnschedulable((key) => Boolean(this.pods.get(key)?.spec?.affinity?.podAffinity));
        this.onPod(pod);
      },
      onDelete: (pod) => {
        this.assumed.delete(keyOf(pod));
        this.cache.remove(keyOf(pod));
        this.waitingOnVolumes.delete(keyOf(pod));
        this.unschedulable.delete(keyOf(pod));
        // Room was freed: pods that did not fit may now.
        if (pod.spec?.nodeName) this.retryUnschedulable();
      },
    });
    this.nodes.addHandlers({ onAdd: () => this.retryUnschedulable(), onUpdate: () => this.retryUnschedulable() });
  }

  stop(): void {
    this.queue?.stop();
  }

  private onPod(pod: Obj): void {
    const key = keyOf(pod);
    if (pod.spec?.nodeName) this.assumed.delete(key);
    // Bound and not finished: it takes room. Unbound: only while assumed (its binding in flight).
    if (pod.spec?.nodeName && !isTerminal(pod)) this.cache.place(key, String(pod.spec.nodeName), pod);
    else if (!this.assumed.has(key)) this.cache.remove(key);
    if (wantsScheduling(pod) && !this.unschedulable.has(key)) this.queue.add(key);
  }

  private retryUnschedulable(which: (key: string) => boolean = () => true): void {
    for (const key of this.unschedulable) {
      if (!which(key)) continue;
      this.unschedulable.delete(key);
      this.queue.add(key);
    }
  }

  private async schedule(key: string): Promise<void> {
    const pod = this.pods.get(key);
    if (!pod || !wantsScheduling(pod) || this.assumed.has(key)) return;
    const nodes = this.nodes.list().sort((a, b) => String(a.metadata.name).localeCompare(String(b.metadata.name)));
    const interPod = new InterPodAffinity(pod, {
      nodes,
      podsOnNode: (name) => this.cache.node(name).pods.values(),
      podsWithRequiredAntiAffinityOnNode: (name) => this.cache.node(name).podsWithRequiredAntiAffinity.values(),
      namespaceLabels: (ns) => this.namespaces.get(ns)?.metadata?.labels,
    });
    const volumes = new PodVolumes(pod, {
      claim: (ns, name) => this.claims.get(`${ns}/${name}`),
      volume: (name) => this.volumes.get(name),
      volumes: () => this.volumes.list(),
      storageClass: (name) => this.classes.get(name),
    });
    // A PreFilter refusal holds for every node.
    if (volumes.error) return this.markUnschedulable(pod, key, nodes.length ? fitErrorMessage(nodes.length, nodes.map(() => [volumes.error!])) : 'no nodes available to schedule pods');
    const spread = new TopologySpread(pod, { nodes, podsOnNode: (name) => this.cache.node(name).pods.values() });
    const reasons: string[][] = [];
    const feasible: { node: Obj; onNode: NodeUsage }[] = [];
    for (const node of nodes) {
      const onNode = this.cache.node(String(node.metadata.name));
      const why = unfitReasons(pod, node, onNode, { volumes, interPod, spread });
      if (why.length) reasons.push(why);
      else feasible.push({ node, onNode });
    }
    const affinity = normalizedScores(feasible.map((f) => preferredAffinityScore(pod, f.node)));
    let best: { node: Obj; score: number; count: number } | undefined;
    for (const [i, { node, onNode }] of feasible.entries()) {
      const score = leastAllocatedScore(pod, node, onNode) + NODE_AFFINITY_WEIGHT * affinity[i]!;
      // Equal scores go to the node with fewer pods, so identical replicas spread out.
      if (!best || score > best.score || (score === best.score && onNode.podCount < best.count)) best = { node, score, count: onNode.podCount };
    }
    if (!best) return this.markUnschedulable(pod, key, nodes.length ? fitErrorMessage(nodes.length, reasons) : 'no nodes available to schedule pods');
    const nodeName = String(best.node.metadata.name);
    if (!volumes.ready) return this.preBindVolumes(key, volumes, best.node);
    this.assumed.add(key);
    this.cache.place(key, nodeName, pod);
    const ns = String(pod.metadata.namespace);
    try {
      await this.client.create(`/api/v1/namespaces/${ns}/pods/${pod.metadata.name}/binding`, {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name: pod.metadata.name, namespace: ns, uid: pod.metadata.uid },
        target: { apiVersion: 'v1', kind: 'Node', name: nodeName },
      });
    } catch (err) {
      this.assumed.delete(key);
      // Not bound after all: it takes no room (unless the informer has meanwhile shown it bound).
      if (!this.pods.get(key)?.spec?.nodeName) this.cache.remove(key);
      // Gone, or bound by someone else meanwhile: nothing left to do for this pod.
      if (err instanceof ApiCallError && (err.code === 404 || err.code === 409)) return;
      throw err;
    }
    await this.events.record({ ...pod, apiVersion: 'v1', kind: 'Pod' }, undefined, 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${ns}/${pod.metadata.name} to ${nodeName}`);
  }

  /**
   * PreBind of the VolumeBinding plugin: matching volumes are pre-bound to the claims, the rest
   * handed to their provisioner for this node; the pod is bound once the PV controller has bound
   * them all (a claim or volume event brings it back here).
   */
  private async preBindVolumes(key: string, volumes: PodVolumes, node: Obj): Promise<void> {
    this.waitingOnVolumes.add(key);
    const plan = volumes.plan(node);
    if (!plan) return;
    for (const { volume, claim } of plan.prebind) {
      const claimRef = { kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name, uid: claim.metadata.uid, apiVersion: 'v1', resourceVersion: claim.metadata.resourceVersion };
      const annotations = { ...(volume.metadata.annotations ?? {}), [ANN_BOUND_BY_CONTROLLER]: 'yes' };
      await this.client.update(`/api/v1/persistentvolumes/${volume.metadata.name}`, { ...volume, apiVersion: 'v1', kind: 'PersistentVolume', metadata: { ...volume.metadata, annotations }, spec: { ...volume.spec, claimRef } });
    }
    for (const claim of plan.provision) {
      const annotations = { ...(claim.metadata.annotations ?? {}), [ANN_SELECTED_NODE]: String(node.metadata.name) };
      await this.client.update(`/api/v1/namespaces/${claim.metadata.namespace}/persistentvolumeclaims/${claim.metadata.name}`, { ...claim, apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { ...claim.metadata, annotations } });
    }
  }

  private async markUnschedulable(pod: Obj, key: string, message: string): Promise<void> {
    this.unschedulable.add(key);
    const conditions = ((pod.status?.conditions ?? []) as Obj[]).filter((c) => c.type !== 'PodScheduled');
    const old = ((pod.status?.conditions ?? []) as Obj[]).find((c) => c.type === 'PodScheduled');
    if (old?.status === 'False' && old.reason === 'Unschedulable' && old.message === message) return;
    const at = rfc3339Seconds(this.ctx.clock.now());
    conditions.push({ type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: old?.status === 'False' ? old.lastTransitionTime : at, reason: 'Unschedulable', message });
    try {
      await this.client.patch(`/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}/status`, { status: { conditions } }, 'merge');
    } catch (err) {
      if (err instanceof ApiCallError && err.code === 404) return;
      throw err;
    }
    await this.events.record({ ...pod, apiVersion: 'v1', kind: 'Pod' }, undefined, 'Warning', 'FailedScheduling', 'Scheduling', message);
  }
}
