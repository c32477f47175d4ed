// The pod eviction subresource honouring PodDisruptionBudgets (kube's pod/storage/eviction.go):
// the one budget selecting the pod must allow a disruption, which the eviction then uses up
// (status.disruptionsAllowed - 1, the pod listed in status.disruptedPods) before the pod is
// deleted. A refusal is 429 TooManyRequests, which kubectl drain retries.
import type { RegistryContext } from '../registry/context';
import type { ServedResource } from '../registry/catalog';
import type { Obj } from '../registry/objects';
import { deleteObject, getObject, updateObject, type DeleteOptions } from '../registry/store';
import { rfc3339 } from '../registry/objects';
import { ApiError, internalError } from '../meta/status';
import { computePdbStatus, pdbSelects, podReady } from './pdb-status';

const BUDGET_REFUSAL = "Cannot evict pod as it would violate the pod's disruption budget.";
/** kube's MaxDisruptedPodSize: beyond it the budget's controller is assumed to be behind. */
const MAX_DISRUPTED_PODS = 2000;

function tooManyRequests(cause: string): ApiError {
  return new ApiError(429, 'TooManyRequests', BUDGET_REFUSAL, { causes: [{ reason: 'DisruptionBudget', message: cause }] });
}

export function pdbResource(ctx: RegistryContext): ServedResource | undefined {
  return ctx.catalog.lookup('policy', 'v1', 'poddisruptionbudgets');
}

/** Every object stored under a namespaced resource in one namespace. */
export async function namespaceObjects(ctx: RegistryContext, r: ServedResource, ns: string): Promise<Obj[]> {
  const { kvs } = await ctx.mvcc.range(`${r.keyPrefix}${ns}/`);
  return kvs.map((kv) => JSON.parse(kv.value) as Obj);
}

/** Pods that are done, not started or already going may be evicted whatever the budgets say. */
function ignoresBudgets(pod: Obj): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata?.deletionTimestamp;
}

export async function evictPod(ctx: RegistryContext, pods: ServedResource, ns: string, name: string, opts: DeleteOptions): Promise<void> {
  const pod = JSON.parse((await getObject(ctx, pods, ns, name)).value) as Obj;
  const pdbs = pdbResource(ctx);
  if (pdbs && !ignoresBudgets(pod)) {
    const matching = (await namespaceObjects(ctx, pdbs, ns)).filter((b) => pdbSelects(b, pod));
    if (matching.length > 1) throw internalError('This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
    if (matching.length === 1) await takeDisruption(ctx, pdbs, pods, matching[0], pod, opts.dryRun);
  }
  await deleteObject(ctx, pods, ns, name, opts);
}

/** Checks the budget against the pods as they are now and records the disruption (unless dry-run). */
async function takeDisruption(ctx: RegistryContext, pdbs: ServedResource, pods: ServedResource, pdb: Obj, pod: Obj, dryRun: boolean): Promise<void> {
  const ns = pdb.metadata.namespace;
  const podName = pod.metadata.name;
  const all = await namespaceObjects(ctx, pods, ns);
  const now = ctx.now();
  const fresh = computePdbStatus(pdb, all, now);
  // An unready pod does not count towards the budget: removing it costs nothing while the
  // budget is met.
  if (!podReady(pod) && fresh.currentHealthy >= fresh.desiredHealthy && fresh.desiredHealthy > 0) return;
  await updateObject(
    ctx,
    pdbs,
    ns,
    pdb.metadata.name,
    (cur) => {
      // Recomputed inside the write: a concurrent eviction's disruptedPods entry counts here.
      const status = computePdbStatus(cur, all, now);
      if (status.disruptionsAllowed <= 0) throw tooManyRequests(`The disruption budget ${cur.metadata.name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`);
      const disrupted: Record<string, string> = { ...(status.disruptedPods ?? {}) };
      if (Object.keys(disrupted).length > MAX_DISRUPTED_PODS) throw new ApiError(403, 'Forbidden', 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
      disrupted[podName] = rfc3339(now);
      const next: Obj = {
        observedGeneration: status.observedGeneration,
        disruptedPods: disrupted,
        disruptionsAllowed: status.disruptionsAllowed - 1,
        currentHealthy: status.currentHealthy,
        desiredHealthy: status.desiredHealthy,
        expectedPods: status.expectedPods,
        conditions: status.conditions,
      };
      return { ...cur, status: next };
    },
    { dryRun, subresource: 'status', allowCreate: false, checkName: false },
  );
}
