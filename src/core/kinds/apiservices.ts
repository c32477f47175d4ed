// The APIServices kube-apiserver v1.23 keeps for the APIs it serves itself (kube-aggregator's
// autoregister controller, fed by cmd/kube-apiserver's apiServicesToRegister and the CRD
// registration controller):
// - at start, one per served built-in group/version with a priority (apiservice-priorities.ts),
//   labelled `automanaged: onstart`: created when missing, its spec put back once, and deleted
//   once when the group/version is no longer served (a --runtime-config change);
// - one per group/version a CRD serves, labelled `automanaged: "true"`: kept in step with the
//   CRDs (created when a version is served, deleted when no CRD serves it any more). A
//   group/version a built-in already registers keeps the built-in's APIService.
// APIServices without the label (a client's) are never touched. The strategy's PrepareForCreate
// marks a local APIService (no spec.service) Available at once.
import { addAfterHooks, runInBackground, type RegistryContext, type ResourceHooks } from '../registry/context';
import { kindKey } from '../registry/kind-spec';
import type { ServedResource } from '../registry/catalog';
import { createObject, deleteObject, updateObject } from '../registry/store';
import { deepEqual, type Obj } from '../registry/objects';
import { ApiError } from '../meta/status';
import { builtinApiServicePriority } from './apiservice-priorities';
import { apiServiceResource } from './apiservice-resource';
import { LOCAL_AVAILABLE, withAvailable } from './apiservice-conditions';
import { setOwnKey } from '../codec/own-keys';

export const AUTOMANAGED_LABEL = 'kube-aggregator.kubernetes.io/automanaged';
const ON_START = 'onstart';
const CONTINUOUSLY = 'true';
/** The CRD registration controller's priorities: CRDs sort after every built-in group. */
const CRD_PRIORITY = { groupPriorityMinimum: 1000, versionPriority: 100 };

interface Desired {
  label: string;
  /** Go leaves an empty group out (`v1.`), so the core group's spec has none. */
  spec: { group?: string; version: string; groupPriorityMinimum: number; versionPriority: number };
}

/** `v1.apps`, and `v1.` for the core group. */
export function apiServiceName(group: string, version: string): string {
  return `${version}.${group}`;
}

function servedGroupVersions(ctx: RegistryContext, custom: boolean): Array<[string, string]> {
  const seen = new Map<string, [string, string]>();
  for (const r of ctx.catalog.servedResources()) {
    if ((r.info.custom === true) !== custom) continue;
    seen.set(apiServiceName(r.info.group, r.info.version), [r.info.group, r.info.version]);
  }
  return [...seen.values()];
}

/** What the start-up registration wants: the served built-ins kube has a priority for. */
function builtinDesired(ctx: RegistryContext): Map<string, Desired> {
  const out = new Map<string, Desired>();
  for (const [group, version] of servedGroupVersions(ctx, false)) {
    const p = builtinApiServicePriority(group, version);
    if (p) out.set(apiServiceName(group, version), { label: ON_START, spec: { ...(group ? { group } : {}), version, groupPriorityMinimum: p.group, versionPriority: p.version } });
  }
  return out;
}

/** What the CRD registration wants: every group/version a CRD serves, built-in names left out. */
function crdDesired(ctx: RegistryContext, builtins: Map<string, Desired>): Map<string, Desired> {
  const out = new Map<string, Desired>();
  for (const [group, version] of servedGroupVersions(ctx, true)) {
    const name = apiServiceName(group, version);
    if (!builtins.has(name)) out.set(name, { label: CONTINUOUSLY, spec: { group, version, ...CRD_PRIORITY } });
  }
  return out;
}

/** The spec without the zero values Go leaves out, to compare with a desired one. */
function meaningfulSpec(spec: Obj | undefined): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(spec ?? {})) if (v !== null && v !== undefined && v !== false && v !== '' && v !== 0) setOwnKey(out, k, v);
  return out;
}

/** An internal write that lost a race (the object appeared, went or changed meanwhile) is fine. */
function ignoreRaces(err: unknown): void {
  if (!(err instanceof ApiError && (err.code === 404 || err.code === 409))) throw err;
}

/**
 * One pass of kube's autoregister controller over the stored APIServices: create what is
 * desired and missing, put a managed one's spec back, delete a managed one no longer desired.
 * `managed` says which labels this pass owns. Writes only what differs.
 */
