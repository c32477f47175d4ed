// What one sync of kube's daemonset controller decides, as pure functions of the DaemonSet, the
// nodes and the pods per node: manage's creates and deletes (podsShouldBeOnNode), the rolling
// update's (update.go rollingUpdate, with and without surge), and the status counts.
import type { Obj } from '../registry/objects';
import { POD_REVISION_LABEL } from './controller-revision';
import { byCreationAndPhase, isPodUpdated, nodeShouldRun, templateGeneration } from './daemonset-nodes';
import { isPodAvailable, isPodReady } from './pods';

export interface Plan {
  /** Nodes that get a new pod. */
  create: string[];
  /** Pods to delete, by name. */
  delete: string[];
  /** Failed pods found (kube records a FailedDaemonPod event for each). */
  failed: { pod: string; node: string }[];
}

/** intstr.GetScaledValueFromIntOrPercent, rounding up as the daemonset controller does. */
function scaledUp(value: unknown, total: number): number {
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(String(value ?? ''));
  if (!m) return Number(value) || 0;
  return Math.ceil((Number(m[1]) * total) / 100);
}

export function allowsSurge(ds: Obj): boolean {
  const s = ds.spec?.updateStrategy;
  return (s?.type ?? 'RollingUpdate') === 'RollingUpdate' && scaledUp(s?.rollingUpdate?.maxSurge ?? 0, 1) > 0;
}

/** updatedDesiredNodeCounts: maxSurge and maxUnavailable of the nodes that should run the pod (both zero means one unavailable). */
export function desiredNodeCounts(ds: Obj, nodes: Obj[]): { desired: number; maxSurge: number; maxUnavailable: number } {
  const desired = nodes.filter((n) => nodeShouldRun(ds, n).shouldRun).length;
  const ru = ds.spec?.updateStrategy?.rollingUpdate ?? {};
  const maxUnavailable0 = scaledUp(ru.maxUnavailable ?? 1, desired);
  const maxSurge = scaledUp(ru.maxSurge ?? 0, desired);
  const maxUnavailable = desired > 0 && maxUnavailable0 === 0 && maxSurge === 0 ? 1 : maxUnavailable0;
  return { desired, maxSurge, maxUnavailable };
}

/**
 * manage: for each node, podsShouldBeOnNode; plus unbound pods meant for nodes that do not exist.
 * `mayKillFailed(node)` says whether a failed pod on the node may be deleted now (kube's back-off).
 */
export function managePlan(ds: Obj, nodes: Obj[], nodeToPods: Map<string, Obj[]>, hash: string, mayKillFailed: (node: string) => boolean = () => true): Plan {
  const plan: Plan = { create: [], delete: [], failed: [] };
  const surge = allowsSurge(ds);
  for (const node of nodes) {
    const name = String(node.metadata.name);
    const { shouldRun, shouldContinueRunning } = nodeShouldRun(ds, node);
    const pods = nodeToPods.get(name) ?? [];
    const exists = nodeToPods.has(name);
    if (shouldRun && !exists) {
      plan.create.push(name);
    } else if (shouldContinueRunning) {
      const running: Obj[] = [];
      for (const pod of pods) {
        if (pod.metadata.deletionTimestamp) continue;
        if (pod.status?.phase === 'Failed') {
          // The kubelet may keep failing the pod: deletes of a node's failed pods back off.
          if (!mayKillFailed(name)) continue;
          plan.failed.push({ pod: String(pod.metadata.name), node: name });
          plan.delete.push(String(pod.metadata.name));
        } else running.push(pod);
      }
      if (running.length <= 1) continue;
      running.sort(byCreationAndPhase);
      if (!surge) {
        // More than one pod on the node: all but the oldest go.
        for (const pod of running.slice(1)) plan.delete.push(String(pod.metadata.name));
        continue;
      }
      // With surge, an old and a new pod may share the node until the new one is ready.
      let oldestNew: Obj | undefined;
      let oldestOld: Obj | undefined;
      for (const pod of running) {
        const isNew = pod.metadata.labels?.[POD_REVISION_LABEL] === hash;
        if (isNew && !oldestNew) oldestNew = pod;
        else if (!isNew && !oldestOld) oldestOld = pod;
        else plan.delete.push(String(pod.metadata.name));
      }
      if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodReady(oldestNew))) plan.delete.push(String(oldestOld.metadata.name));
    } else if (exists) {
      for (const pod of pods) if (!pod.metadata.deletionTimestamp) plan.delete.push(String(pod.metadata.name));
    }
  }
  // getUnscheduledPodsWithoutNode: never bound, meant for a node that is gone.
  const known = new Set(nodes.map((n) => String(n.metadata.name)));
  for (const [node, pods] of nodeToPods) {
    if (known.has(node)) continue;
    for (const pod of pods) if (!pod.spec?.nodeName && !pod.metadata.deletionTimestamp) plan.delete.push(String(pod.metadata.name));
  }
  return plan;
}

