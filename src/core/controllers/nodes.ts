// Simulated nodes, as kwok does it: each node registers itself as its kubelet would (labels,
// capacity, conditions, addresses, nodeInfo), then keeps a Lease in kube-node-lease renewed
// every 10 s of cluster time — the heartbeat the node lifecycle controller reads. All writes are
// the node's own (`system:node:<name>`, field manager `kubelet`).
import type { Obj } from '../registry/objects';
import { ApiCallError, type ApiClient } from './client';
import { rfc3339Seconds } from './clock';
import { nodeIdentity, type Controller, type ControllerContext } from './controller';
import { uuidLike } from './ids';

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

function nodeStatus(ctx: ControllerContext, name: string, i: number, now: string): Obj {
  const { cpu, memory, pods } = { cpu: ctx.cluster.nodeCpu, memory: ctx.cluster.nodeMemory, pods: String(ctx.cluster.nodePods) };
  const resources = { cpu, 'ephemeral-storage': '100Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory, pods };
  const condition = (type: string, status: string, reason: string, message: string) => ({ type, status, lastHeartbeatTime: now, lastTransitionTime: now, reason, message });
  return {
    capacity: resources,
    allocatable: resources,
    conditions: [
      condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
      condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
      condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
      condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
    ],
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
    await this.renewLease(String(node.metadata.uid));
  }

  stop(): void {
    this.stopped = true;
    this.cancelRenew?.();
  }

  private async renewLease(nodeUid: string): Promise<void> {
    if (this.stopped) return;
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
    if (!this.stopped) this.cancelRenew = this.ctx.clock.after(LEASE_RENEW_MS, () => void this.ctx.track(this.renewLease(nodeUid)));
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
  }

  stop(): void {
    for (const n of this.nodes) n.stop();
  }
}