async function reconcile(ctx: RegistryContext, r: ServedResource, desired: Map<string, Desired>, managed: Set<string>): Promise<void> {
  const { kvs } = await ctx.mvcc.range(r.keyPrefix);
  const existing = new Map<string, Obj>();
  for (const kv of kvs) {
    const obj = JSON.parse(kv.value) as Obj;
    existing.set(String(obj.metadata?.name ?? ''), obj);
  }
  const writes: Array<Promise<unknown>> = [];
  for (const [name, obj] of existing) {
    if (!managed.has(obj.metadata?.labels?.[AUTOMANAGED_LABEL])) continue;
    const want = desired.get(name);
    if (!want) {
      writes.push(deleteObject(ctx, r, '', name, { dryRun: false }).catch(ignoreRaces));
    } else if (!deepEqual(meaningfulSpec(obj.spec), want.spec)) {
      // kube replaces the spec only; labels and status stay.
      const update = updateObject(ctx, r, '', name, (cur) => ({ ...cur, spec: { ...want.spec } }), { dryRun: false, subresource: '', allowCreate: false, checkName: false });
      writes.push(update.catch(ignoreRaces));
    }
  }
  for (const [name, want] of desired) {
    if (existing.has(name)) continue;
    const body = { metadata: { name, labels: { [AUTOMANAGED_LABEL]: want.label } }, spec: { ...want.spec } };
    writes.push(createObject(ctx, r, '', body, false).catch(ignoreRaces));
  }
  // Issued together so the store commits them as one batch (a fresh store creates about 30).
  await Promise.all(writes);
}

/** The start-up registration (kube's post-start hook kube-apiserver-autoregistration), after the CRDs are served. */
export async function bootstrapApiServices(ctx: RegistryContext): Promise<void> {
  const r = apiServiceResource(ctx);
  if (!r) return;
  const builtins = builtinDesired(ctx);
  const crds = crdDesired(ctx, builtins);
  await reconcile(ctx, r, new Map([...builtins, ...crds]), new Set([ON_START, CONTINUOUSLY]));
  crdSignatures.set(ctx, signature(crds));
}

const crdSyncs = new WeakMap<RegistryContext, Promise<void>>();
/** The CRD group/versions the last pass registered: most CRD writes (status, schema) change none. */
const crdSignatures = new WeakMap<RegistryContext, string>();

function signature(desired: Map<string, Desired>): string {
  return [...desired.keys()].sort().join(',');
}

/**
 * The CRD registration controller's pass: only `automanaged: "true"` APIServices change. One at
 * a time; skipped when the served CRD group/versions are the ones the last pass saw, unless
 * `recheck` (an APIService of a CRD was edited or deleted).
 */
export function syncCrdApiServices(ctx: RegistryContext, recheck = false): Promise<void> {
  const run = async () => {
    const r = apiServiceResource(ctx);
    if (!r || ctx.closed) return;
    const desired = crdDesired(ctx, builtinDesired(ctx));
    const sig = signature(desired);
    if (!recheck && crdSignatures.get(ctx) === sig) return;
    await reconcile(ctx, r, desired, new Set([CONTINUOUSLY]));
    crdSignatures.set(ctx, sig);
  };
  const next = (crdSyncs.get(ctx) ?? Promise.resolve()).then(run);
  crdSyncs.set(
    ctx,
    next.catch(() => undefined),
  );
  return next;
}

/** APIService's hooks (its kind spec's, kinds/cluster.ts): the strategy's create step and undoing edits of CRDs' APIServices. */
export function apiServiceHooks(): ResourceHooks {
  return {
    // PrepareForCreate: status starts empty, and a local APIService is Available from its first revision.
    beforeCreate(c, _r, obj) {
      obj.status = obj.spec?.service ? {} : withAvailable(undefined, LOCAL_AVAILABLE, c.now());
    },
    // A client's edit or delete of a CRD's APIService is undone, as kube's controller does on
    // its informer's event. In the background: this may be the reconcile's own write.
    afterUpdate(c, _r, obj) {
      if (obj.metadata?.labels?.[AUTOMANAGED_LABEL] === CONTINUOUSLY) runInBackground(c, () => syncCrdApiServices(c, true));
    },
    afterDelete(c, _r, obj) {
      if (obj.metadata?.labels?.[AUTOMANAGED_LABEL] === CONTINUOUSLY) runInBackground(c, () => syncCrdApiServices(c, true));
    },
  };
}

/** The APIServices of CRDs' group/versions follow every CRD write; call after the CRD's own hooks are added. */
export function followCrdsWithApiServices(ctx: RegistryContext): void {
  // After a CRD write its group/versions' APIServices follow; a failure here never fails the CRD write.
  const sync = async (c: RegistryContext) => {
    await syncCrdApiServices(c).catch((err) => {
      if (!c.closed) console.error('APIService registration for CRDs failed:', err);
    });
  };
  addAfterHooks(ctx, kindKey('apiextensions.k8s.io', 'CustomResourceDefinition'), { afterCreate: sync, afterUpdate: sync, afterDelete: sync });
}
