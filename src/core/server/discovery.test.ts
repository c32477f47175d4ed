import { describe, expect, it } from 'vitest';
import type { ResourceInfo } from '../schema/resource-info';
import { builtinResources } from '../schema';
import {
  AGGREGATED_DISCOVERY_CONTENT_TYPE,
  aggregatedCoreDiscovery,
  aggregatedGroupsDiscovery,
  apiResourceList,
  legacyApiGroup,
  legacyApiGroupList,
  legacyApiVersions,
  servedGroups,
} from './discovery';

const crontabs: ResourceInfo = {
  group: 'stable.example.com',
  version: 'v1',
  resource: 'crontabs',
  singular: 'crontab',
  kind: 'CronTab',
  listKind: 'CronTabList',
  namespaced: true,
  verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
  shortNames: ['ct'],
  categories: [],
  subresources: [{ name: 'status', kind: 'CronTab', verbs: ['get', 'patch', 'update'] }],
  custom: true,
};
const crontabsBeta: ResourceInfo = { ...crontabs, version: 'v1beta1', subresources: [] };
const all = [...builtinResources, crontabsBeta, crontabs];

describe('aggregated discovery', () => {
  it('uses the content type kubectl requires', () => {
    expect(AGGREGATED_DISCOVERY_CONTENT_TYPE).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
  });

  it('answers /api with the core group only, metadata without a name', () => {
    const doc = JSON.parse(aggregatedCoreDiscovery(all));
    expect(Object.keys(doc)).toEqual(['kind', 'apiVersion', 'metadata', 'items']);
    expect(doc.items).toHaveLength(1);
    expect(doc.items[0].metadata).toEqual({ creationTimestamp: null });
    const v1 = doc.items[0].versions[0];
    expect(v1.version).toBe('v1');
    expect(v1.freshness).toBe('Current');
    const pods = v1.resources.find((r: { resource: string }) => r.resource === 'pods');
    expect(Object.keys(pods)).toEqual(['resource', 'responseKind', 'scope', 'singularResource', 'verbs', 'shortNames', 'categories', 'subresources']);
    expect(pods.responseKind).toEqual({ group: '', version: '', kind: 'Pod' });
    expect(pods.scope).toBe('Namespaced');
    expect(pods.subresources.find((s: { subresource: string }) => s.subresource === 'eviction')).toEqual({
      subresource: 'eviction',
      responseKind: { group: 'policy', version: 'v1', kind: 'Eviction' },
      verbs: ['create'],
    });
    const nodes = v1.resources.find((r: { resource: string }) => r.resource === 'nodes');
    expect(nodes.scope).toBe('Cluster');
    const secrets = v1.resources.find((r: { resource: string }) => r.resource === 'secrets');
    expect(Object.keys(secrets)).toEqual(['resource', 'responseKind', 'scope', 'singularResource', 'verbs']);
  });

  it('answers /apis with apps deployments exactly as kube-apiserver shapes them', () => {
    const doc = JSON.parse(aggregatedGroupsDiscovery(all));
    const apps = doc.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'apps');
    expect(apps.metadata).toEqual({ name: 'apps', creationTimestamp: null });
    const deployments = apps.versions[0].resources.find((r: { resource: string }) => r.resource === 'deployments');
    expect(deployments).toEqual({
      resource: 'deployments',
      responseKind: { group: '', version: '', kind: 'Deployment' },
      scope: 'Namespaced',
      singularResource: 'deployment',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['deploy'],
      categories: ['all'],
      subresources: [
        { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
        { subresource: 'status', responseKind: { group: '', version: '', kind: 'Deployment' }, verbs: ['get', 'patch', 'update'] },
      ],
    });
  });

  it('lists versions preferred first and custom groups after the built-in ones', () => {
    const doc = JSON.parse(aggregatedGroupsDiscovery(all));
    const names = doc.items.map((i: { metadata: { name: string } }) => i.metadata.name);
    expect(names[0]).toBe('apiregistration.k8s.io');
    expect(names.at(-1)).toBe('stable.example.com');
    expect(names).not.toContain('');
    const versionsOf = (g: string) => doc.items.find((i: { metadata: { name: string } }) => i.metadata.name === g).versions.map((v: { version: string }) => v.version);
    expect(versionsOf('autoscaling')).toEqual(['v2', 'v1', 'v2beta2', 'v2beta1']);
    expect(versionsOf('batch')).toEqual(['v1', 'v1beta1']);
    expect(versionsOf('flowcontrol.apiserver.k8s.io')).toEqual(['v1beta2', 'v1beta1']);
    expect(versionsOf('stable.example.com')).toEqual(['v1', 'v1beta1']);
  });

  it('renders a custom resource with its short names and status subresource', () => {
    const doc = JSON.parse(aggregatedGroupsDiscovery(all));
    const group = doc.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'stable.example.com');
    expect(group.versions[0].resources[0]).toMatchObject({
      resource: 'crontabs',
      responseKind: { group: '', version: '', kind: 'CronTab' },
      scope: 'Namespaced',
      singularResource: 'crontab',
      shortNames: ['ct'],
      subresources: [{ subresource: 'status', responseKind: { group: '', version: '', kind: 'CronTab' }, verbs: ['get', 'patch', 'update'] }],
    });
  });
});

