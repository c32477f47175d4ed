import { describe, expect, it } from 'vitest';
import { builtinResources, definitions, findResource, resolveRef, refName, type SchemaNode } from './index';

const gv = (group: string, version: string) => (group ? `${group}/${version}` : version);

describe('generated built-in resource catalog', () => {
  it('serves exactly the v1.23 default group/versions with the expected resource counts', () => {
    const counts: Record<string, number> = {};
    for (const r of builtinResources) counts[gv(r.group, r.version)] = (counts[gv(r.group, r.version)] ?? 0) + 1;
    expect(counts).toEqual({
      v1: 17,
      'admissionregistration.k8s.io/v1': 2,
      'apiextensions.k8s.io/v1': 1,
      'apiregistration.k8s.io/v1': 1,
      'apps/v1': 5,
      'authentication.k8s.io/v1': 2,
      'authorization.k8s.io/v1': 4,
      'autoscaling/v1': 1,
      'autoscaling/v2': 1,
      'autoscaling/v2beta1': 1,
      'autoscaling/v2beta2': 1,
      'batch/v1': 2,
      'batch/v1beta1': 1,
      'certificates.k8s.io/v1': 1,
      'coordination.k8s.io/v1': 1,
      'discovery.k8s.io/v1': 1,
      'discovery.k8s.io/v1beta1': 1,
      'events.k8s.io/v1': 1,
      'events.k8s.io/v1beta1': 1,
      'flowcontrol.apiserver.k8s.io/v1beta1': 2,
      'flowcontrol.apiserver.k8s.io/v1beta2': 2,
      'networking.k8s.io/v1': 3,
      'node.k8s.io/v1': 1,
      'node.k8s.io/v1beta1': 1,
      'policy/v1': 1,
      'policy/v1beta1': 2,
      'rbac.authorization.k8s.io/v1': 4,
      'scheduling.k8s.io/v1': 1,
      'storage.k8s.io/v1': 4,
      'storage.k8s.io/v1beta1': 1,
    });
  });

  it('describes pods with their subresources, short names and categories', () => {
    const pods = findResource('', 'v1', 'pods')!;
    expect(pods).toMatchObject({ kind: 'Pod', listKind: 'PodList', singular: 'pod', namespaced: true, shortNames: ['po'], categories: ['all'], definition: 'io.k8s.api.core.v1.Pod' });
    expect(pods.verbs).toEqual(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    expect(pods.subresources.map((s) => s.name)).toEqual(['attach', 'binding', 'ephemeralcontainers', 'eviction', 'exec', 'log', 'portforward', 'proxy', 'status']);
    expect(pods.subresources.find((s) => s.name === 'eviction')).toEqual({ name: 'eviction', kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] });
    expect(pods.subresources.find((s) => s.name === 'exec')).toEqual({ name: 'exec', kind: 'PodExecOptions', verbs: ['create', 'get'] });
  });

  it('gives deployments scale (autoscaling/v1 Scale) and status', () => {
    const d = findResource('apps', 'v1', 'deployments')!;
    expect(d.shortNames).toEqual(['deploy']);
    expect(d.subresources).toEqual([
      { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] },
      { name: 'status', kind: 'Deployment', verbs: ['get', 'patch', 'update'] },
    ]);
  });

  it('serves cronjobs in batch/v1 and batch/v1beta1 sharing batch/v1 storage', () => {
    const v1 = findResource('batch', 'v1', 'cronjobs')!;
    const beta = findResource('batch', 'v1beta1', 'cronjobs')!;
    expect(v1.definition).toBe('io.k8s.api.batch.v1.CronJob');
    expect(beta.definition).toBe('io.k8s.api.batch.v1beta1.CronJob');
    expect(beta.shortNames).toEqual(['cj']);
    expect(beta.storageVersion).toBe('batch/v1');
    expect(beta.subresources.map((s) => s.name)).toEqual(['status']);
  });

  it('leaves out resources newer than v1.23 but keeps selfsubjectreviews', () => {
    expect(findResource('storage.k8s.io', 'v1', 'csistoragecapacities')).toBeUndefined();
    expect(findResource('storage.k8s.io', 'v1beta1', 'csistoragecapacities')?.namespaced).toBe(true);
    expect(findResource('', 'v1', 'services')!.verbs).not.toContain('deletecollection');
    expect(findResource('authentication.k8s.io', 'v1', 'selfsubjectreviews')).toMatchObject({ virtual: true, verbs: ['create'], namespaced: false });
    expect(findResource('authorization.k8s.io', 'v1', 'localsubjectaccessreviews')).toMatchObject({ virtual: true, namespaced: true });
    expect(findResource('policy', 'v1beta1', 'podsecuritypolicies')).toMatchObject({ namespaced: false, shortNames: ['psp'] });
  });

  it('has a definition for every served kind', () => {
    for (const r of builtinResources) expect(definitions[r.definition!], r.resource).toBeDefined();
  });
});

