// CustomResourceDefinition → the ResourceInfo of each served version. Versions share one key
// space (conversion strategy None: only apiVersion differs), so every served version names the
// CRD's storage version; unserved versions are simply absent (404, not in discovery).
import type { ResourceInfo, SubresourceInfo } from '../schema/resource-info';
import type { Obj } from '../registry/objects';
import { crdDeprecationWarning } from './deprecation';
import { schemaHasDefaults } from '../registry/structural-defaults';

const CR_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** A served CRD version: a ResourceInfo plus the Warning text when the version is deprecated. */
export interface CustomResourceInfo extends ResourceInfo {
  deprecationWarning?: string;
}

/** The storage version's name (`v1`), or undefined when the CRD names none. */
export function storageVersionName(crd: Obj): string | undefined {
  return (crd.spec?.versions ?? []).find((v: Obj) => v?.storage === true)?.name;
}

export function crdResources(crd: Obj): CustomResourceInfo[] {
  const spec = crd.spec ?? {};
  const names = spec.names ?? {};
  const kind: string = names.kind;
  const storage = storageVersionName(crd);
  const storageSchema = (spec.versions ?? []).find((v: Obj) => v?.name === storage)?.schema?.openAPIV3Schema;
  const storedDefaults = schemaHasDefaults(storageSchema) ? (storageSchema as Record<string, unknown>) : undefined;
  const out: CustomResourceInfo[] = [];
  for (const v of spec.versions ?? []) {
    if (!v.served) continue;
    const subresources: SubresourceInfo[] = [];
    const subs = v.subresources ?? {};
    if (subs.scale) subresources.push({ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] });
    if (subs.status) subresources.push({ name: 'status', kind, verbs: ['get', 'patch', 'update'] });
    const info: CustomResourceInfo = {
      group: spec.group,
      version: v.name,
      resource: names.plural,
      singular: names.singular || kind.toLowerCase(),
      kind,
      listKind: names.listKind || `${kind}List`,
      namespaced: spec.scope !== 'Cluster',
      verbs: CR_VERBS,
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      subresources,
      custom: true,
      scale: subs.scale,
      printerColumns: v.additionalPrinterColumns,
      openAPIV3Schema: v.schema?.openAPIV3Schema,
    };
    // Discovery's storageVersionHash is the storage version's, the same for every served version.
    if (storage) info.storageVersion = `${spec.group}/${storage}`;
    if (storedDefaults) info.storedDefaults = storedDefaults;
    if (v.deprecated === true) info.deprecationWarning = crdDeprecationWarning(crd, v.name);
    out.push(info);
  }
  return out;
}
