// The generic store: create, update, delete and get of any resource, with the object semantics
// of kube-apiserver's generic registry (system fields, generation, status handling, optimistic
// concurrency, finalizers, dry run). Handlers do HTTP; this file does objects.
import { StorageError, type KV, type Mutation } from '../storage/types';
import {
  ApiError,
  alreadyExists,
  badRequest,
  conflict,
  forbidden,
  invalid,
  notFound,
  requestEntityTooLarge,
  OPTIMISTIC_LOCK_MESSAGE,
  type FieldError,
} from '../server/status';
import { objectKey, type ServedResource } from './catalog';
import { hooksFor, type RegistryContext, type Reservation } from './context';
import { clone, deepEqual, newUid, parseStored, randomSuffix, rfc3339, storedTextTemplate, toStoredText, type Obj } from './objects';
import { nameRuleFor, rulesFor, validateObjectMeta, validateObjectMetaUpdate } from './validation';
import { trackWrite, type FieldOwner } from './managed-fields';
import { storageForm } from './conversion';
import type { AdmissionAttributes } from '../admission/attributes';
import { updateWithWebhooks } from '../admission/webhooks/guaranteed-update';

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
export async function checkNamespace(ctx: RegistryContext, r: ServedResource, ns: string, name: string): Promise<void> {
  if (!r.info.namespaced) return;
  const kv = await ctx.mvcc.get(`/core/namespaces/${ns}`);
  if (!kv) throw notFound('', 'namespaces', ns);
  if (isTerminating(kv)) {
    throw forbidden(r.info.group, r.info.resource, name, `unable to create new content in namespace ${ns} because it is being terminated`);
  }
}

function validate(ctx: RegistryContext, r: ServedResource, obj: Obj, old: Obj | undefined): void {
  const { group, kind, namespaced, custom } = r.info;
  const errs: FieldError[] = validateObjectMeta(obj.metadata, { namespaced, nameRule: custom ? 'subdomain' : nameRuleFor(group, kind) });
  if (old) errs.push(...validateObjectMetaUpdate(obj.metadata, old.metadata));
  const rules = rulesFor(group, kind);
  if (rules) errs.push(...((old ? rules.validateUpdate?.(obj, old) : rules.validateCreate?.(obj)) ?? []));
  const hooks = hooksFor(ctx, r);
  if (hooks?.validate) errs.push(...hooks.validate(ctx, r, obj, old));
  if (errs.length) throw invalid(group, kind, obj.metadata?.name ?? '', errs);
}

function checkSize(text: string): void {
  if (text.length > MAX_OBJECT_BYTES) {
    throw requestEntityTooLarge(`object is too large to be stored: ${text.length} bytes exceeds the limit of ${MAX_OBJECT_BYTES} bytes`);
  }
}

