// Simulated nodes, as kwok does it: each node registers itself as its kubelet would (labels,
// capacity, conditions, addresses, nodeInfo), then keeps a Lease in kube-node-lease renewed
// every 10 s of cluster time — the heartbeat the node lifecycle controller reads. All writes are
// the node's own (`system:node:<name>`, field manager `kubelet`).
//
// A simulated kubelet can be stopped and resumed through an annotation on its Node (decision
// 0035), so the page and tests can show what happens to a node that goes away:
//   kube-playground.io/kubelet: stopped    no more Lease renewals nor status or pod updates
//   kube-playground.io/kubelet: not-ready  heartbeats go on, Ready=False (KubeletNotReady)
// Removing the annotation (or any other value) brings the kubelet back: it renews its Lease and
// posts Ready=True at once, and marks its pods Ready again where their containers are.
import type { Obj } from '../registry/objects';
import { ApiCallError, type ApiClient } from './client';
import { rfc3339Seconds } from './clock';
import { nodeIdentity, type Controller, type ControllerContext } from './controller';
import { uuidLike } from './ids';
import { isPodReady } from './pods';

/** The annotation that stops a simulated kubelet or makes it report NotReady. */
export const KUBELET_STATE_ANNOTATION = 'kube-playground.io/kubelet';
export type KubeletState = 'running' | 'stopped' | 'not-ready';

export function kubeletState(node: Obj | undefined): KubeletState {
  const v = node?.metadata?.annotations?.[KUBELET_STATE_ANNOTATION];
  return v === 'stopped' || v === 'not-ready' ? v : 'running';
}

/** kubelet's --node-lease-duration-seconds default, and its renew interval (a quarter of it). */
const LEASE_DURATION_SECONDS = 40;
const LEASE_RENEW_MS = 10_000;
const KUBELET_VERSION = 'v1.23.17';

export function simulatedNodeName(i: number): string {
  return `node-${i + 1}`;
}

/** The node's pod CIDR (node-ipam's allocation from 10.244.0.0/16) and its InternalIP. */
export function nodeNetwork(i: number): { podCIDR: string; internalIP: string } {
  return { podCIDR: `10.244.${i}.0/24`, internalIP: `172.18.0.${i + 2}` };
}

/** MicroTime, as a Lease's renewTime is written. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

function nodeObject(name: string, i: number): Obj {
  const { podCIDR } = nodeNetwork(i);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
      },
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: { podCIDR, podCIDRs: [podCIDR] },
  };
}

/**
 * The four conditions as the kubelet posts them; a condition whose status is unchanged keeps its
 * lastTransitionTime from `old`, as the kubelet's setters do.
 */
function nodeConditions(now: string, ready: boolean, old: Obj[] = []): Obj[] {
  const condition = (type: string, status: string, reason: string, message: string) => {
    const prev = old.find((c) => c.type === type);
    return { type, status, lastHeartbeatTime: now, lastTransitionTime: prev?.status === status ? prev.lastTransitionTime : now, reason, message };
  };
  return [
    condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
    condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
    condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
    ready ? condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status') : condition('Ready', 'False', 'KubeletNotReady', 'container runtime is down'),
  ];
}

