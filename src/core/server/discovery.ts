// Discovery documents, built from the current resource list (built-ins plus custom resources):
// aggregated `apidiscovery.k8s.io/v2` for `/api` and `/apis`, and the legacy APIVersions,
// APIGroupList and APIResourceList. Objects are built with keys in kube-apiserver's field order
// (its Go struct order) because clients see the bytes.
import type { ResourceInfo, SubresourceInfo } from '../schema/resource-info';
import { storageVersionHash } from '../schema/hashes';
import { compareGroupPriority, compareVersionPriority } from '../schema/versions';

/** Content-Type of an aggregated discovery answer; kubectl treats anything else as legacy. */
export const AGGREGATED_DISCOVERY_CONTENT_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

export interface GroupVersions {
  group: string;
  /** Served versions, preferred (highest priority) first. */
  versions: string[];
}

/** Groups (without core) in `/apis` order, each with its versions in priority order. */
export function servedGroups(resources: readonly ResourceInfo[]): GroupVersions[] {
  const byGroup = new Map<string, Set<string>>();
  for (const r of resources) {
    if (r.group === '') continue;
    if (!byGroup.has(r.group)) byGroup.set(r.group, new Set());
    byGroup.get(r.group)!.add(r.version);
  }
  return [...byGroup.entries()]
    .sort(([a], [b]) => compareGroupPriority(a, b))
    .map(([group, versions]) => ({ group, versions: [...versions].sort(compareVersionPriority) }));
}

/** Resources of one group/version, sorted by name like kube-apiserver's installer. */
function resourcesOf(resources: readonly ResourceInfo[], group: string, version: string): ResourceInfo[] {
  return resources
    .filter((r) => r.group === group && r.version === version)
    .sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
}

const groupVersion = (group: string, version: string) => (group ? `${group}/${version}` : version);

// ---------------------------------------------------------------------------------------------
// Aggregated discovery (apidiscovery.k8s.io/v2).

function responseKind(kind: string, group = '', version = '') {
  return { group, version, kind };
}

function subresourceDiscovery(s: SubresourceInfo) {
  return { subresource: s.name, responseKind: responseKind(s.kind, s.group, s.version), verbs: s.verbs };
}

function resourceDiscovery(r: ResourceInfo) {
  return {
    resource: r.resource,
    responseKind: responseKind(r.kind),
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singular,
    verbs: r.verbs,
    ...(r.shortNames.length ? { shortNames: r.shortNames } : {}),
    ...(r.categories.length ? { categories: r.categories } : {}),
    ...(r.subresources.length ? { subresources: r.subresources.map(subresourceDiscovery) } : {}),
  };
}

function versionDiscovery(resources: readonly ResourceInfo[], group: string, version: string) {
  const list = resourcesOf(resources, group, version);
  return {
    version,
    ...(list.length ? { resources: list.map(resourceDiscovery) } : {}),
    freshness: 'Current',
  };
}

function discoveryList(items: unknown[]): string {
  return JSON.stringify({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items });
}

/** Aggregated `/api`: one item, the core group (metadata without a name). */
export function aggregatedCoreDiscovery(resources: readonly ResourceInfo[]): string {
  return discoveryList([{ metadata: { creationTimestamp: null }, versions: [versionDiscovery(resources, '', 'v1')] }]);
}

/** Aggregated `/apis`: every named group, versions preferred first. */
export function aggregatedGroupsDiscovery(resources: readonly ResourceInfo[]): string {
  return discoveryList(
    servedGroups(resources).map(({ group, versions }) => ({
      metadata: { name: group, creationTimestamp: null },
      versions: versions.map((v) => versionDiscovery(resources, group, v)),
    })),
  );
}

// ---------------------------------------------------------------------------------------------
// Legacy discovery.

/** Legacy `/api`. */
export function legacyApiVersions(serverAddress: string): string {
  return JSON.stringify({
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  });
}

function groupVersionForDiscovery(group: string, version: string) {
  return { groupVersion: `${group}/${version}`, version };
}

/** Legacy `/apis`. */
export function legacyApiGroupList(resources: readonly ResourceInfo[]): string {
  return JSON.stringify({
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: servedGroups(resources).map(({ group, versions }) => ({
      name: group,
      versions: versions.map((v) => groupVersionForDiscovery(group, v)),
      preferredVersion: groupVersionForDiscovery(group, versions[0]),
    })),
  });
}

/** Legacy `/apis/<group>`, or undefined when the group is not served. */
export function legacyApiGroup(resources: readonly ResourceInfo[], group: string): string | undefined {
  const found = servedGroups(resources).find((g) => g.group === group);
  if (!found) return undefined;
  return JSON.stringify({
    kind: 'APIGroup',
    apiVersion: 'v1',
    name: group,
    versions: found.versions.map((v) => groupVersionForDiscovery(group, v)),
    preferredVersion: groupVersionForDiscovery(group, found.versions[0]),
  });
}

/**
 * Core resources whose REST storage is not a stored object store: kube-apiserver gives them no
 * storageVersionHash (reviews are handled via `virtual`).
 */
const UNSTORED_CORE_RESOURCES = new Set(['bindings', 'componentstatuses']);

const hashCache = new Map<string, string>();

/** storageVersionHash of a resource, from its storage version (shared across served versions). */
export function resourceStorageVersionHash(r: ResourceInfo): string | undefined {
  if (r.virtual || (r.group === '' && UNSTORED_CORE_RESOURCES.has(r.resource))) return undefined;
  const storage = r.storageVersion ?? groupVersion(r.group, r.version);
  const slash = storage.lastIndexOf('/');
  const [group, version] = slash === -1 ? ['', storage] : [storage.slice(0, slash), storage.slice(slash + 1)];
  const key = `${group}/${version}/${r.kind}`;
  let hash = hashCache.get(key);
  if (hash === undefined) {
    hash = storageVersionHash(group, version, r.kind);
    hashCache.set(key, hash);
  }
  return hash;
}

function legacyResource(r: ResourceInfo) {
  const hash = resourceStorageVersionHash(r);
  return {
    name: r.resource,
    // v1.23 has no singular names for built-in resources (storage's SingularNameProvider came in
    // v1.27): only a CRD's names.singular is served.
    singularName: r.custom ? r.singular : '',
    namespaced: r.namespaced,
    kind: r.kind,
    verbs: r.verbs,
    ...(r.shortNames.length ? { shortNames: r.shortNames } : {}),
    ...(r.categories.length ? { categories: r.categories } : {}),
    ...(hash !== undefined ? { storageVersionHash: hash } : {}),
  };
}

function legacySubresource(r: ResourceInfo, s: SubresourceInfo) {
  return {
    name: `${r.resource}/${s.name}`,
    singularName: '',
    namespaced: r.namespaced,
    ...(s.group !== undefined ? { group: s.group } : {}),
    ...(s.version !== undefined ? { version: s.version } : {}),
    kind: s.kind,
    verbs: s.verbs,
  };
}

/** Legacy `/api/v1` or `/apis/<group>/<version>`, or undefined when that group/version is not served. */
export function apiResourceList(resources: readonly ResourceInfo[], group: string, version: string): string | undefined {
  const list = resourcesOf(resources, group, version);
  if (list.length === 0) return undefined;
  const entries: unknown[] = [];
  for (const r of list) {
    entries.push(legacyResource(r));
    for (const s of [...r.subresources].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      entries.push(legacySubresource(r, s));
    }
  }
  return JSON.stringify({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersion(group, version), resources: entries });
}
