// CustomResourceDefinition → the ResourceInfo of each served version.
import type { ResourceInfo, SubresourceInfo } from '../types';
import type { Obj } from '../objects';

const CR_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export function crdResources(crd: Obj): ResourceInfo[] {
  const spec = crd.spec ?? {};
  const names = spec.names ?? {};
  const kind: string = names.kind;
  const out: ResourceInfo[] = [];
  for (const v of spec.versions ?? []) {
    if (!v.served) continue;
    const subresources: SubresourceInfo[] = [];
    const subs = v.subresources ?? {};
    if (subs.scale) subresources.push({ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] });
    if (subs.status) subresources.push({ name: 'status', kind, verbs: ['get', 'patch', 'update'] });
    out.push({
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
    });
  }
  return out;
}
