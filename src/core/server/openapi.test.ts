import { describe, expect, it } from 'vitest';
import type { ResourceInfo } from '../schema/resource-info';
import { builtinResources } from '../schema';
import { createOpenApiService, customSchemaKey, openApiGroupVersionPath } from './openapi';

type Json = Record<string, any>;

const crontabs: ResourceInfo = {
  group: 'stable.example.com',
  version: 'v1',
  resource: 'crontabs',
  singular: 'crontab',
  kind: 'CronTab',
  listKind: 'CronTabList',
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  shortNames: ['ct'],
  categories: [],
  subresources: [
    { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] },
    { name: 'status', kind: 'CronTab', verbs: ['get', 'patch', 'update'] },
  ],
  custom: true,
};
const crontabSchema = { type: 'object', properties: { spec: { type: 'object', properties: { cronSpec: { type: 'string' }, replicas: { type: 'integer' } } } } };

/** kubectl's server-side validation decision (kubectl-wire §5.2): the PATCH op tagged with the GVK. */
function patchOpFor(doc: Json, gvk: { group: string; version: string; kind: string }): Json | undefined {
  for (const item of Object.values(doc.paths) as Json[]) {
    const op = item.patch;
    const tag = op?.['x-kubernetes-group-version-kind'];
    if (tag && tag.group === gvk.group && tag.version === gvk.version && tag.kind === gvk.kind) return op;
  }
  return undefined;
}

function danglingRefs(doc: Json): string[] {
  const missing: string[] = [];
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = value.replace('#/components/schemas/', '');
        if (!value.startsWith('#/components/schemas/') || !doc.components.schemas[name]) missing.push(value);
      } else walk(value);
    }
  };
  walk(doc);
  return missing;
}

describe('openapi v3 index', () => {
  it('lists every served group/version including custom groups, with content hashes', () => {
    const service = createOpenApiService([...builtinResources, crontabs]);
    const index = JSON.parse(service.index());
    const keys = Object.keys(index.paths);
    expect(keys).toHaveLength(31);
    expect(keys[0]).toBe('api/v1');
    expect(keys).toContain('apis/apps/v1');
    expect(keys).toContain('apis/autoscaling/v2beta1');
    expect(keys).toContain('apis/stable.example.com/v1');
    expect(index.paths['apis/apps/v1'].serverRelativeURL).toMatch(/^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{16}$/);
    expect(openApiGroupVersionPath('', 'v1')).toBe('api/v1');
  });
});

