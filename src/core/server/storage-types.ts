// The `type` label of etcd_request_duration_seconds: kube-apiserver's etcd3 store labels each
// request with the Go type of the object it decodes into, which is the internal type of the
// resource's storage group (`*core.ConfigMap`, `*apps.Deployment`, `*rbac.ClusterRole`), its list
// type for a list (`*core.ConfigMapList`), and `*unstructured.Unstructured(List)` for custom
// resources. Store keys are `/<storage group>/<resource>/...` (conversion.ts storageKeyPrefix).
import type { Catalog } from '../registry/catalog';

/** The type names of one storage prefix, made once: a fresh string per storage call was hashed again by the metrics. */
interface StoredType {
  name: string;
  listName: string;
}

function storedType(pkg: string, kind: string): StoredType {
  return { name: `*${pkg}.${kind}`, listName: `*${pkg}.${kind}List` };
}

/** The Go package of a storage group's internal types: `rbac.authorization.k8s.io` → `rbac`. */
export function internalPackage(storageGroup: string): string {
  if (storageGroup === '' || storageGroup === 'core') return 'core';
  return storageGroup.split('.')[0]!;
}

/** Resolves a store key (or list prefix) to the type name kube reports; undefined outside any resource. */
export function storageTypeNames(catalog: Catalog): (key: string, list: boolean) => string | undefined {
  let generation = -1;
  const byPrefix = new Map<string, StoredType>();
  const refresh = () => {
    byPrefix.clear();
    for (const r of catalog.servedResources()) {
      if (r.info.virtual || byPrefix.has(r.keyPrefix)) continue;
      const storageGroup = r.keyPrefix.split('/')[1] ?? '';
      byPrefix.set(r.keyPrefix, r.info.custom ? storedType('unstructured', 'Unstructured') : storedType(internalPackage(storageGroup), r.info.kind));
    }
    generation = catalog.generation;
  };
  return (key, list) => {
    if (generation !== catalog.generation) refresh();
    // `/<group>/<resource>/`: the first three slashes.
    const end = key.indexOf('/', key.indexOf('/', 1) + 1);
    if (end < 0) return undefined;
    const found = byPrefix.get(key.slice(0, end + 1));
    if (!found) return undefined;
    return list ? found.listName : found.name;
  };
}
