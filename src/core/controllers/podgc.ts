// kube-controller-manager's podgc controller (v1.23, pkg/controller/podgc): force-deletes
//   - the oldest terminated pods (phase neither Pending, Running nor Unknown) beyond
//     --terminated-pod-gc-threshold (default 12500; 0 turns this off),
//   - pods bound to a node that no longer exists, once it has been gone for the 40 s quarantine
//     and a fresh GET confirms it,
//   - terminating pods that were never scheduled.
// kube looks every 20 s; here the pod and node informers say when there may be something to do,
// so an idle cluster costs nothing: terminated pods are counted as they come and go, and a
// vanished node is looked at again when its quarantine ends.
// Writes as `system:serviceaccount:kube-system:pod-garbage-collector`.
import type { Obj } from '../registry/objects';
import { ApiCallError, type ApiClient } from './client';
import { controllerServiceAccount, type Controller, type ControllerContext } from './controller';
import { keyOf, type Informer } from './informer';
import { Requeue } from './job-requeue';
import { KeyQueue } from './queue';

/** How long a node must have been missing before its pods count as orphaned (kube's quarantineTime). */
export const QUARANTINE_MS = 40_000;
const GC = 'gc';

/** isPodTerminated. */
function isTerminated(pod: Obj): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Pending' && phase !== 'Running' && phase !== 'Unknown';
}

/** byCreationTimestamp: oldest first, then by name. */
function byCreation(a: Obj, b: Obj): number {
  const ta = Date.parse(String(a.metadata.creationTimestamp ?? '')) || 0;
  const tb = Date.parse(String(b.metadata.creationTimestamp ?? '')) || 0;
  if (ta !== tb) return ta - tb;
  return String(a.metadata.name) < String(b.metadata.name) ? -1 : String(a.metadata.name) > String(b.metadata.name) ? 1 : 0;
}

export class PodGCController implements Controller {
  readonly name = 'podgc';
  private ctx!: ControllerContext;
  private client!: ApiClient;
  private pods!: Informer;
  private nodes!: Informer;
  private queue!: KeyQueue;
  private requeue!: Requeue;
  /** Keys of terminated pods, kept as the informer reports them so no event scans every pod. */
  private readonly terminated = new Set<string>();
  /** Pods bound to a node the informer does not know, by key. */
  private readonly orphanCandidates = new Set<string>();
  /** Node name → cluster time it was first seen missing. */
  private readonly missingSince = new Map<string, number>();

  async start(ctx: ControllerContext): Promise<void> {
    this.ctx = ctx;
    this.client = ctx.client(controllerServiceAccount('pod-garbage-collector'));
    this.queue = ctx.queue(new KeyQueue('pod-garbage-collector', ctx.clock, () => this.sync()));
    this.requeue = new Requeue(ctx.clock, this.queue);
    this.nodes = await ctx.informer('/api/v1/nodes');
    this.pods = await ctx.informer('/api/v1/pods');
    this.nodes.addHandlers({
      onAdd: (node) => this.missingSince.delete(String(node.metadata.name)),
      onDelete: (node) => {
        // Its pods are orphans from now (a scan per node deletion, not per pod event).
        for (const pod of this.pods.list()) if (pod.spec?.nodeName === node.metadata.name) this.orphanCandidates.add(keyOf(pod));
        this.queue.add(GC);
      },
    });
    this.pods.addHandlers({ onAdd: (pod) => this.onPod(pod), onUpdate: (pod) => this.onPod(pod), onDelete: (pod) => this.onPodGone(pod) });
  }

  stop(): void {
    this.queue?.stop();
    this.requeue?.stop();
  }

  private onPod(pod: Obj): void {
    const key = keyOf(pod);
    if (isTerminated(pod)) this.terminated.add(key);
    else this.terminated.delete(key);
    const node = String(pod.spec?.nodeName ?? '');
    if (node && !this.nodes.get(node)) this.orphanCandidates.add(key);
    else this.orphanCandidates.delete(key);
    const threshold = this.ctx.cluster.terminatedPodGCThreshold;
    const unscheduledTerminating = !node && pod.metadata?.deletionTimestamp;
    if ((threshold > 0 && this.terminated.size > threshold) || this.orphanCandidates.has(key) || unscheduledTerminating) this.queue.add(GC);
  }

  private onPodGone(pod: Obj): void {
    this.terminated.delete(keyOf(pod));
    this.orphanCandidates.delete(keyOf(pod));
  }

  private async sync(): Promise<void> {
    await this.gcTerminated();
    await this.gcOrphaned();
    await this.gcUnscheduledTerminating();
  }

  /** Force delete (grace period 0), as kube's forcefulDeletePodFunc. */
  private async forceDelete(pod: Obj): Promise<void> {
    try {
      await this.client.delete(`/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`, { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 });
    } catch (err) {
      if (!(err instanceof ApiCallError && err.code === 404)) throw err;
    }
  }

  private async gcTerminated(): Promise<void> {
    const threshold = this.ctx.cluster.terminatedPodGCThreshold;
    if (threshold <= 0 || this.terminated.size <= threshold) return;
    const pods = [...this.terminated].map((k) => this.pods.get(k)).filter((p): p is Obj => p !== undefined);
    const excess = pods.length - threshold;
    if (excess <= 0) return;
    pods.sort(byCreation);
    await Promise.all(pods.slice(0, excess).map((p) => this.forceDelete(p)));
  }

  private async gcOrphaned(): Promise<void> {
    const now = this.ctx.clock.now();
    const byNode = new Map<string, Obj[]>();
    for (const key of this.orphanCandidates) {
      const pod = this.pods.get(key);
      const node = String(pod?.spec?.nodeName ?? '');
      if (!pod || !node || this.nodes.get(node)) continue;
      byNode.set(node, [...(byNode.get(node) ?? []), pod]);
    }
    for (const [node, pods] of byNode) {
      const since = this.missingSince.get(node) ?? now;
      this.missingSince.set(node, since);
      const left = since + QUARANTINE_MS - now;
      if (left > 0) {
        this.requeue.atLatest(GC, left);
        continue;
      }
      // The informer may be behind: only a 404 from the API proves the node is gone.
      if (await this.client.getOrUndefined(`/api/v1/nodes/${node}`)) {
        this.missingSince.delete(node);
        continue;
      }
      await Promise.all(pods.map((p) => this.forceDelete(p)));
    }
  }

  private async gcUnscheduledTerminating(): Promise<void> {
    const victims = this.pods.list().filter((p) => p.metadata.deletionTimestamp && !p.spec?.nodeName);
    await Promise.all(victims.map((p) => this.forceDelete(p)));
  }
}
