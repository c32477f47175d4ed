// The DefaultStorageClass admission plug-in: a claim that leaves storageClassName unset (not
// "") gets the class annotated as the cluster default. Two defaults are an error, as in 1.23.
import type { RegistryContext } from '../registry/context';
import type { Obj } from '../registry/objects';
import { forbidden } from '../meta/status';

const DEFAULT_ANNOTATIONS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

export async function admitClaimStorageClass(ctx: RegistryContext, claim: Obj): Promise<void> {
  const spec = claim.spec;
  if (!spec || typeof spec !== 'object' || (spec.storageClassName !== undefined && spec.storageClassName !== null)) return;
  const scs = ctx.catalog.lookup('storage.k8s.io', 'v1', 'storageclasses');
  if (!scs) return;
  const { kvs } = await ctx.mvcc.range(scs.keyPrefix);
  const defaults = kvs.map((kv) => JSON.parse(kv.value) as Obj).filter((sc) => DEFAULT_ANNOTATIONS.some((a) => sc.metadata?.annotations?.[a] === 'true'));
  if (defaults.length > 1) throw forbidden('', 'persistentvolumeclaims', String(claim.metadata?.name ?? ''), `Internal error occurred: ${defaults.length} default StorageClasses were found`);
  if (defaults.length === 1) spec.storageClassName = defaults[0].metadata.name;
}