function requireObject(obj: unknown): asserts obj is Obj {
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw badRequest('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
}

function setNamespace(r: ServedResource, meta: Obj, ns: string): void {
  if (r.info.namespaced) {
    if (meta.namespace && meta.namespace !== ns) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    meta.namespace = ns;
  } else {
    delete meta.namespace;
  }
}

/** Puts a webhook's mutated object in place of `target` (callers hold references to it). */
function replaceContents(target: Obj, source: Obj, r: ServedResource): void {
  for (const k of Object.keys(target)) delete target[k];
  Object.assign(target, source);
  target.kind = r.info.kind;
  target.apiVersion = r.apiVersion;
  if (!target.metadata || typeof target.metadata !== 'object') target.metadata = {};
}

/** Webhook admission applies to this write: a caller (attrs) and at least one configuration. */
function webhooksFor(ctx: RegistryContext, attrs: AdmissionAttributes | undefined) {
  return attrs && ctx.webhooks?.configured() ? ctx.webhooks : undefined;
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
  if (!obj.metadata || typeof obj.metadata !== 'object' || Array.isArray(obj.metadata)) obj.metadata = {};
  let meta = obj.metadata as Obj;
  setNamespace(r, meta, ns);
  if (meta.resourceVersion) throw new ApiError(500, '', 'resourceVersion should not be set on objects to be created');
  if (!meta.name && typeof meta.generateName === 'string' && meta.generateName) meta.name = meta.generateName + randomSuffix();
  // A restore (import of an export) keeps the object's identity; anything else gets a new one.
  if (!(restore && typeof meta.uid === 'string' && meta.uid)) meta.uid = newUid();
  if (!(restore && typeof meta.creationTimestamp === 'string' && meta.creationTimestamp)) meta.creationTimestamp = rfc3339(ctx.now());
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  if (r.strategy.tracksGeneration) meta.generation = 1;
  else delete meta.generation;
  r.strategy.prepareForCreate(obj);
  await checkNamespace(ctx, r, ns, meta.name ?? '');
  const hooks = hooksFor(ctx, r);
  const reservation = hooks?.beforeCreate ? await hooks.beforeCreate(ctx, r, obj, attrs) : undefined;
  let kv: KV;
  try {
    rulesFor(r.info.group, r.info.kind)?.defaults?.(obj);
    // kube's order: mutating webhooks after built-in mutating admission, validating ones last.
    const webhooks = webhooksFor(ctx, attrs);
    const review = () => ({ r, namespace: ns, name: String(meta.name ?? ''), object: obj, oldObject: null, attrs: attrs as AdmissionAttributes });
    if (webhooks) {
      const mutated = await webhooks.mutate(ctx, review());
      if (mutated && mutated !== obj) {
        replaceContents(obj, mutated, r);
        meta = obj.metadata;
        setNamespace(r, meta, ns);
      }
    }
    if (owner) trackWrite(r, undefined, obj, '', owner, rfc3339(ctx.now()));
    validate(ctx, r, obj, undefined);
    if (hooks?.admitCreate) await hooks.admitCreate(ctx, r, obj, attrs);
    if (webhooks) await webhooks.validate(ctx, review());
    const stored = storedTextTemplate(storageForm(r, obj));
    checkSize(stored.text);
    if (dryRun) {
      reservation?.undo();
      return { obj, created: true, changed: true };
    }
    kv = await ctx.mvcc.create(objectKey(r, ns, meta.name), stored.withRevision);
  } catch (err) {
    reservation?.undo();
    throw mapStorageError(err, r, meta.name);
  }
  reservation?.commit?.();
  meta.resourceVersion = String(kv.modRev);
  await hooks?.afterCreate?.(ctx, r, obj);
  return { obj, text: kv.value, created: true, changed: true };
}

export interface UpdateOptions {
  dryRun: boolean;
  /** '' for the main resource, 'status' for the status subresource. */
  subresource: string;
  /** PUT may create (when the strategy allows); PATCH never does. */
  allowCreate: boolean;
  /** PUT checks that the body names the object of the URL. */
  checkName: boolean;
  /** Record the write in managedFields as this manager (absent for internal writes). */
  owner?: FieldOwner;
  /** The desired object already carries its managedFields (server-side apply computed them). */
  managedFieldsDone?: boolean;
  /** The request's admission attributes (absent for internal writes). */
  attrs?: AdmissionAttributes;
}

function withoutVolatile(o: Obj): Obj {
  const c = { ...o, metadata: { ...o.metadata } };
  delete c.metadata.resourceVersion;
  return c;
}

function specChanged(a: Obj, b: Obj): boolean {
  const strip = (o: Obj) => {
    const c = { ...o };
    delete c.metadata;
    delete c.status;
    return c;
  };
  return !deepEqual(strip(a), strip(b));
}

/**
 * Read-modify-write. `desired` gets a private copy of the current object and returns the new
 * object (a PUT body, or the current object with a patch applied); it runs against the latest
 * state inside the storage transaction, so concurrent writers cannot interleave.
 */
export async function updateObject(
  ctx: RegistryContext,
  r: ServedResource,
  ns: string,
  name: string,
  desired: (current: Obj) => unknown,
  opts: UpdateOptions,
  createBody?: () => unknown,
): Promise<WriteResult> {
  const key = objectKey(r, ns, name);
  if (opts.allowCreate && r.strategy.allowCreateOnUpdate && !opts.subresource && createBody) {
    const existing = await ctx.mvcc.get(key);
    if (!existing) {
      try {
        const attrs = opts.attrs && { ...opts.attrs, operation: 'CREATE' as const, options: { ...opts.attrs.options, kind: 'CreateOptions' } };
        return await createObject(ctx, r, ns, createBody(), opts.dryRun, opts.owner, false, attrs);
      } catch (err) {
        if (!(err instanceof ApiError && err.reason === 'AlreadyExists')) throw err;
      }
    }
  }
  const { group, resource, kind } = r.info;
  let result: Obj | undefined;
  let deleted = false;
  let old: Obj | undefined;
  let reservation: Reservation | undefined;
  const hooks = hooksFor(ctx, r);
  const admissionCheck = hooks?.prepareUpdate ? await hooks.prepareUpdate(ctx, r, ns, opts.attrs) : undefined;
  const webhooks = webhooksFor(ctx, opts.attrs);
  // First half of the read-modify-write: the next object, defaulted and through built-in
  // mutating admission; undefined when nothing changes (result is then the old object).
  const prepare = (cur: KV | undefined): Obj | undefined => {
    if (!cur) throw notFound(group, resource, name);
    old = r.codec ? r.codec.toServed(cur.value) : parseStored(cur.value, kind, r.apiVersion);
    const out = desired(clone(old));
    requireObject(out);
    const obj = out;
    obj.kind = kind;
    obj.apiVersion = r.apiVersion;
    if (!obj.metadata || typeof obj.metadata !== 'object') obj.metadata = {};
    const meta = obj.metadata as Obj;
    if (opts.checkName && meta.name !== name) {
      throw badRequest(`the name of the object (${meta.name ?? ''}) does not match the name on the URL (${name})`);
    }
    setNamespace(r, meta, ns);
    const rv = meta.resourceVersion;
    if (rv) {
      if (rv !== String(cur.modRev)) throw conflict(group, resource, name, OPTIMISTIC_LOCK_MESSAGE);
    } else if (!r.strategy.allowUnconditionalUpdate) {
      throw invalid(group, kind, name, [{ type: 'FieldValueInvalid', field: 'metadata.resourceVersion', valueText: '0x0', detail: 'must be specified for an update' }]);
    }
    const om = old.metadata as Obj;
    if (!meta.uid) meta.uid = om.uid;
    meta.creationTimestamp = om.creationTimestamp;
    if (om.deletionTimestamp) meta.deletionTimestamp = om.deletionTimestamp;
    else delete meta.deletionTimestamp;
    if (om.deletionGracePeriodSeconds !== undefined) meta.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds;
    else delete meta.deletionGracePeriodSeconds;
    if (om.generation !== undefined) meta.generation = om.generation;
    else delete meta.generation;
    let next: Obj = obj;
    const rules = rulesFor(group, kind);
    if (opts.subresource === 'status') {
      // A status write changes status only (and, for an apply, the managedFields it computed).
      next = clone(old);
      if (obj.status === undefined) delete next.status;
      else next.status = obj.status;
      if (opts.managedFieldsDone) {
        if (obj.metadata.managedFields === undefined) delete next.metadata.managedFields;
        else next.metadata.managedFields = obj.metadata.managedFields;
      }
    } else if (opts.subresource === 'finalize') {
      // namespaces/<n>/finalize changes spec.finalizers only.
      next = clone(old);
      next.spec = { ...(next.spec ?? {}) };
      if (obj.spec?.finalizers === undefined) delete next.spec.finalizers;
      else next.spec.finalizers = obj.spec.finalizers;
    } else {
      if (r.strategy.hasStatusSubresource) {
        if (old.status === undefined) delete next.status;
        else next.status = old.status;
      }
      rules?.prepareForUpdate?.(next, old);
    }
    // Nothing asked to change (a no-op apply or patch): the stored object is already defaulted
    // and valid, so skip the rest and write nothing.
    if (deepEqual(withoutVolatile(next), withoutVolatile(old))) {
      result = old;
      return undefined;
    }
    // Defaulting would put back the `kubernetes` finalizer a finalize write removes.
    if (opts.subresource !== 'finalize') rules?.defaults?.(next);
    if (opts.owner && !opts.managedFieldsDone) trackWrite(r, old, next, opts.subresource === 'finalize' ? '' : opts.subresource, opts.owner, rfc3339(ctx.now()));
    reservation = hooks?.beforeUpdate?.(ctx, r, next, old, opts.attrs) ?? undefined;
    return next;
  };
  // Object validation and synchronous validating admission.
  const check = (next: Obj): void => {
    const o = old as Obj;
    if (r.strategy.tracksGeneration && specChanged(next, o)) next.metadata.generation = (o.metadata.generation ?? 0) + 1;
    validate(ctx, r, next, o);
    admissionCheck?.(next, o);
  };
  // Second half: what to write.
  const commit = (next: Obj): Mutation => {
    const o = old as Obj;
    if (next.metadata.deletionTimestamp && r.strategy.finalized(next)) {
      result = next;
      deleted = true;
      return opts.dryRun ? { kind: 'none' } : { kind: 'delete' };
    }
    if (deepEqual(withoutVolatile(next), withoutVolatile(o))) {
      result = o;
      return { kind: 'none' };
    }
    const stored = storedTextTemplate(storageForm(r, next));
    checkSize(stored.text);
    result = next;
    if (opts.dryRun) return { kind: 'none' };
    return { kind: 'put', encode: stored.withRevision };
  };
  let res;
  try {
    if (!webhooks) {
      res = await ctx.mvcc.update(key, (cur) => {
        const next = prepare(cur);
        if (!next) return { kind: 'none' };
        check(next);
        return commit(next);
      });
    } else {
      res = await updateWithWebhooks(ctx, key, webhooks, { r, namespace: ns, name, attrs: opts.attrs as AdmissionAttributes }, {
        prepare,
        check,
        commit,
        fixUp: (next) => setNamespace(r, next.metadata, ns),
        oldObject: () => old as Obj,
        reset: () => {
          reservation?.undo();
          reservation = undefined;
          deleted = false;
        },
      });
    }
  } catch (err) {
    reservation?.undo();
    throw mapStorageError(err, r, name);
  }
  const obj = result as Obj;
  if (res.kv && res.changed) reservation?.commit?.();
  else reservation?.undo();
  if (res.kv && res.changed) {
    obj.metadata.resourceVersion = String(res.kv.modRev);
    await hooks?.afterUpdate?.(ctx, r, obj, old as Obj);
    return { obj, text: res.kv.value, changed: true };
  }
  if (deleted) {
    if (res.changed) await hooks?.afterDelete?.(ctx, r, obj);
    return { obj, changed: true };
  }
  const unchanged = obj === old;
  return { obj, text: unchanged && res.prev ? res.prev.value : undefined, changed: !unchanged };
}

export interface DeleteOptions {
  dryRun: boolean;
  gracePeriodSeconds?: number;
  propagationPolicy?: string;
  preconditions?: { uid?: string; resourceVersion?: string };
  /** The request's admission attributes (absent for internal deletes). */
  attrs?: AdmissionAttributes;
}

export interface DeleteResult {
  obj: Obj;
  /** True when the object is gone; false when it was only marked (finalizers, namespace). */
  deleted: boolean;
}

export async function deleteObject(ctx: RegistryContext, r: ServedResource, ns: string, name: string, opts: DeleteOptions): Promise<DeleteResult> {
  const { group, resource, kind } = r.info;
  const isNamespace = group === '' && resource === 'namespaces';
  let result: Obj | undefined;
  let gone = false;
  const webhooks = webhooksFor(ctx, opts.attrs);
  if (webhooks) {
    // DELETE admission sees the object as read just before the delete (object null, oldObject it).
    const cur = await ctx.mvcc.get(objectKey(r, ns, name));
    if (!cur) throw notFound(group, resource, name);
    const oldObject = r.codec ? r.codec.toServed(cur.value) : parseStored(cur.value, kind, r.apiVersion);
    const review = { r, namespace: ns, name, object: null, oldObject, attrs: opts.attrs as AdmissionAttributes };
    await webhooks.mutate(ctx, review);
    await webhooks.validate(ctx, review);
  }
  try {
    await ctx.mvcc.update(objectKey(r, ns, name), (cur) => {
      if (!cur) throw notFound(group, resource, name);
      const old = r.codec ? r.codec.toServed(cur.value) : parseStored(cur.value, kind, r.apiVersion);
      const om = old.metadata as Obj;
      const pre = opts.preconditions;
      // rest.BeforeDelete's wording: the conflict names the Kind, not the resource.
      if (pre?.uid && pre.uid !== om.uid) {
        throw conflict(group, kind, name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${om.uid}). The object might have been deleted and then recreated`);
      }
      if (pre?.resourceVersion && pre.resourceVersion !== om.resourceVersion) {
        throw conflict(group, kind, name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${om.resourceVersion}). The object might have been modified`);
      }
      if (om.deletionTimestamp) {
        // Already terminating: deleting again changes nothing.
        result = old;
        return { kind: 'none' };
      }
      const hasFinalizers = Array.isArray(om.finalizers) && om.finalizers.length > 0;
      if (hasFinalizers || isNamespace) {
        const next = clone(old);
        next.metadata.deletionTimestamp = rfc3339(ctx.now());
        next.metadata.deletionGracePeriodSeconds = 0;
        if (next.metadata.generation !== undefined) next.metadata.generation += 1;
        if (isNamespace) next.status = { ...(next.status ?? {}), phase: 'Terminating' };
        result = next;
        if (opts.dryRun) return { kind: 'none' };
        return { kind: 'put', encode: (rev: number) => toStoredText(storageForm(r, next), String(rev)) };
      }
      result = old;
      gone = true;
      return opts.dryRun ? { kind: 'none' } : { kind: 'delete' };
    }).then((res) => {
      if (res.kv && res.changed && result) result.metadata.resourceVersion = String(res.kv.modRev);
    });
  } catch (err) {
    throw mapStorageError(err, r, name);
  }
  const obj = result as Obj;
  const hooks = hooksFor(ctx, r);
  if (!opts.dryRun) {
    if (gone) await hooks?.afterDelete?.(ctx, r, obj);
    else await hooks?.afterUpdate?.(ctx, r, obj, obj);
  }
  return { obj, deleted: gone };
}
