// What the generic store's create, update and delete share: the result shape, storage errors as
// API errors, reading one object, NamespaceLifecycle, and the checks every written object passes
// (body shape, namespace, validation, size).
import { StorageError, type KV } from '../storage/types';
import { ApiError, alreadyExists, badRequest, forbidden, invalid, notFound, requestEntityTooLarge, type FieldError } from '../meta/status';
import { objectKey, type ServedResource } from './catalog';
import { hooksFor, type RegistryContext } from './context';
import type { Obj } from './objects';
import { validateObjectMeta, validateObjectMetaUpdate } from '../validation';
import { defaultCustomObject } from './structural-defaults';
import { toDecodedForm } from './decoded-form';
import { toGoForm } from './go-order';
import type { AdmissionAttributes } from './admission-attributes';

/** etcd's default request limit is 1.5 MiB; kube-apiserver cannot store a larger object. */
export const MAX_OBJECT_BYTES = 1572864;

export interface WriteResult {
  /** The object at the served version of `r`. */
  obj: Obj;
  /** Stored text (storage version, without kind/apiVersion) when it exists; absent for dry runs that changed something. */
  text?: string;
  created?: boolean;
  /** False when the write was a no-op (nothing stored, resourceVersion unchanged). */
  changed: boolean;
}

export function mapStorageError(err: unknown, r: ServedResource, name: string): unknown {
  if (err instanceof StorageError) {
    if (err.code === 'KeyExists') return alreadyExists(r.info.group, r.info.resource, name);
    if (err.code === 'NotFound') return notFound(r.info.group, r.info.resource, name);
    if (err.code === 'Backend' || err.code === 'Unavailable') return new ApiError(500, 'InternalError', `Internal error occurred: ${err.message}`, { causes: [{ message: err.message }] });
  }
  return err;
}

export async function getObject(ctx: RegistryContext, r: ServedResource, ns: string, name: string): Promise<KV> {
  const kv = await ctx.mvcc.get(objectKey(r, ns, name));
  if (!kv) throw notFound(r.info.group, r.info.resource, name);
  return kv;
}

const terminatingByRevision = new WeakMap<KV, boolean>();

/** Whether a stored namespace is terminating (remembered per stored revision: no parse per create). */
function isTerminating(kv: KV): boolean {
  let t = terminatingByRevision.get(kv);
  if (t === undefined) {
    const nsObj = JSON.parse(kv.value) as Obj;
    t = !!nsObj.metadata?.deletionTimestamp || nsObj.status?.phase === 'Terminating';
    terminatingByRevision.set(kv, t);
  }
  return t;
}

/** NamespaceLifecycle: the namespace must exist, and must not be terminating for creates. */
export function checkNamespace(ctx: RegistryContext, r: ServedResource, ns: string, name: string): Promise<void> | undefined {
  if (!r.info.namespaced) return undefined;
  // kube's NamespaceLifecycle reads its informer and looks up live only when the cache misses.
  // Answered without a promise from the cache (the common case: no microtask turn per create).
  const key = namespaceKey(ns);
  const cached = ctx.mvcc.getCached?.(key);
  if (cached) return namespaceAdmits(cached, r, ns, name);
  return ctx.mvcc.get(key).then((kv) => namespaceAdmits(kv, r, ns, name));
}

/** The last namespace's key: the same string on each create into it, hashed once for the index. */
let lastNamespace = { ns: '', key: '/core/namespaces/' };

function namespaceKey(ns: string): string {
  if (lastNamespace.ns !== ns) lastNamespace = { ns, key: `/core/namespaces/${ns}` };
  return lastNamespace.key;
}

function namespaceAdmits(kv: KV | undefined, r: ServedResource, ns: string, name: string): undefined {
  if (!kv) throw notFound('', 'namespaces', ns);
  if (isTerminating(kv)) {
    const err = forbidden(r.info.group, r.info.resource, name, `unable to create new content in namespace ${ns} because it is being terminated`);
    // NamespaceLifecycle adds the cause clients look for (v1.NamespaceTerminatingCause).
    throw new ApiError(err.code, err.reason, err.message, { ...err.details, causes: [{ reason: 'NamespaceTerminating', message: `namespace ${ns} is being terminated`, field: 'metadata.namespace' }] });
  }
}

/**
 * Defaulting of a written object: a built-in kind's rules, a custom kind's structural schema.
 * kube defaults when it decodes the object (so before admission) and again when a mutating
 * webhook's patch is decoded.
 */
export function applyDefaults(r: ServedResource, obj: Obj): void {
  if (r.info.custom) defaultCustomObject(obj, r.info.openAPIV3Schema);
  else {
    r.spec?.rules?.defaults?.(obj);
    // Stored and answered as Go's decoder and marshaller leave it (canonical quantities, omitempty).
    toDecodedForm(r.info.definition, obj);
    toGoForm(obj);
  }
}

/** Object validation: metadata, the kind's rules, and the resource hook's store-aware checks. */
export function validateWrite(ctx: RegistryContext, r: ServedResource, obj: Obj, old: Obj | undefined, subresource = ''): void {
  const { group, kind, namespaced, custom } = r.info;
  // Custom resources and CRDs are validated by apimachinery's generic ObjectMeta rules (no core
  // finalizer-name rule: `customresourcecleanup.apiextensions.k8s.io` needs no '/').
  const generic = custom === true || group === 'apiextensions.k8s.io';
  const errs: FieldError[] = validateObjectMeta(obj.metadata, { namespaced, nameRule: r.spec?.nameRule ?? 'subdomain', custom: generic });
  if (old) errs.push(...validateObjectMetaUpdate(obj.metadata, old.metadata));
  const rules = r.spec?.rules;
  const env = { localWebhookOrigins: ctx.localWebhookOrigins };
  if (rules) errs.push(...((old ? rules.validateUpdate?.(obj, old, subresource, env) : rules.validateCreate?.(obj, env)) ?? []));
  const hooks = hooksFor(ctx, r);
  if (hooks?.validate) errs.push(...hooks.validate(ctx, r, obj, old));
  if (errs.length) throw invalid(group, kind, obj.metadata?.name ?? '', errs);
}

export function checkSize(text: string): void {
  if (text.length > MAX_OBJECT_BYTES) {
    throw requestEntityTooLarge(`object is too large to be stored: ${text.length} bytes exceeds the limit of ${MAX_OBJECT_BYTES} bytes`);
  }
}

export function requireObject(obj: unknown): asserts obj is Obj {
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw badRequest('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
}

export function setNamespace(r: ServedResource, meta: Obj, ns: string): void {
  if (r.info.namespaced) {
    if (meta.namespace && meta.namespace !== ns) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    meta.namespace = ns;
  } else {
    delete meta.namespace;
  }
}

/** Webhook admission applies to this write: a caller (attrs) and at least one configuration. */
export function webhooksFor(ctx: RegistryContext, attrs: AdmissionAttributes | undefined) {
  return attrs && ctx.webhooks?.configured() ? ctx.webhooks : undefined;
}