function nodeStatus(ctx: ControllerContext, name: string, i: number, now: string): Obj {
  const { cpu, memory, pods } = { cpu: ctx.cluster.nodeCpu, memory: ctx.cluster.nodeMemory, pods: String(ctx.cluster.nodePods) };
  const resources = { cpu, 'ephemeral-storage': '100Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory, pods };
  return {
    capacity: resources,
    allocatable: resources,
    conditions: nodeConditions(now, true),
    addresses: [
      { type: 'InternalIP', address: nodeNetwork(i).internalIP },
      { type: 'Hostname', address: name },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: uuidLike(`machine/${name}`).replace(/-/g, ''),
      systemUUID: uuidLike(`system/${name}`),
      bootID: uuidLike(`boot/${name}`),
      kernelVersion: '5.15.0-kube-playground',
      osImage: 'Ubuntu 22.04.1 LTS',
      containerRuntimeVersion: 'containerd://1.6.9',
      kubeletVersion: KUBELET_VERSION,
      kubeProxyVersion: KUBELET_VERSION,
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
  };
}

class SimulatedNode {
  private cancelRenew?: () => void;
  private stopped = false;
  /** What the Node's annotation last asked of this kubelet. */
  private state: KubeletState = 'running';
  private uid = '';

  constructor(
    private readonly ctx: ControllerContext,
    private readonly client: ApiClient,
    readonly name: string,
    private readonly index: number,
  ) {}

  /** Registers the node (kept as it is when it exists already, as a restarted kubelet does) and starts its heartbeat. */
  async register(): Promise<void> {
    let node = await this.client.getOrUndefined(`/api/v1/nodes/${this.name}`);
    if (!node) {
      try {
        node = await this.client.create('/api/v1/nodes', nodeObject(this.name, this.index));
      } catch (err) {
        if (!(err instanceof ApiCallError && err.code === 409)) throw err;
        node = await this.client.get(`/api/v1/nodes/${this.name}`);
      }
    }
    if (!node.status?.nodeInfo?.kubeletVersion) {
      await this.client.patch(`/api/v1/nodes/${this.name}/status`, { status: nodeStatus(this.ctx, this.name, this.index, rfc3339Seconds(this.ctx.clock.now())) });
    }
    this.uid = String(node.metadata.uid);
    this.state = kubeletState(node);
    if (this.state === 'stopped') return;
    await this.postReadiness(node);
    await this.renewLease(this.uid);
  }

  stop(): void {
    this.stopped = true;
    this.cancelRenew?.();
  }

  /** The Node changed: its annotation may stop, resume or sicken this kubelet. */
  async observe(node: Obj, pods: () => Obj[]): Promise<void> {
    const want = kubeletState(node);
    if (this.stopped || want === this.state || !this.uid) return;
    const was = this.state;
    this.state = want;
    if (want === 'stopped') {
      this.cancelRenew?.();
      this.cancelRenew = undefined;
      return;
    }
    await this.postReadiness(node);
    if (was === 'stopped') {
      await this.renewLease(this.uid);
      if (want === 'running') await this.markPodsReadyAgain(pods());
    }
  }

  /** Posts Ready=True or False (the kubelet's node status update) when the Node says otherwise. */
  private async postReadiness(node: Obj): Promise<void> {
    const ready = this.state === 'running';
    const old = (node.status?.conditions ?? []) as Obj[];
    const current = old.find((c) => c.type === 'Ready');
    if (current && (current.status === 'True') === ready && current.reason === (ready ? 'KubeletReady' : 'KubeletNotReady')) return;
    const conditions = nodeConditions(rfc3339Seconds(this.ctx.clock.now()), ready, old);
    await this.client.patch(`/api/v1/nodes/${this.name}/status`, { status: { conditions } });
  }

  /**
   * The node lifecycle controller marked this node's pods not Ready while the kubelet was away;
   * back, the kubelet finds their containers ready and says so again.
   */
  private async markPodsReadyAgain(pods: Obj[]): Promise<void> {
    const at = rfc3339Seconds(this.ctx.clock.now());
    for (const pod of pods) {
      const statuses = (pod.status?.containerStatuses ?? []) as Obj[];
      if (pod.status?.phase !== 'Running' || isPodReady(pod) || !statuses.length || !statuses.every((c) => c.ready === true)) continue;
      const conditions = ((pod.status?.conditions ?? []) as Obj[]).map((c) => (c.type === 'Ready' && c.status !== 'True' ? { ...c, status: 'True', lastTransitionTime: at } : c));
      try {
        await this.client.patch(`/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}/status`, { status: { conditions } }, 'merge');
      } catch (err) {
        if (!(err instanceof ApiCallError && err.code === 404)) throw err;
      }
    }
  }

  private async renewLease(nodeUid: string): Promise<void> {
    if (this.stopped || this.state === 'stopped') return;
    const path = `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${this.name}`;
    const spec = { holderIdentity: this.name, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime: microTime(this.ctx.clock.now()) };
    try {
      const lease = await this.client.getOrUndefined(path);
      if (lease) await this.client.update(path, { ...lease, spec: { ...lease.spec, ...spec } });
      else {
        const ownerReferences = [{ apiVersion: 'v1', kind: 'Node', name: this.name, uid: nodeUid }];
        await this.client.create('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.name, namespace: 'kube-node-lease', ownerReferences }, spec });
      }
    } catch (err) {
      if (!this.stopped) console.error(`kubelet ${this.name}: lease renewal failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    // The annotation may have stopped the kubelet while the renewal was in flight.
    if (!this.stopped && (this.state as KubeletState) !== 'stopped') {
      this.cancelRenew?.();
      this.cancelRenew = this.ctx.clock.after(LEASE_RENEW_MS, () => void this.ctx.track(this.renewLease(nodeUid)));
    }
  }
}

/** Registers the configured number of simulated nodes and keeps their heartbeats. */
export class NodeSimulator implements Controller {
  readonly name = 'nodes';
  private nodes: SimulatedNode[] = [];

  async start(ctx: ControllerContext): Promise<void> {
    this.nodes = [];
    for (let i = 0; i < ctx.cluster.nodes; i++) {
      const name = simulatedNodeName(i);
      this.nodes.push(new SimulatedNode(ctx, ctx.client(nodeIdentity(name)), name, i));
    }
    await Promise.all(this.nodes.map((n) => ctx.track(n.register())));
    const nodes = await ctx.informer('/api/v1/nodes');
    const pods = await ctx.informer('/api/v1/pods');
    const byName = new Map(this.nodes.map((n) => [n.name, n]));
    const podsOn = (name: string) => () => pods.list().filter((p) => p.spec?.nodeName === name);
    const observe = (node: Obj) => {
      const sim = byName.get(String(node.metadata?.name));
      if (sim) void ctx.track(sim.observe(node, podsOn(sim.name))).catch((err) => console.error(`kubelet ${sim.name}: ${err instanceof Error ? err.message : String(err)}`));
    };
    nodes.addHandlers({ onAdd: observe, onUpdate: observe });
  }

  stop(): void {
    for (const n of this.nodes) n.stop();
  }
}
