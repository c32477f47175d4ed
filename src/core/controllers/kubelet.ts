// The simulated kubelets: a pod bound to a simulated node is admitted at once (Pending,
// containers being created, hostIP and startTime), and after the configured delay of cluster
// time its containers run and it is Ready, with an IP from the node's pod CIDR. Each write is
// the node's own: `system:node:<name>` through pods/status, field manager `kubelet`.
// Images tagged `crash-loop`, `pull-error` or `never-ready` (or ending `-crash-loop`, ...)
// simulate failures instead (kubelet-failures.ts, decision 0034).
import type { Obj } from '../registry/objects';
import { ApiCallError, type ApiClient } from './client';
import { rfc3339Seconds } from './clock';
import { nodeIdentity, type Controller, type ControllerContext } from './controller';
import { keyOf, type Informer } from './informer';
import { kubeletState, nodeNetwork, simulatedNodeName } from './nodes';
import { kubeletPodStatus } from './pod-status';
import { KubeletCompletion } from './kubelet-completion';
import { KeyQueue } from './queue';
import { EventRecorder } from './events';
import { hasFailureImage } from './kubelet-failures';
import { failingPodStatus, RecordedKubeletEvents } from './kubelet-failures-sync';

interface NodeState {
  index: number;
  client: ApiClient;
  events: EventRecorder;
  /** Pod uid → the host part of its IP in the node's /24. */
  ips: Map<string, number>;
}

export class KubeletSimulator implements Controller {
  readonly name = 'kubelet';
  private ctx!: ControllerContext;
  private pods!: Informer;
  private nodeObjects!: Informer;
  private queue!: KeyQueue;
  private readonly nodes = new Map<string, NodeState>();
  /** Pod uid → cluster time the kubelet admitted it (the delay counts from here). */
  private readonly admittedAt = new Map<string, number>();
  private readonly failureEvents = new RecordedKubeletEvents();
  /** Pod uid → the last status written for a pod with failure images. */
  private readonly failureReports = new Map<string, string>();
  /** Pods with restartPolicy Never/OnFailure run to completion (kubelet-completion.ts). */
  private completion!: KubeletCompletion;

  async start(ctx: ControllerContext): Promise<void> {
    this.ctx = ctx;
    for (let i = 0; i < ctx.cluster.nodes; i++) {
      const name = simulatedNodeName(i);
      const client = ctx.client(nodeIdentity(name));
      this.nodes.set(name, { index: i, client, events: new EventRecorder(client, ctx.clock, 'kubelet', name), ips: new Map() });
    }
    this.queue = ctx.queue(new KeyQueue('kubelet', ctx.clock, (key) => this.sync(key)));
    this.completion = new KubeletCompletion(ctx, this.queue);
    this.pods = await ctx.informer('/api/v1/pods');
    // A kubelet stopped through its Node's annotation (nodes.ts) leaves its pods alone until it is back.
    this.nodeObjects = await ctx.informer('/api/v1/nodes');
    this.nodeObjects.addHandlers({ onUpdate: (node, old) => kubeletState(old) === 'stopped' && kubeletState(node) !== 'stopped' && this.pods.list().forEach((p) => p.spec?.nodeName === node.metadata.name && this.enqueue(p)) });
    this.pods.addHandlers({
      onAdd: (pod) => this.enqueue(pod),
      onUpdate: (pod) => this.enqueue(pod),
      onDelete: (pod) => this.forget(pod),
    });
  }

  stop(): void {
    this.queue?.stop();
  }

  private enqueue(pod: Obj): void {
    if (this.nodes.has(String(pod.spec?.nodeName ?? ''))) this.queue.add(keyOf(pod));
  }

  private forget(pod: Obj): void {
    const uid = String(pod.metadata?.uid);
    this.admittedAt.delete(uid);
    this.failureEvents.forget(uid);
    this.failureReports.delete(uid);
    this.completion.forget(uid);
    this.nodes.get(String(pod.spec?.nodeName ?? ''))?.ips.delete(uid);
  }

