// Deleting a CRD as kube-apiserver does: the DELETE only marks it (deletionTimestamp, the
// `customresourcecleanup.apiextensions.k8s.io` finalizer, condition Terminating
// InstanceDeletionPending) and answers with it; apiextensions' finalizer controller then deletes
// every custom object (each delete honours the object's own finalizers), and once none is left
// drops the finalizer, which removes the CRD. Until then the resource stays served, except that
// creates are refused. `kubectl delete -f` of a manifest that lists the CRD before its objects
// therefore still finds the objects.
import type { RegistryContext } from '../registry/context';
import { runInBackground } from '../registry/context';
import { deleteObject, updateObject } from '../registry/store';
import { rfc3339, type Obj } from '../registry/objects';
import { objectKey } from '../registry/catalog';
import { ApiError } from '../meta/status';

export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';
const POLL_MS = 1000;
/**
 * kube's finalizer controller acts on an informer event through a work queue, so the requests a
 * client sends right after the DELETE (`kubectl delete -f` deletes the manifest's objects next)
 * reach the objects first. Starting the cleanup a moment later keeps that order.
 */
const START_DELAY_MS = 500;
/** kube polls for remaining objects for a minute before it reports InstanceDeletionCheck. */
const CHECK_AFTER_MS = 60_000;

interface Condition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
}

/** apiextensions' SetCRDCondition: lastTransitionTime moves only when the status changes. */
function setCondition(status: Obj | undefined, c: Condition, now: string): Obj {
  const conditions: Obj[] = Array.isArray(status?.conditions) ? status.conditions.map((x: Obj) => ({ ...x })) : [];
  const existing = conditions.find((x) => x.type === c.type);
  if (!existing) conditions.push({ type: c.type, status: c.status, lastTransitionTime: now, reason: c.reason, message: c.message });
  else {
    if (existing.status !== c.status) {
      existing.status = c.status;
      existing.lastTransitionTime = now;
    }
    existing.reason = c.reason;
    existing.message = c.message;
  }
  return { ...(status ?? {}), conditions };
}

/** The first DELETE of a CRD (etcd.go's Delete): mark it, nothing more. */
export function markCrdDeleted(crd: Obj, now: string): void {
  crd.metadata.deletionTimestamp = now;
  const finalizers: unknown[] = Array.isArray(crd.metadata.finalizers) ? crd.metadata.finalizers : [];
  if (!finalizers.includes(CLEANUP_FINALIZER)) crd.metadata.finalizers = [...finalizers, CLEANUP_FINALIZER];
  crd.status = setCondition(
    crd.status,
    { type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending', message: 'CustomResourceDefinition marked for deletion; instance deletion will begin soon' },
    now,
  );
}

const terminating = new WeakMap<RegistryContext, Set<string>>();
const running = new WeakMap<RegistryContext, Set<string>>();

function setOf(map: WeakMap<RegistryContext, Set<string>>, ctx: RegistryContext): Set<string> {
  let s = map.get(ctx);
  if (!s) map.set(ctx, (s = new Set()));
  return s;
}

const resourceKey = (crd: Obj) => `${crd.spec?.group}/${crd.spec?.names?.plural}`;

/** Whether the CRD serving group/plural is being deleted (its objects may not be created). */
export function crdTerminating(ctx: RegistryContext, group: string, plural: string): boolean {
  return terminating.get(ctx)?.has(`${group}/${plural}`) ?? false;
}

export function crdGone(ctx: RegistryContext, crd: Obj): void {
  terminating.get(ctx)?.delete(resourceKey(crd));
}

function crdResource(ctx: RegistryContext) {
  return ctx.catalog.versionsOf('apiextensions.k8s.io', 'customresourcedefinitions')[0];
}

async function updateStatus(ctx: RegistryContext, name: string, c: Condition): Promise<void> {
  const r = crdResource(ctx);
  if (!r) return;
  const now = rfc3339(ctx.now());
  await updateObject(ctx, r, '', name, (cur) => ({ ...cur, status: setCondition(cur.status, c, now) }), { dryRun: false, subresource: 'status', allowCreate: false, checkName: false });
}

/** Deletes every object of the CRD's resource; answers how many are still there (held by finalizers). */
async function deleteInstances(ctx: RegistryContext, crd: Obj): Promise<number> {
  const r = ctx.catalog.versionsOf(crd.spec?.group, crd.spec?.names?.plural)[0];
  if (!r) return 0;
  const { kvs } = await ctx.mvcc.range(r.keyPrefix);
  for (const kv of kvs) {
    const meta = (JSON.parse(kv.value) as Obj).metadata ?? {};
    await deleteObject(ctx, r, meta.namespace ?? '', meta.name, { dryRun: false }).catch((err) => {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    });
  }
  return (await ctx.mvcc.range(r.keyPrefix)).kvs.length;
}

async function finalize(ctx: RegistryContext, name: string): Promise<void> {
  const r = crdResource(ctx);
  if (!r) return;
  await new Promise<void>((resolve) => setTimeout(resolve, START_DELAY_MS));
  let pollingSince = ctx.now();
  for (;;) {
    if (ctx.closed) return;
    const kv = await ctx.mvcc.get(objectKey(r, '', name));
    const crd = kv ? (JSON.parse(kv.value) as Obj) : undefined;
    if (!crd?.metadata?.deletionTimestamp || !(crd.metadata.finalizers ?? []).includes(CLEANUP_FINALIZER)) return;
    await updateStatus(ctx, name, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' });
    if ((await deleteInstances(ctx, crd)) === 0) {
      await updateStatus(ctx, name, { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' });
      await updateObject(
        ctx,
        r,
        '',
        name,
        (cur) => ({ ...cur, metadata: { ...cur.metadata, finalizers: (cur.metadata.finalizers ?? []).filter((f: string) => f !== CLEANUP_FINALIZER) } }),
        { dryRun: false, subresource: '', allowCreate: false, checkName: false },
      );
      return;
    }
    if (ctx.now() - pollingSince >= CHECK_AFTER_MS) {
      await updateStatus(ctx, name, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionCheck', message: 'could not confirm zero CustomResources remaining: timed out waiting for the condition' });
      pollingSince = ctx.now();
    }
    await new Promise<void>((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Start (once per CRD) the cleanup of a CRD marked for deletion. */
export function startCrdFinalizer(ctx: RegistryContext, crd: Obj): void {
  setOf(terminating, ctx).add(resourceKey(crd));
  const name: string = crd.metadata.name;
  const busy = setOf(running, ctx);
  if (busy.has(name)) return;
  busy.add(name);
  runInBackground(ctx, async () => {
    try {
      await finalize(ctx, name);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    } finally {
      busy.delete(name);
    }
  });
}
