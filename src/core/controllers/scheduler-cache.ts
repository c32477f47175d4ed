// kube-scheduler's cache in small (pkg/scheduler/internal/cache, framework.NodeInfo): the pods
// that take room on each node and their summed requests, kept up to date as pods are bound,
// assumed, finished or deleted — so placing a pod costs per node, not per pod in the cluster.
import type { Obj } from '../registry/objects';
import { nonZeroRequests, podRequests, type NodeUsage, type Requests } from './pod-fit';

/** What one node holds: its pods, the ones with required anti-affinity, and their requests summed. */
export class NodeInfo implements NodeUsage {
  readonly pods = new Map<string, Obj>();
  readonly podsWithRequiredAntiAffinity = new Map<string, Obj>();
  readonly requested: Requests = { cpu: 0, memory: 0 };
  readonly nonZeroRequested: Requests = { cpu: 0, memory: 0 };

  get podCount(): number {
    return this.pods.size;
  }

  add(key: string, pod: Obj, r: Requests): void {
    this.pods.set(key, pod);
    if (pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution) this.podsWithRequiredAntiAffinity.set(key, pod);
    this.sum(r, 1);
  }

  remove(key: string, r: Requests): void {
    this.pods.delete(key);
    this.podsWithRequiredAntiAffinity.delete(key);
    this.sum(r, -1);
  }

  private sum(r: Requests, sign: 1 | -1): void {
    const nz = nonZeroRequests(r);
    this.requested.cpu += sign * r.cpu;
    this.requested.memory += sign * r.memory;
    this.nonZeroRequested.cpu += sign * nz.cpu;
    this.nonZeroRequested.memory += sign * nz.memory;
  }
}

const EMPTY = new NodeInfo();

export class SchedulerCache {
  private readonly nodes = new Map<string, NodeInfo>();
  /** Pod key → where it is counted, with the requests counted (a pod's requests do not change once placed). */
  private readonly placed = new Map<string, { node: string; requests: Requests }>();

  /** The pod takes room on `node` (bound, or assumed while its binding is in flight). */
  place(key: string, node: string, pod: Obj): void {
    this.remove(key);
    const requests = podRequests(pod);
    let info = this.nodes.get(node);
    if (!info) this.nodes.set(node, (info = new NodeInfo()));
    info.add(key, pod, requests);
    this.placed.set(key, { node, requests });
  }

  /** The pod takes no room anywhere (deleted, finished, or its binding failed). */
  remove(key: string): void {
    const was = this.placed.get(key);
    if (!was) return;
    this.placed.delete(key);
    this.nodes.get(was.node)?.remove(key, was.requests);
  }

  isPlaced(key: string): boolean {
    return this.placed.has(key);
  }

  node(name: string): NodeInfo {
    return this.nodes.get(name) ?? EMPTY;
  }
}