  private allocateIp(node: NodeState, uid: string): string {
    let host = node.ips.get(uid);
    if (host === undefined) {
      const used = new Set(node.ips.values());
      // .0 is the network, .1 the node's bridge; kind's ptp plugin hands out from .2.
      for (host = 2; used.has(host) && host < 255; host++);
      node.ips.set(uid, host);
    }
    return nodeNetwork(node.index).podCIDR.replace(/\.0\/24$/, `.${host}`);
  }

  private async sync(key: string): Promise<void> {
    const pod = this.pods.get(key);
    if (!pod || pod.metadata.deletionTimestamp) return;
    const node = this.nodes.get(String(pod.spec?.nodeName ?? ''));
    if (!node || kubeletState(this.nodeObjects.get(String(pod.spec.nodeName))) === 'stopped') return;
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') return;
    const uid = String(pod.metadata.uid);
    const now = this.ctx.clock.now();
    const hostIP = nodeNetwork(node.index).internalIP;
    const path = `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}/status`;
    // Failure images (kubelet-failures.ts) keep changing after they first ran.
    if (pod.status?.podIP && hasFailureImage(pod)) return this.syncFailing(key, pod, node, path, now);
    if (phase === 'Running' && pod.status?.podIP) {
      // Already reported running (by this kubelet, or before a restart): keep its IP taken.
      const host = Number(String(pod.status.podIP).split('.')[3]);
      if (!node.ips.has(uid)) node.ips.set(uid, host);
      return this.completion.sync(key, pod, (status) => this.write(node, path, status));
    }
    let admitted = this.admittedAt.get(uid);
    if (admitted === undefined || !pod.status?.startTime) {
      admitted = now;
      this.admittedAt.set(uid, now);
      await this.write(node, path, kubeletPodStatus({ pod, hostIP, now, startTime: rfc3339Seconds(now) }));
      if (this.ctx.cluster.kubeletDelayMs > 0) {
        this.queue.addAfter(key, this.ctx.cluster.kubeletDelayMs);
        return;
      }
    }
    const remaining = admitted + this.ctx.cluster.kubeletDelayMs - now;
    if (remaining > 0) {
      this.queue.addAfter(key, remaining);
      return;
    }
    const current = this.pods.get(key) ?? pod;
    if (hasFailureImage(current)) return this.syncFailing(key, current, node, path, now);
    const podIP = this.allocateIp(node, uid);
    await this.write(node, path, kubeletPodStatus({ pod: current, hostIP, podIP, now, startTime: String(current.status?.startTime ?? rfc3339Seconds(admitted)) }));
  }

  /** A pod with failure images: its status from the time its containers first started (startTime + delay). */
  private async syncFailing(key: string, pod: Obj, node: NodeState, path: string, now: number): Promise<void> {
    const t0 = (Date.parse(String(pod.status?.startTime ?? '')) || now) + this.ctx.cluster.kubeletDelayMs;
    const podIP = this.allocateIp(node, String(pod.metadata.uid));
    const next = failingPodStatus(pod, Math.min(t0, now), now, nodeNetwork(node.index).internalIP, podIP);
    await this.failureEvents.record(node.events, pod, next.events);
    // Written when it differs from this kubelet's last report (the server may order keys otherwise).
    const text = JSON.stringify(next.status);
    if (this.failureReports.get(String(pod.metadata.uid)) !== text) {
      this.failureReports.set(String(pod.metadata.uid), text);
      await this.write(node, path, next.status);
    }
    if (next.nextChangeAt !== undefined) this.queue.addAfter(key, next.nextChangeAt - now);
  }

  private async write(node: NodeState, path: string, status: Obj): Promise<void> {
    try {
      await node.client.patch(path, { status }, 'merge');
    } catch (err) {
      // The pod went away meanwhile: nothing to report.
      if (err instanceof ApiCallError && err.code === 404) return;
      throw err;
    }
  }
}
