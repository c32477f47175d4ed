// kube-controller-manager's node lifecycle controller (`nodelifecycle`, v1.23
// node_lifecycle_controller.go), as the `node-controller` service account:
// - a node whose kubelet is not heard from (no Lease renewal, no new status heartbeat) for the
//   grace period (40 s; 60 s for a node that never posted status) gets its conditions set to
//   Unknown ("Kubelet stopped posting node status."), a NodeNotReady event, and its pods Ready=False;
// - the node's conditions become taints: NoSchedule ones (not-ready, unreachable, the pressures,
//   unschedulable for a cordoned node) and a NoExecute not-ready or unreachable taint;
// - the taint manager (node-lifecycle-evictions.ts) deletes pods that do not tolerate a
//   NoExecute taint, after their tolerationSeconds;
// - a node heard from again loses the taints.
// kube checks every node every 5 s; here each node's deadline is a timer on the cluster clock,
// set again whenever its heartbeat moves, so an idle cluster costs nothing but the watches.
import type { Obj } from '../registry/objects';
import { ApiCallError, type ApiClient } from './client';
import { rfc3339Seconds } from './clock';
import { controllerServiceAccount, type Controller, type ControllerContext } from './controller';
import { EventRecorder } from './events';
import { keyOf, type Informer } from './informer';
import { TaintEvictions } from './node-lifecycle-evictions';
import { condition, reconcileTaints, unknownConditions, wantedNoExecuteTaint, wantedNoScheduleTaints } from './node-lifecycle-taints';
import { KeyQueue } from './queue';

/** --node-monitor-grace-period and --node-startup-grace-period. */
const MONITOR_GRACE_MS = 40_000;
const STARTUP_GRACE_MS = 60_000;
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';

interface NodeHealth {
  /** When this controller last saw the kubelet alive (kube's probeTimestamp). */
  probe: number;
  heartbeat?: string;
  leaseRenew?: string;
}

export class NodeLifecycleController implements Controller {
  readonly name = 'nodelifecycle';
  private ctx!: ControllerContext;
  private client!: ApiClient;
  private events!: EventRecorder;
  private nodes!: Informer;
  private pods!: Informer;
  private leases!: Informer;
  private queue!: KeyQueue;
  private evictions!: TaintEvictions;
  private readonly health = new Map<string, NodeHealth>();
  /** Whether every node was down at the last look (kube's full-disruption zone state). */
  private lastFullDisruption = false;

  async start(ctx: ControllerContext): Promise<void> {
    this.ctx = ctx;
    this.client = ctx.client(controllerServiceAccount('node-controller'));
    this.events = new EventRecorder(this.client, ctx.clock, 'node-controller');
    this.evictions = new TaintEvictions(this.client, ctx.clock, new EventRecorder(this.client, ctx.clock, 'taint-controller'), (p) => void ctx.track(p));
    this.queue = ctx.queue(new KeyQueue('nodelifecycle', ctx.clock, (name) => this.sync(name)));
    this.nodes = await ctx.informer('/api/v1/nodes');
    this.pods = await ctx.informer('/api/v1/pods');
    this.leases = await ctx.informer(LEASES);
    this.nodes.addHandlers({
      onAdd: (node) => this.queue.add(String(node.metadata.name)),
      onUpdate: (node, old) => {
        this.queue.add(String(node.metadata.name));
        if (JSON.stringify(node.spec?.taints ?? []) !== JSON.stringify(old.spec?.taints ?? [])) this.podsOn(String(node.metadata.name)).forEach((p) => this.evictions.process(p, node));
      },
      onDelete: (node) => this.health.delete(String(node.metadata.name)),
    });
    this.leases.addHandlers({ onAdd: (l) => this.queue.add(String(l.metadata.name)), onUpdate: (l) => this.queue.add(String(l.metadata.name)) });
    this.pods.addHandlers({
      onAdd: (pod) => this.onPod(pod),
      onUpdate: (pod) => this.onPod(pod),
      onDelete: (pod) => this.evictions.forget(keyOf(pod)),
    });
  }

  stop(): void {
    this.queue?.stop();
    this.evictions?.stop();
  }

  private onPod(pod: Obj): void {
    const nodeName = pod.spec?.nodeName;
    if (nodeName) this.evictions.process(pod, this.nodes.get(String(nodeName)));
  }

