// The generic store's delete: DELETE admission, preconditions, and either removal or (with
// finalizers, and always for namespaces) marking the object as terminating. Orphan and
// foreground propagation are finalizers for the garbage collector (gc/).
import { objectKey, type ServedResource } from './catalog';
import { hooksFor, type RegistryContext } from './context';
import { admitDeleteValidating } from './admission-plugin';
import { clone, orderedMetadata, parseStored, rfc3339, toStoredText, type Obj } from './objects';
import { storageForm } from './conversion';
import { conflict, notFound } from '../meta/status';
import type { AdmissionAttributes } from './admission-attributes';
import { mapStorageError, webhooksFor } from './store-common';
import { deletionFinalizers, orphansByDefault } from './deletion-finalizers';

export interface DeleteOptions {
  dryRun: boolean;
  gracePeriodSeconds?: number;
  propagationPolicy?: string;
  /** The deprecated form of propagationPolicy (true: Orphan). */
  orphanDependents?: boolean;
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
  // A client's delete only (internal deletes carry no admission attributes).
  if (opts.attrs) {
    hooksFor(ctx, r)?.admitDelete?.(ctx, r, name);
    admitDeleteValidating(ctx, r, name, opts.attrs);
  }
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
      // What the garbage collector is to do: orphan or foreground deletion are finalizers.
      const gcFinalizers = isNamespace ? undefined : deletionFinalizers(om.finalizers, opts, opts.attrs !== undefined && orphansByDefault(group, r.info.version, resource));
      if (om.deletionTimestamp) {
        // Already terminating: deleting again changes nothing but the policy's finalizers.
        result = old;
        if (!gcFinalizers || opts.dryRun) return { kind: 'none' };
        const next = clone(old);
        next.metadata.finalizers = gcFinalizers;
        result = next;
        return { kind: 'put', encode: (rev: number) => toStoredText(storageForm(r, next), String(rev)) };
      }
      const markDeleted = hooksFor(ctx, r)?.markDeleted;
      if (markDeleted) {
        const next = clone(old);
        markDeleted(next, rfc3339(ctx.now()));
        next.metadata = orderedMetadata(next.metadata);
        result = next;
        return opts.dryRun ? { kind: 'none' } : { kind: 'put', encode: (rev: number) => toStoredText(storageForm(r, next), String(rev)) };
      }
      const finalizers: unknown[] = gcFinalizers ?? (Array.isArray(om.finalizers) ? om.finalizers : []);
      if (finalizers.length > 0 || isNamespace) {
        const next = clone(old);
        if (gcFinalizers) next.metadata.finalizers = gcFinalizers;
        next.metadata.deletionTimestamp = rfc3339(ctx.now());
        next.metadata.deletionGracePeriodSeconds = 0;
        if (next.metadata.generation !== undefined) next.metadata.generation += 1;
        if (isNamespace) next.status = { ...(next.status ?? {}), phase: 'Terminating' };
        // The answer is the object as stored: metadata in Go field order.
        next.metadata = orderedMetadata(next.metadata);
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
