// The generic store's create: system fields, defaults, admission (built-in and webhooks) and
// validation in kube-apiserver's order, then one storage create.
import type { KV } from '../storage/types';
import { ApiError } from '../meta/status';
import { objectKey, type ServedResource } from './catalog';
import { hooksFor, type RegistryContext } from './context';
import { admitCreateMutating, admitCreateValidating } from './admission-plugin';
import { newUid, randomSuffix, rfc3339, storedTextTemplate, type Obj } from './objects';
import { trackWrite, type FieldOwner } from './managed-fields';
import { prepareServedTexts, storageForm } from './conversion';
import type { AdmissionAttributes } from './admission-attributes';
import { toDecodedForm } from './decoded-form';
import { applyDefaults, checkNamespace, checkSize, mapStorageError, requireObject, setNamespace, validateWrite, webhooksFor, type WriteResult } from './store-common';
import { assignOwn } from '../codec/own-keys';

/** Puts a webhook's mutated object in place of `target` (callers hold references to it). */
function replaceContents(target: Obj, source: Obj, r: ServedResource): void {
  for (const k of Object.keys(target)) delete target[k];
  assignOwn(target, source);
  target.kind = r.info.kind;
  target.apiVersion = r.apiVersion;
  if (!target.metadata || typeof target.metadata !== 'object') target.metadata = {};
}

/**
 * `attrs` are the request's admission attributes; internal writes pass none (no webhooks, no
 * PodSecurity warnings).
 */
export async function createObject(ctx: RegistryContext, r: ServedResource, ns: string, input: unknown, dryRun: boolean, owner?: FieldOwner, restore = false, attrs?: AdmissionAttributes): Promise<WriteResult> {
  requireObject(input);
  const obj = input;
  obj.kind = r.info.kind;
  obj.apiVersion = r.apiVersion;
  // kube decodes the body into its Go struct before anything looks at it: the hooks below (IP
  // allocation, quota) see Go's zero values, not a body's nulls. Defaulting repeats this pass.
  if (!r.info.custom) toDecodedForm(r.info.definition, obj);
  if (!obj.metadata || typeof obj.metadata !== 'object' || Array.isArray(obj.metadata)) obj.metadata = {};
  let meta = obj.metadata as Obj;
  setNamespace(r, meta, ns);
  if (!meta.name && typeof meta.generateName === 'string' && meta.generateName) meta.name = meta.generateName + randomSuffix();
  // A restore (import of an export) keeps the object's identity; anything else gets a new one.
  if (!(restore && typeof meta.uid === 'string' && meta.uid)) meta.uid = newUid();
  if (!(restore && typeof meta.creationTimestamp === 'string' && meta.creationTimestamp)) meta.creationTimestamp = rfc3339(ctx.now());
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  // A restore keeps what the exported object had: its generation, its status and (below) its
  // managedFields, so an export imported into a fresh cluster reads back as it was written.
  const restored = restore ? { generation: meta.generation, status: obj.status, managedFields: meta.managedFields } : undefined;
  if (r.strategy.tracksGeneration) meta.generation = restoredGeneration(restored?.generation) ?? 1;
  else delete meta.generation;
  r.strategy.prepareForCreate(obj);
  if (restored && restored.status !== undefined) obj.status = restored.status;
  // Both checks below answer without a promise when they can: awaited only then (a turn each).
  const namespaceChecked = checkNamespace(ctx, r, ns, meta.name ?? '');
  if (namespaceChecked) await namespaceChecked;
  // Built-in mutating admission first, then the kind's own hooks (as kube's registry runs after admission).
  const mutated = admitCreateMutating(ctx, r, obj, attrs);
  if (mutated) await mutated;
  const hooks = hooksFor(ctx, r);
  const reservation = hooks?.beforeCreate ? await hooks.beforeCreate(ctx, r, obj, attrs) : undefined;
  let kv: KV;
  try {
    applyDefaults(r, obj);
    // kube's order: mutating webhooks after built-in mutating admission, validating ones last.
    const webhooks = webhooksFor(ctx, attrs);
    if (webhooks) {
      const mutated = await webhooks.mutate(ctx, createReview(r, ns, obj, attrs));
      if (mutated && mutated !== obj) {
        replaceContents(obj, mutated, r);
        meta = obj.metadata;
        setNamespace(r, meta, ns);
        applyDefaults(r, obj);
      }
    }
    if (restored && Array.isArray(restored.managedFields) && restored.managedFields.length > 0) meta.managedFields = restored.managedFields;
    else if (owner) trackWrite(r, undefined, obj, '', owner, rfc3339(ctx.now()));
    validateWrite(ctx, r, obj, undefined);
    const validated = admitCreateValidating(ctx, r, obj, attrs);
    if (validated) await validated;
    if (webhooks) await webhooks.validate(ctx, createReview(r, ns, obj, attrs));
    const stored = storedTextTemplate(storageForm(r, obj));
    checkSize(stored.text);
    if (dryRun) {
      reservation?.undo();
      return { obj, created: true, changed: true };
    }
    // The storage layer's check, after validation and admission, and not on a dry run (kube's
    // dry-run storage skips it): a resourceVersion that parses as a revision other than 0.
    if (setsRevision(meta.resourceVersion)) throw new ApiError(500, '', 'resourceVersion should not be set on objects to be created');
    kv = await ctx.mvcc.create(objectKey(r, ns, meta.name), stored.withRevision);
  } catch (err) {
    reservation?.undo();
    throw mapStorageError(err, r, meta.name);
  }
  reservation?.commit?.();
  prepareServedTexts(ctx.catalog.codecsAt(r.keyPrefix), kv.value);
  meta.resourceVersion = String(kv.modRev);
  // Awaited only when it returns a promise (awaiting undefined still costs a turn).
  const after = hooks?.afterCreate?.(ctx, r, obj);
  if (after) await after;
  return { obj, text: kv.value, created: true, changed: true };
}

/** What webhooks review of a create (built when webhooks are called: no closure per create). */
function createReview(r: ServedResource, ns: string, obj: Obj, attrs: AdmissionAttributes | undefined) {
  return { r, namespace: ns, name: String(obj.metadata.name ?? ''), object: obj, oldObject: null, attrs: attrs as AdmissionAttributes };
}

function restoredGeneration(g: unknown): number | undefined {
  return typeof g === 'number' && Number.isSafeInteger(g) && g > 0 ? g : undefined;
}

/** storage.APIObjectVersioner.ObjectResourceVersion succeeds with a non-zero revision (strconv.ParseUint). */
function setsRevision(rv: unknown): boolean {
  if (typeof rv !== 'string' || !/^[0-9]+$/.test(rv) || rv.length > 20) return false;
  const n = BigInt(rv);
  return n > 0n && n < 2n ** 64n;
}