  private podsOn(node: string): Obj[] {
    return this.pods.list().filter((p) => p.spec?.nodeName === node);
  }

  /** tryUpdateNodeHealth's bookkeeping: a new status heartbeat or Lease renewal counts as a probe. */
  private observe(node: Obj, now: number): NodeHealth {
    const name = String(node.metadata.name);
    const heartbeat = condition(node, 'Ready')?.lastHeartbeatTime as string | undefined;
    const leaseRenew = this.leases.get(`kube-node-lease/${name}`)?.spec?.renewTime as string | undefined;
    let h = this.health.get(name);
    if (!h) {
      h = { probe: now, heartbeat, leaseRenew };
      this.health.set(name, h);
      return h;
    }
    if (heartbeat !== h.heartbeat) {
      h.heartbeat = heartbeat;
      h.probe = now;
    }
    if (leaseRenew && (!h.leaseRenew || Date.parse(leaseRenew) > Date.parse(h.leaseRenew))) {
      h.leaseRenew = leaseRenew;
      h.probe = now;
    }
    return h;
  }

  private async sync(name: string): Promise<void> {
    let node = this.nodes.get(name);
    if (!node) return;
    const now = this.ctx.clock.now();
    const h = this.observe(node, now);
    const observedReady = condition(node, 'Ready')?.status;
    const grace = observedReady === undefined ? STARTUP_GRACE_MS : MONITOR_GRACE_MS;
    if (now > h.probe + grace) {
      const conditions = unknownConditions(node, rfc3339Seconds(now));
      if (conditions) {
        node = await this.client.patch(`/api/v1/nodes/${name}/status`, { metadata: { resourceVersion: node.metadata.resourceVersion }, status: { conditions } }, 'merge');
        if (observedReady === 'True') await this.markNodeNotReady(node);
      }
    } else {
      // Looked at again once the grace period would run out (sooner if the heartbeat moves).
      this.queue.addAfter(name, h.probe + grace - now + 1);
    }
    await this.updateTaints(node, now);
  }

  /** RecordNodeStatusChange and MarkPodsNotReady, when this controller found the node gone quiet. */
  private async markNodeNotReady(node: Obj): Promise<void> {
    const name = String(node.metadata.name);
    // kube refers to the node by its name, also in the uid field.
    await this.events.record({ apiVersion: 'v1', kind: 'Node', metadata: { name, uid: name } }, 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
    const at = rfc3339Seconds(this.ctx.clock.now());
    for (const pod of this.podsOn(name)) {
      const conditions = (pod.status?.conditions ?? []) as Obj[];
      const ready = conditions.find((c) => c.type === 'Ready');
      if (!ready || ready.status === 'False') continue;
      const status = { ...pod.status, conditions: conditions.map((c) => (c === ready ? { ...c, status: 'False', lastTransitionTime: at } : c)) };
      try {
        await this.client.update(`/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}/status`, { ...pod, apiVersion: 'v1', kind: 'Pod', status });
      } catch (err) {
        if (err instanceof ApiCallError && (err.code === 404 || err.code === 409)) continue;
        throw err;
      }
      await this.events.record({ ...pod, apiVersion: 'v1', kind: 'Pod' }, 'Warning', 'NodeNotReady', 'Node is not ready');
    }
  }

  /** doNoScheduleTaintingPass and doNoExecuteTaintingPass, in one write. */
  private async updateTaints(node: Obj, now: number): Promise<void> {
    const all = this.nodes.list();
    const fullDisruption = all.length > 0 && all.every((n) => condition(n, 'Ready')?.status !== 'True');
    const taints = reconcileTaints(node, wantedNoScheduleTaints(node), wantedNoExecuteTaint(node, fullDisruption), rfc3339Seconds(now));
    if (taints) {
      await this.client.patch(`/api/v1/nodes/${node.metadata.name}`, { metadata: { resourceVersion: node.metadata.resourceVersion }, spec: { taints } });
    }
    // Entering or leaving full disruption changes what every other node should carry.
    if (fullDisruption !== this.lastFullDisruption) {
      this.lastFullDisruption = fullDisruption;
      for (const other of all) if (other.metadata.name !== node.metadata.name) this.queue.add(String(other.metadata.name));
    }
  }
}