describe('openapi v3 built-in documents', () => {
  const service = createOpenApiService(builtinResources);
  const apps = JSON.parse(service.document('apis/apps/v1')!);

  it('has a Deployment PATCH op with the GVK and the fieldValidation query parameter', () => {
    const op = patchOpFor(apps, { group: 'apps', version: 'v1', kind: 'Deployment' })!;
    expect(op.operationId).toBe('patchAppsV1NamespacedDeployment');
    expect(op['x-kubernetes-action']).toBe('patch');
    expect(op.parameters.map((p: Json) => `${p.in}:${p.name}`)).toEqual(['query:dryRun', 'query:fieldManager', 'query:fieldValidation', 'query:force']);
    expect(Object.keys(op.requestBody.content)).toEqual([
      'application/apply-patch+yaml',
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
    ]);
    expect(op.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/io.k8s.api.apps.v1.Deployment' });
  });

  it('carries complete kind schemas with the GVK as an array and SMP metadata', () => {
    const deployment = apps.components.schemas['io.k8s.api.apps.v1.Deployment'];
    expect(deployment['x-kubernetes-group-version-kind']).toEqual([{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
    expect(deployment.properties.metadata).toEqual({ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' });
    const podSpec = apps.components.schemas['io.k8s.api.core.v1.PodSpec'];
    expect(podSpec.properties.containers['x-kubernetes-patch-merge-key']).toBe('name');
    expect(apps.components.schemas['io.k8s.api.autoscaling.v1.Scale']).toBeDefined();
    expect(danglingRefs(apps)).toEqual([]);
  });

  it('describes the scale subresource with the autoscaling/v1 Scale GVK', () => {
    const scale = apps.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale'];
    expect(scale.patch['x-kubernetes-group-version-kind']).toEqual({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
    expect(scale.get.operationId).toBe('readAppsV1NamespacedDeploymentScale');
  });

  it('has a PATCH op with fieldValidation for every patchable built-in kind and no dangling refs', () => {
    for (const r of builtinResources) {
      if (!r.verbs.includes('patch')) continue;
      const doc = JSON.parse(service.document(openApiGroupVersionPath(r.group, r.version))!);
      const op = patchOpFor(doc, { group: r.group, version: r.version, kind: r.kind });
      expect(op, `${r.group}/${r.version} ${r.kind}`).toBeDefined();
      expect(op!.parameters.some((p: Json) => p.name === 'fieldValidation' && p.in === 'query')).toBe(true);
    }
    for (const gvPath of Object.keys(JSON.parse(service.index()).paths)) {
      expect(danglingRefs(JSON.parse(service.document(gvPath)!)), gvPath).toEqual([]);
    }
  });

  it('serves core paths: cluster-wide lists, connect subresources, review POSTs', () => {
    const core = JSON.parse(service.document('/openapi/v3/api/v1?hash=X')!);
    expect(core.paths['/api/v1/pods'].get.operationId).toBe('listCoreV1PodForAllNamespaces');
    expect(core.paths['/api/v1/namespaces/{namespace}/pods/{name}/exec'].post['x-kubernetes-action']).toBe('connect');
    expect(core.paths['/api/v1/namespaces/{namespace}/pods/{name}/eviction'].post['x-kubernetes-group-version-kind']).toEqual({ group: 'policy', version: 'v1', kind: 'Eviction' });
    expect(core.components.schemas['io.k8s.api.core.v1.Pod']['x-kubernetes-group-version-kind']).toEqual([{ group: '', kind: 'Pod', version: 'v1' }]);
    const authz = JSON.parse(service.document('apis/authorization.k8s.io/v1')!);
    expect(Object.keys(authz.paths['/apis/authorization.k8s.io/v1/selfsubjectaccessreviews'])).toEqual(['post', 'parameters']);
  });

  it('answers undefined for group/versions that are not served', () => {
    expect(service.document('apis/apps/v2')).toBeUndefined();
  });
});

describe('openapi v3 custom resource documents', () => {
  it('synthesizes the kind schema and omits strategic merge patch', () => {
    const service = createOpenApiService([...builtinResources, crontabs], new Map([[customSchemaKey('stable.example.com', 'v1', 'crontabs'), crontabSchema]]));
    const doc = JSON.parse(service.document('apis/stable.example.com/v1')!);
    const schema = doc.components.schemas['com.example.stable.v1.CronTab'];
    expect(schema.type).toBe('object');
    expect(schema.properties.spec.properties.cronSpec).toEqual({ type: 'string' });
    expect(schema.properties.metadata).toEqual({ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' });
    expect(schema['x-kubernetes-group-version-kind']).toEqual([{ group: 'stable.example.com', version: 'v1', kind: 'CronTab' }]);
    expect(doc.components.schemas['com.example.stable.v1.CronTabList'].properties.items.items).toEqual({ $ref: '#/components/schemas/com.example.stable.v1.CronTab' });

    const op = patchOpFor(doc, { group: 'stable.example.com', version: 'v1', kind: 'CronTab' })!;
    expect(op.operationId).toBe('patchStableExampleComV1NamespacedCronTab');
    expect(op.parameters.some((p: Json) => p.name === 'fieldValidation')).toBe(true);
    expect(Object.keys(op.requestBody.content)).toEqual(['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json']);
    expect(doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/scale'].get['x-kubernetes-group-version-kind']).toEqual({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
    expect(danglingRefs(doc)).toEqual([]);
  });

  it('takes the schema from the ResourceInfo when the map has none', () => {
    const service = createOpenApiService([{ ...crontabs, openAPIV3Schema: crontabSchema }]);
    const schema = JSON.parse(service.document('apis/stable.example.com/v1')!).components.schemas['com.example.stable.v1.CronTab'];
    expect(schema.properties.spec.properties.replicas).toEqual({ type: 'integer' });
  });

  it('falls back to an open schema when no openAPIV3Schema is given', () => {
    const service = createOpenApiService([crontabs]);
    const schema = JSON.parse(service.document('apis/stable.example.com/v1')!).components.schemas['com.example.stable.v1.CronTab'];
    expect(schema['x-kubernetes-preserve-unknown-fields']).toBe(true);
  });

  it('rebuilds only the documents whose inputs changed', () => {
    const service = createOpenApiService(builtinResources);
    const before = JSON.parse(service.index()).paths;
    const coreDoc = service.document('api/v1');
    service.update([...builtinResources, crontabs], new Map([[customSchemaKey('stable.example.com', 'v1', 'crontabs'), crontabSchema]]));
    const after = JSON.parse(service.index()).paths;
    expect(after['api/v1']).toEqual(before['api/v1']);
    expect(service.document('api/v1')).toBe(coreDoc);
    const firstHash = after['apis/stable.example.com/v1'].serverRelativeURL;
    const changed = { ...crontabSchema, properties: { ...crontabSchema.properties, extra: { type: 'string' } } };
    service.update([...builtinResources, crontabs], new Map([[customSchemaKey('stable.example.com', 'v1', 'crontabs'), changed]]));
    expect(JSON.parse(service.index()).paths['apis/stable.example.com/v1'].serverRelativeURL).not.toBe(firstHash);
    service.update(builtinResources);
    expect(JSON.parse(service.index()).paths['apis/stable.example.com/v1']).toBeUndefined();
    expect(service.document('apis/stable.example.com/v1')).toBeUndefined();
  });
});
