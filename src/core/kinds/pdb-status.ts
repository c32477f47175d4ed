// PodDisruptionBudget status, as kube's disruption controller computes it. The playground has no
// workload controllers to ask for a scale, so the expected pod count is always the number of
// pods the budget selects (kube does the same for an integer minAvailable).
import type { Obj } from '../registry/objects';
import { rfc3339 } from '../registry/objects';
import { labelSelectorFromObject, matchesLabels } from '../selectors/labels';
import { setOwnKey } from '../codec/own-keys';

/** How long an eviction's pod stays "disrupted" (not counted healthy) before it is forgotten: kube's DeletionTimeout. */
const DISRUPTION_TIMEOUT_MS = 2 * 60 * 1000;

export function podReady(pod: Obj): boolean {
  const conditions: Obj[] = pod.status?.conditions ?? [];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The budget's selector over a pod's labels; a null selector selects nothing, `{}` everything. */
export function pdbSelects(pdb: Obj, pod: Obj): boolean {
  try {
    return matchesLabels(labelSelectorFromObject(pdb.spec?.selector), pod.metadata?.labels);
  } catch {
    return false;
  }
}

/** intstr.GetScaledValueFromIntOrPercent with rounding up; undefined for a malformed value. */
export function scaledValue(v: unknown, total: number): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const m = /^(\d+)%$/.exec(v);
    if (m) return Math.ceil((Number(m[1]) * total) / 100);
    if (/^\d+$/.test(v)) return Number(v);
  }
  return undefined;
}

/**
 * The status of `pdb` over the pods of its namespace. `disruptedPods` (evictions not yet seen
 * through) are kept while their pod exists, is not terminating and the entry is fresh; they do
 * not count as healthy.
 */
export function computePdbStatus(pdb: Obj, namespacePods: Obj[], nowMs: number): Obj {
  const pods = namespacePods.filter((p) => pdbSelects(pdb, p));
  const prev: Obj = pdb.status ?? {};
  const disrupted: Record<string, string> = {};
  for (const [name, at] of Object.entries((prev.disruptedPods ?? {}) as Record<string, string>)) {
    const pod = pods.find((p) => p.metadata?.name === name);
    if (!pod || pod.metadata?.deletionTimestamp) continue;
    if (Date.parse(at) + DISRUPTION_TIMEOUT_MS < nowMs) continue;
    setOwnKey(disrupted, name, at);
  }
  const expectedPods = pods.length;
  const currentHealthy = pods.filter((p) => !p.metadata?.deletionTimestamp && !Object.hasOwn(disrupted, p.metadata?.name) && podReady(p)).length;
  let desiredHealthy = 0;
  if (pdb.spec?.maxUnavailable !== undefined && pdb.spec?.maxUnavailable !== null) {
    desiredHealthy = Math.max(0, expectedPods - (scaledValue(pdb.spec.maxUnavailable, expectedPods) ?? expectedPods));
  } else if (pdb.spec?.minAvailable !== undefined && pdb.spec?.minAvailable !== null) {
    desiredHealthy = scaledValue(pdb.spec.minAvailable, expectedPods) ?? expectedPods;
  }
  const disruptionsAllowed = Math.max(0, currentHealthy - desiredHealthy);
  const allowed = disruptionsAllowed > 0;
  const generation = pdb.metadata?.generation ?? 1;
  const old = ((prev.conditions ?? []) as Obj[]).find((c) => c.type === 'DisruptionAllowed');
  const status = allowed ? 'True' : 'False';
  const condition = {
    type: 'DisruptionAllowed',
    status,
    observedGeneration: generation,
    lastTransitionTime: old && old.status === status ? old.lastTransitionTime : rfc3339(nowMs),
    reason: allowed ? 'SufficientPods' : 'InsufficientPods',
    message: '',
  };
  const out: Obj = { observedGeneration: generation };
  if (Object.keys(disrupted).length) out.disruptedPods = disrupted;
  Object.assign(out, { disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods, conditions: [condition] });
  return out;
}
