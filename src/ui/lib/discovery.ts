// The resource tree from aggregated discovery (apidiscovery.k8s.io/v2 APIGroupDiscoveryList from
// `/api` and `/apis`): groups → versions → resources with kind, scope, verbs and subresources.
import type { ResourceRef } from './api-paths';
import type { KubeObject, WatchItem } from './watch';

export const AGGREGATED_DISCOVERY_ACCEPT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

export interface ResourceKind extends ResourceRef {
  kind: string;
  singular: string;
  verbs: string[];
  shortNames: string[];
  categories: string[];
  subresources: string[];
}

export interface VersionNode {
  version: string;
  resources: ResourceKind[];
}

export interface GroupNode {
  /** '' for the core group. */
  name: string;
  /** The first version listed is the preferred one. */
  preferredVersion: string;
  versions: VersionNode[];
}

interface DiscoveryResource {
  resource?: string;
  responseKind?: { kind?: string };
  scope?: string;
  singularResource?: string;
  verbs?: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: Array<{ subresource?: string }>;
}

interface DiscoveryList {
  kind?: string;
  items?: Array<{ metadata?: { name?: string }; versions?: Array<{ version?: string; resources?: DiscoveryResource[] }> }>;
}

/** Groups of one discovery document, in server order (which is priority order). */
export function parseAggregatedDiscovery(doc: unknown): GroupNode[] {
  const list = doc as DiscoveryList;
  if (!list || list.kind !== 'APIGroupDiscoveryList' || !Array.isArray(list.items)) {
    throw new Error(`expected an APIGroupDiscoveryList, got ${list && typeof list === 'object' ? (list.kind ?? 'an object without kind') : typeof list}`);
  }
  return list.items.map((item) => {
    const group = item.metadata?.name ?? '';
    const versions = (item.versions ?? []).map((v) => ({
      version: v.version ?? '',
      resources: (v.resources ?? [])
        .filter((r) => r.resource)
        .map((r) => ({
          group,
          version: v.version ?? '',
          resource: r.resource!,
          namespaced: r.scope === 'Namespaced',
          kind: r.responseKind?.kind ?? '',
          singular: r.singularResource ?? '',
          verbs: r.verbs ?? [],
          shortNames: r.shortNames ?? [],
          categories: r.categories ?? [],
          subresources: (r.subresources ?? []).map((s) => s.subresource ?? '').filter(Boolean),
        }))
        .sort((a, b) => a.kind.localeCompare(b.kind)),
    }));
    return { name: group, preferredVersion: versions[0]?.version ?? '', versions };
  });
}

/** The resource for a URL segment in a tree, e.g. for deep links. */
export function findResource(tree: readonly GroupNode[], group: string, version: string, resource: string): ResourceKind | undefined {
  return tree.find((g) => g.name === group)?.versions.find((v) => v.version === version)?.resources.find((r) => r.resource === resource);
}

/**
 * Decides, event by event, whether discovery must be read again: a CRD created or deleted, or its
 * spec changed (the generation moves; status-only updates such as conditions do not). The first
 * list only records what exists; a relist after a 410 counts if the set of CRDs or a spec changed.
 */
export function crdDiscoveryTrigger(): (item: WatchItem) => boolean {
  let known: Map<string, string> | undefined;
  const id = (o: KubeObject) => o.metadata?.name ?? '';
  const generation = (o: KubeObject) => String(o.metadata?.generation ?? '');
  return (item) => {
    if (item.type === 'RELIST') {
      const next = new Map(item.items.map((o) => [id(o), generation(o)]));
      const changed = known !== undefined && (known.size !== next.size || [...next].some(([k, g]) => known!.get(k) !== g));
      known = next;
      return changed;
    }
    if (item.type === 'BOOKMARK') return false;
    known ??= new Map();
    const name = id(item.object);
    if (item.type === 'DELETED') {
      known.delete(name);
      return true;
    }
    const before = known.get(name);
    known.set(name, generation(item.object));
    return item.type === 'ADDED' || before !== generation(item.object);
  };
}
