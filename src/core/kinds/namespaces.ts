// Namespace lifecycle: the four namespaces a cluster starts with, a `default` ServiceAccount in
// every namespace, and finalization (a deleted namespace is Terminating until the namespace
// controller, namespace-controller.ts, has removed everything in it) — the work of kube's
// namespace and serviceaccount controllers.
import { objectKey, type ServedResource } from '../registry/catalog';
import type { RegistryContext, ResourceHooks } from '../registry/context';
import { createObject } from '../registry/store';
import { ApiError, forbidden } from '../meta/status';
import type { Obj } from '../registry/objects';
import { withSpecFieldOf, type SubresourceWrite } from '../registry/subresource-write';
import type { NamespaceQueueing } from '../registry/kind-hook-env';

export const INITIAL_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

function served(ctx: RegistryContext, group: string, resource: string): ServedResource {
  const r = ctx.catalog.versionsOf(group, resource)[0];
  if (!r) throw new Error(`resource ${group}/${resource} is not served`);
  return r;
}

async function ensureDefaultServiceAccount(ctx: RegistryContext, ns: string): Promise<void> {
  const sa = served(ctx, '', 'serviceaccounts');
  if (await ctx.mvcc.get(objectKey(sa, ns, 'default'))) return;
  try {
    await createObject(ctx, sa, ns, { metadata: { name: 'default' } }, false);
  } catch (err) {
    // Raced with a client or with the namespace going away: nothing to do.
    if (!(err instanceof ApiError)) throw err;
  }
}

/** NamespaceLifecycle's immortal namespaces (kube-apiserver v1.23: not kube-node-lease). */
const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);


/** Namespace's hooks (its kind spec's, kinds/core.ts): a Terminating namespace goes to `controller`. */
export function namespaceHooks(controller: NamespaceQueueing): ResourceHooks {
  return {
    admitDelete(_c, _r, name) {
      if (IMMORTAL_NAMESPACES.has(name)) throw forbidden('', 'namespaces', name, 'this namespace may not be deleted');
    },
    async afterCreate(c, _r, obj) {
      await ensureDefaultServiceAccount(c, obj.metadata.name);
    },
    afterUpdate(c, _r, obj) {
      if (obj.metadata?.deletionTimestamp) controller.enqueue(obj.metadata.name);
    },
  };
}

/** Create the initial namespaces (and their service accounts); resume finalizing terminating ones. */
export async function bootstrapNamespaces(ctx: RegistryContext, controller: NamespaceQueueing): Promise<void> {
  const nsr = served(ctx, '', 'namespaces');
  for (const name of INITIAL_NAMESPACES) {
    if (!(await ctx.mvcc.get(objectKey(nsr, '', name)))) {
      await createObject(ctx, nsr, '', { metadata: { name } }, false);
    }
  }
  const { kvs } = await ctx.mvcc.range(nsr.keyPrefix);
  for (const kv of kvs) {
    const obj = JSON.parse(kv.value) as Obj;
    if (obj.metadata?.deletionTimestamp) controller.enqueue(obj.metadata.name);
    else await ensureDefaultServiceAccount(ctx, obj.metadata.name);
  }
}

/**
 * namespaces/finalize (NamespaceFinalizeStrategy) as a store adapter: a write changes
 * spec.finalizers only. managedFields records it as a write of the namespace itself, and it is
 * not defaulted: defaulting would put back the `kubernetes` finalizer the write removes.
 */
export const NAMESPACE_FINALIZE_WRITE: SubresourceWrite = {
  recordedAs: '',
  skipsDefaults: true,
  prepare: (written, stored) => withSpecFieldOf(written, stored, 'finalizers'),
};