describe('generated definitions', () => {
  it('keeps only structural keys and the x-kubernetes extensions', () => {
    const allowed = new Set(['type', 'format', 'properties', 'items', 'additionalProperties', '$ref', 'required', 'enum']);
    const check = (node: SchemaNode, where: string) => {
      for (const [key, value] of Object.entries(node)) {
        expect(allowed.has(key) || key.startsWith('x-kubernetes-'), `${where}.${key}`).toBe(true);
        if (key === 'properties') for (const [p, v] of Object.entries(value as Record<string, SchemaNode>)) check(v, `${where}.${p}`);
        if ((key === 'items' || key === 'additionalProperties') && typeof value === 'object') check(value as SchemaNode, `${where}.${key}`);
      }
    };
    for (const [name, def] of Object.entries(definitions)) check(def, name);
  });

  it('has no dangling $ref', () => {
    const walk = (node: unknown): void => {
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') expect(definitions[refName({ $ref: value as string })!], value as string).toBeDefined();
        else walk(value);
      }
    };
    walk(definitions);
  });

  it('carries merge metadata needed for strategic merge patch and the meta.k8s.io types', () => {
    const containers = definitions['io.k8s.api.core.v1.PodSpec'].properties!.containers;
    expect(containers['x-kubernetes-patch-merge-key']).toBe('name');
    expect(containers['x-kubernetes-patch-strategy']).toBe('merge');
    for (const name of ['Status', 'DeleteOptions', 'Table', 'PartialObjectMetadataList', 'WatchEvent']) {
      expect(definitions[`io.k8s.apimachinery.pkg.apis.meta.v1.${name}`], name).toBeDefined();
    }
    expect(definitions['io.k8s.api.autoscaling.v1.Scale']).toBeDefined();
  });

  it('keeps the properties whose names are also schema keywords (description, default, format, ...)', () => {
    const props = (name: string) => Object.keys(definitions[name].properties ?? {});
    const ext = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.';
    expect(props(`${ext}JSONSchemaProps`)).toEqual(
      expect.arrayContaining(['description', 'title', 'example', 'default', 'format', 'type', 'properties', 'items', 'enum', 'required', '$ref', 'pattern', 'nullable', 'x-kubernetes-validations']),
    );
    expect(props(`${ext}CustomResourceColumnDefinition`).sort()).toEqual(['description', 'format', 'jsonPath', 'name', 'priority', 'type']);
    expect(props('io.k8s.api.scheduling.v1.PriorityClass')).toContain('description');
    expect(props('io.k8s.apimachinery.pkg.apis.meta.v1.TableColumnDefinition')).toContain('description');
    expect(props('io.k8s.api.core.v1.LimitRangeItem')).toEqual(expect.arrayContaining(['default', 'type']));
  });

  it('resolves refs', () => {
    const spec = resolveRef(definitions['io.k8s.api.apps.v1.Deployment'].properties!.spec);
    expect(spec.properties!.template.$ref).toBe('#/definitions/io.k8s.api.core.v1.PodTemplateSpec');
    expect(resolveRef({ type: 'string' })).toEqual({ type: 'string' });
    expect(() => resolveRef({ $ref: '#/definitions/nope' })).toThrow(/nope/);
  });
});
