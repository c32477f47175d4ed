// Namespace lifecycle: the four namespaces a cluster starts with, a `default` ServiceAccount in
// every namespace, and finalization (a deleted namespace is Terminating until everything in it
// is gone, then it disappears) — the work of kube's namespace and serviceaccount controllers.
import { objectKey, type ServedResource } from '../catalog';
import { runInBackground, type RegistryContext } from '../context';
import { createObject, deleteObject, updateObject } from '../store';
import { ApiError, forbidden } from '../../server/status';
import type { Obj } from '../objects';

export const INITIAL_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
const RETRY_MS = 200;

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

/** Delete everything in the namespace; true once nothing is left. */
async function emptyNamespace(ctx: RegistryContext, ns: string): Promise<boolean> {
  const seen = new Set<string>();
  let remaining = 0;
  for (const r of ctx.catalog.servedResources()) {
    if (!r.info.namespaced || r.info.virtual || seen.has(r.keyPrefix)) continue;
    seen.add(r.keyPrefix);
    const { kvs } = await ctx.mvcc.range(`${r.keyPrefix}${ns}/`);
    for (const kv of kvs) {
      remaining++;
      const name = kv.key.slice(`${r.keyPrefix}${ns}/`.length);
      try {
        await deleteObject(ctx, r, ns, name, { dryRun: false, propagationPolicy: 'Background' });
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      }
    }
  }
  if (remaining === 0) return true;
  // Deleted objects without finalizers are gone now; count again.
  for (const prefix of seen) if (ctx.mvcc.count(`${prefix}${ns}/`) > 0) return false;
  return true;
}

async function finalizeNamespace(ctx: RegistryContext, name: string): Promise<void> {
  const nsr = served(ctx, '', 'namespaces');
  while (!ctx.closed) {
    const kv = await ctx.mvcc.get(objectKey(nsr, '', name));
    if (!kv) return;
    const obj = JSON.parse(kv.value) as Obj;
    if (!obj.metadata?.deletionTimestamp) return;
    if (await emptyNamespace(ctx, name)) {
      // Drop the `kubernetes` finalizer; the store removes the namespace once nothing holds it.
      await updateObject(
        ctx,
        nsr,
        '',
        name,
        (cur) => {
          cur.spec = { ...(cur.spec ?? {}), finalizers: (cur.spec?.finalizers ?? []).filter((f: string) => f !== 'kubernetes') };
          if (cur.spec.finalizers.length === 0) delete cur.spec.finalizers;
          return cur;
        },
        { dryRun: false, subresource: 'finalize', allowCreate: false, checkName: false },
      ).catch((err) => {
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      });
      return;
    }
    await new Promise<void>((resolve) => setTimeout(() => resolve(), RETRY_MS));
  }
}

export function startNamespaceFinalizer(ctx: RegistryContext, name: string): void {
  runInBackground(ctx, () => finalizeNamespace(ctx, name));
}

/** NamespaceLifecycle's immortal namespaces (kube-apiserver v1.23: not kube-node-lease). */
const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

export function registerNamespaceHooks(ctx: RegistryContext): void {
  ctx.hooks.set('/namespaces', {
    admitDelete(_c, _r, name) {
      if (IMMORTAL_NAMESPACES.has(name)) throw forbidden('', 'namespaces', name, 'this namespace may not be deleted');
    },
    async afterCreate(c, _r, obj) {
      await ensureDefaultServiceAccount(c, obj.metadata.name);
    },
    afterUpdate(c, _r, obj) {
      if (obj.metadata?.deletionTimestamp) startNamespaceFinalizer(c, obj.metadata.name);
    },
  });
}

/** Create the initial namespaces (and their service accounts); resume finalizing terminating ones. */
export async function bootstrapNamespaces(ctx: RegistryContext): Promise<void> {
  const nsr = served(ctx, '', 'namespaces');
  for (const name of INITIAL_NAMESPACES) {
    if (!(await ctx.mvcc.get(objectKey(nsr, '', name)))) {
      await createObject(ctx, nsr, '', { metadata: { name } }, false);
    }
  }
  const { kvs } = await ctx.mvcc.range(nsr.keyPrefix);
  for (const kv of kvs) {
    const obj = JSON.parse(kv.value) as Obj;
    if (obj.metadata?.deletionTimestamp) startNamespaceFinalizer(ctx, obj.metadata.name);
    else await ensureDefaultServiceAccount(ctx, obj.metadata.name);
  }
}
