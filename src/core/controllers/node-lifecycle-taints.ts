// The node lifecycle controller's taint arithmetic (v1.23 node_lifecycle_controller.go): which
// taints a node's conditions call for, and the node's taint list once they are applied. Pure
// functions, so the rules can be read and tested apart from the API traffic.
import type { Obj } from '../registry/objects';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

/** nodeConditionToTaintKeyStatusMap: a condition in this status calls for this NoSchedule taint. */
const CONDITION_TAINTS: { type: string; status: string; key: string }[] = [
  { type: 'Ready', status: 'False', key: TAINT_NOT_READY },
  { type: 'Ready', status: 'Unknown', key: TAINT_UNREACHABLE },
  { type: 'MemoryPressure', status: 'True', key: 'node.kubernetes.io/memory-pressure' },
  { type: 'DiskPressure', status: 'True', key: 'node.kubernetes.io/disk-pressure' },
  { type: 'NetworkUnavailable', status: 'True', key: 'node.kubernetes.io/network-unavailable' },
  { type: 'PIDPressure', status: 'True', key: 'node.kubernetes.io/pid-pressure' },
];

/** The NoSchedule keys this controller owns: it adds and removes these and no others. */
const NO_SCHEDULE_KEYS = new Set([...CONDITION_TAINTS.map((c) => c.key), TAINT_UNSCHEDULABLE]);
const NO_EXECUTE_KEYS = new Set([TAINT_NOT_READY, TAINT_UNREACHABLE]);

export function condition(node: Obj, type: string): Obj | undefined {
  return ((node.status?.conditions ?? []) as Obj[]).find((c) => c.type === type);
}

/** doNoScheduleTaintingPass: NoSchedule taints from the conditions, and unschedulable from a cordon. */
export function wantedNoScheduleTaints(node: Obj): string[] {
  const keys = CONDITION_TAINTS.filter((c) => condition(node, c.type)?.status === c.status).map((c) => c.key);
  if (node.spec?.unschedulable === true) keys.push(TAINT_UNSCHEDULABLE);
  return keys;
}

/**
 * doNoExecuteTaintingPass: not-ready for Ready=False, unreachable for Ready=Unknown, none for a
 * Ready node (markNodeAsReachable) — and none at all while every node is down (the controller's
 * full-disruption mode stops evictions rather than emptying the whole cluster).
 */
export function wantedNoExecuteTaint(node: Obj, fullDisruption: boolean): string | undefined {
  if (fullDisruption) return undefined;
  const ready = condition(node, 'Ready')?.status;
  if (ready === 'False') return TAINT_NOT_READY;
  if (ready === 'Unknown') return TAINT_UNREACHABLE;
  return undefined;
}

/**
 * The node's taints with the controller's own brought to what is wanted; other taints stay as
 * they are. A NoExecute taint records when it was added (SwapNodeControllerTaint's TimeAdded).
 * Returns undefined when nothing changes.
 */
export function reconcileTaints(node: Obj, noSchedule: readonly string[], noExecute: string | undefined, now: string): Obj[] | undefined {
  const current = (node.spec?.taints ?? []) as Obj[];
  const keep = current.filter((t) => {
    if (t.effect === 'NoSchedule' && NO_SCHEDULE_KEYS.has(String(t.key))) return noSchedule.includes(String(t.key));
    if (t.effect === 'NoExecute' && NO_EXECUTE_KEYS.has(String(t.key))) return t.key === noExecute;
    return true;
  });
  const has = (key: string, effect: string) => keep.some((t) => t.key === key && t.effect === effect);
  const added: Obj[] = noSchedule.filter((k) => !has(k, 'NoSchedule')).map((key) => ({ key, effect: 'NoSchedule' }));
  if (noExecute && !has(noExecute, 'NoExecute')) added.push({ key: noExecute, effect: 'NoExecute', timeAdded: now });
  if (!added.length && keep.length === current.length) return undefined;
  return [...keep, ...added];
}

/**
 * What tryUpdateNodeHealth writes when the kubelet has not been heard from for the grace period:
 * each kubelet condition turns Unknown (or appears as Unknown when it was never posted). Returns
 * undefined when they are Unknown already.
 */
export function unknownConditions(node: Obj, now: string): Obj[] | undefined {
  const conditions = [...((node.status?.conditions ?? []) as Obj[])];
  let changed = false;
  for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
    const i = conditions.findIndex((c) => c.type === type);
    if (i < 0) {
      conditions.push({ type, status: 'Unknown', lastHeartbeatTime: node.metadata?.creationTimestamp, lastTransitionTime: now, reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.' });
      changed = true;
    } else if (conditions[i].status !== 'Unknown') {
      conditions[i] = { ...conditions[i], status: 'Unknown', lastTransitionTime: now, reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' };
      changed = true;
    }
  }
  return changed ? conditions : undefined;
}