/** findUpdatedPodsOnNode: the node's one new and one old pod; more than one of either is not ok. */
function updatedPodsOnNode(pods: Obj[], hash: string, generation: string | undefined): { newPod?: Obj; oldPod?: Obj; ok: boolean } {
  let newPod: Obj | undefined;
  let oldPod: Obj | undefined;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    if (isPodUpdated(pod, hash, generation)) {
      if (newPod) return { ok: false };
      newPod = pod;
    } else {
      if (oldPod) return { ok: false };
      oldPod = pod;
    }
  }
  return { newPod, oldPod, ok: true };
}

/** rollingUpdate: which old pods go (and, with surge, which nodes get a new pod beside the old one). */
export function rollingUpdatePlan(ds: Obj, nodes: Obj[], nodeToPods: Map<string, Obj[]>, hash: string, now: number): Plan {
  const { maxSurge, maxUnavailable } = desiredNodeCounts(ds, nodes);
  const generation = templateGeneration(ds);
  const minReady = Number(ds.spec?.minReadySeconds ?? 0);
  const available = (p: Obj) => isPodAvailable(p, minReady, now);
  // Every node that should run the pod takes part, with or without pods (kube adds empty entries).
  const byNode = new Map(nodeToPods);
  for (const n of nodes) if (nodeShouldRun(ds, n).shouldRun && !byNode.has(String(n.metadata.name))) byNode.set(String(n.metadata.name), []);
  const names = [...byNode.keys()].sort();
  if (maxSurge === 0) {
    let unavailable = 0;
    const allowed: string[] = [];
    const candidates: string[] = [];
    for (const node of names) {
      const { newPod, oldPod, ok } = updatedPodsOnNode(byNode.get(node)!, hash, generation);
      if (!ok) {
        unavailable++;
        continue;
      }
      if ((!oldPod && !newPod) || (oldPod && newPod)) unavailable++;
      else if (newPod) {
        if (!available(newPod)) unavailable++;
      } else if (!available(oldPod!)) allowed.push(String(oldPod!.metadata.name));
      else if (unavailable < maxUnavailable) candidates.push(String(oldPod!.metadata.name));
    }
    const remaining = Math.min(Math.max(0, maxUnavailable - unavailable), candidates.length);
    return { create: [], delete: [...allowed, ...candidates.slice(0, remaining)], failed: [] };
  }
  const oldToDelete: string[] = [];
  let surged = 0;
  const allowedNodes: string[] = [];
  const candidateNodes: string[] = [];
  for (const node of names) {
    const { newPod, oldPod, ok } = updatedPodsOnNode(byNode.get(node)!, hash, generation);
    if (!ok || !oldPod) continue;
    if (!newPod) {
      if (!available(oldPod)) allowedNodes.push(node);
      else if (surged < maxSurge) candidateNodes.push(node);
    } else if (!available(newPod)) surged++;
    else oldToDelete.push(String(oldPod.metadata.name));
  }
  const remaining = Math.min(Math.max(0, maxSurge - surged), candidateNodes.length);
  return { create: [...allowedNodes, ...candidateNodes.slice(0, remaining)], delete: oldToDelete, failed: [] };
}

/** updateDaemonSetStatus's counts. */
export function daemonSetStatus(ds: Obj, nodes: Obj[], nodeToPods: Map<string, Obj[]>, hash: string, now: number): Obj {
  let desired = 0;
  let current = 0;
  let misscheduled = 0;
  let ready = 0;
  let availableCount = 0;
  let updated = 0;
  const generation = templateGeneration(ds);
  const minReady = Number(ds.spec?.minReadySeconds ?? 0);
  for (const node of nodes) {
    const pods = nodeToPods.get(String(node.metadata.name)) ?? [];
    const scheduled = pods.length > 0;
    if (!nodeShouldRun(ds, node).shouldRun) {
      if (scheduled) misscheduled++;
      continue;
    }
    desired++;
    if (!scheduled) continue;
    current++;
    const pod = [...pods].sort(byCreationAndPhase)[0];
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReady, now)) availableCount++;
    }
    if (isPodUpdated(pod, hash, generation)) updated++;
  }
  const status: Obj = { currentNumberScheduled: current, numberMisscheduled: misscheduled, desiredNumberScheduled: desired, numberReady: ready };
  if (updated) status.updatedNumberScheduled = updated;
  if (availableCount) status.numberAvailable = availableCount;
  if (desired - availableCount) status.numberUnavailable = desired - availableCount;
  return status;
}