describe('legacy discovery', () => {
  it('answers /api with APIVersions and the server address', () => {
    expect(legacyApiVersions('127.0.0.1:8080')).toBe(
      '{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"127.0.0.1:8080"}]}',
    );
  });

  it('answers /apis with preferred versions', () => {
    const doc = JSON.parse(legacyApiGroupList(all));
    expect(doc.kind).toBe('APIGroupList');
    const autoscaling = doc.groups.find((g: { name: string }) => g.name === 'autoscaling');
    expect(autoscaling.preferredVersion).toEqual({ groupVersion: 'autoscaling/v2', version: 'v2' });
    expect(autoscaling.versions[1]).toEqual({ groupVersion: 'autoscaling/v1', version: 'v1' });
    expect(JSON.parse(legacyApiGroup(all, 'batch')!).preferredVersion.version).toBe('v1');
    expect(legacyApiGroup(all, 'nope.example.com')).toBeUndefined();
  });

  it('answers /apis/apps/v1 with resources, subresources and storage version hashes', () => {
    const doc = JSON.parse(apiResourceList(all, 'apps', 'v1')!);
    expect(doc.groupVersion).toBe('apps/v1');
    const names = doc.resources.map((r: { name: string }) => r.name);
    expect(names).toEqual([
      'controllerrevisions',
      'daemonsets',
      'daemonsets/status',
      'deployments',
      'deployments/scale',
      'deployments/status',
      'replicasets',
      'replicasets/scale',
      'replicasets/status',
      'statefulsets',
      'statefulsets/scale',
      'statefulsets/status',
    ]);
    expect(JSON.stringify(doc.resources[3])).toBe(
      '{"name":"deployments","singularName":"","namespaced":true,"kind":"Deployment","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],"shortNames":["deploy"],"categories":["all"],"storageVersionHash":"8aSe+NMegvE="}',
    );
    expect(JSON.stringify(doc.resources[4])).toBe(
      '{"name":"deployments/scale","singularName":"","namespaced":true,"group":"autoscaling","version":"v1","kind":"Scale","verbs":["get","patch","update"]}',
    );
  });

  it('hashes shared resources by their storage version and omits hashes for unstored ones', () => {
    const core = JSON.parse(apiResourceList(all, '', 'v1')!);
    const find = (doc: { resources: { name: string }[] }, name: string) => doc.resources.find((r) => r.name === name) as Record<string, unknown>;
    expect(core.groupVersion).toBe('v1');
    expect(find(core, 'pods').storageVersionHash).toBe('xPOwRZ+Yhw8=');
    expect(find(core, 'bindings').storageVersionHash).toBeUndefined();
    const events = JSON.parse(apiResourceList(all, 'events.k8s.io', 'v1')!);
    expect(find(events, 'events').storageVersionHash).toBe(find(core, 'events').storageVersionHash);
    const hpaV2 = JSON.parse(apiResourceList(all, 'autoscaling', 'v2')!);
    const hpaV1 = JSON.parse(apiResourceList(all, 'autoscaling', 'v1')!);
    expect(find(hpaV2, 'horizontalpodautoscalers').storageVersionHash).toBe(find(hpaV1, 'horizontalpodautoscalers').storageVersionHash);
    const authz = JSON.parse(apiResourceList(all, 'authorization.k8s.io', 'v1')!);
    expect(find(authz, 'selfsubjectaccessreviews')).toEqual({ name: 'selfsubjectaccessreviews', singularName: '', namespaced: false, kind: 'SelfSubjectAccessReview', verbs: ['create'] });
    expect(apiResourceList(all, 'apps', 'v2')).toBeUndefined();
  });

  it('lists every served group in servedGroups', () => {
    expect(servedGroups(builtinResources).map((g) => g.group)).toHaveLength(19);
  });
});
