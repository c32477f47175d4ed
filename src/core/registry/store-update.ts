// The generic store's update: create-on-update where allowed, then the read-modify-write of
// store-update-steps — one synchronous storage transaction, or, when webhooks apply, the
// optimistic read-admit-commit loop of webhook-update.ts.
import { ApiError } from '../meta/status';
import { objectKey, type ServedResource } from './catalog';
import { hooksFor, type RegistryContext } from './context';
import { prepareUpdateValidating } from './admission-plugin';
import { orderedMetadata, type Obj } from './objects';
import type { FieldOwner } from './managed-fields';
import type { AdmissionAttributes } from './admission-attributes';
import type { AdmissionView } from './admission-view';
import { updateWithWebhooks } from './webhook-update';
import { mapStorageError, webhooksFor, type WriteResult } from './store-common';
import { createObject } from './store-create';
import { UpdateAttempt } from './store-update-steps';
import { prepareServedTexts } from './conversion';

export interface UpdateOptions {
  dryRun: boolean;
  /** '' for the main resource, or the subresource written through (its write adapter: subresource-write.ts). */
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
  /** How webhooks see the object when the request's subresource is served as another kind (Scale). */
  view?: AdmissionView;
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
        const attrs = opts.attrs && { ...opts.attrs, auditAnnotations: opts.attrs.auditAnnotations, operation: 'CREATE' as const, options: { ...opts.attrs.options, kind: 'CreateOptions' } };
        return await createObject(ctx, r, ns, createBody(), opts.dryRun, opts.owner, false, attrs);
      } catch (err) {
        if (!(err instanceof ApiError && err.reason === 'AlreadyExists')) throw err;
      }
    }
  }
  const hooks = hooksFor(ctx, r);
  const admissionCheck = await prepareUpdateValidating(ctx, r, ns, opts.attrs);
  const webhooks = webhooksFor(ctx, opts.attrs);
  const attempt = new UpdateAttempt(ctx, r, ns, name, desired, opts, hooks, admissionCheck);
  let res;
  try {
    if (!webhooks) {
      // The fast path: a no-op stops after prepare, without validation or admission.
      res = await ctx.mvcc.update(key, (cur) => {
        // A store that retries on a conflict (etcd's compare-and-swap) calls this again: what the
        // previous try reserved (a Service's IPs) is released first.
        attempt.reset();
        const { next, noop } = attempt.prepare(cur);
        if (noop) return { kind: 'none' };
        attempt.check(next);
        return attempt.commit(next);
      });
    } else {
      res = await updateWithWebhooks(ctx, key, webhooks, { r, namespace: ns, name, attrs: opts.attrs as AdmissionAttributes, view: opts.view }, attempt);
    }
  } catch (err) {
    attempt.reservation?.undo();
    throw mapStorageError(err, r, name);
  }
  const obj = attempt.result as Obj;
  const old = attempt.old as Obj;
  if (res.kv && res.changed) attempt.reservation?.commit?.();
  else attempt.reservation?.undo();
  if (attempt.deleted) {
    // The write removed the last finalizer: kube deletes the object and answers the object the
    // write made, at the revision it was made from (deleteWithoutFinalizers), not the deletion's.
    // An unconditional update answers the revision it replaced, as it would have been written at.
    if (!obj.metadata.resourceVersion) obj.metadata = orderedMetadata(obj.metadata, old.metadata.resourceVersion);
    if (res.changed) await hooks?.afterDelete?.(ctx, r, obj);
    return { obj, changed: true };
  }
  if (res.kv && res.changed) {
    prepareServedTexts(ctx.catalog.codecsAt(r.keyPrefix), res.kv.value);
    obj.metadata.resourceVersion = String(res.kv.modRev);
    await hooks?.afterUpdate?.(ctx, r, obj, old);
    return { obj, text: res.kv.value, changed: true };
  }
  const unchanged = obj === old;
  return { obj, text: unchanged && res.prev ? res.prev.value : undefined, changed: !unchanged };
}
