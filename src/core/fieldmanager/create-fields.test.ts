// The create fast path (create-fields.ts) must give exactly what the general ownership path
// gives: same entries, same fieldsV1 key order, same errors. Compared here on varied objects.
import { describe, expect, it } from 'vitest';
import { type SchemaRoot, updateManagedFields, updateManagedFieldsByOwnership } from './index';

const T = '2024-05-01T10:00:00Z';

const crdSchema: SchemaRoot = {
  openAPIV3Schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          items: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'port'], items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer', default: 80 }, v: { type: 'string' } } } },
          tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
          atomic: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          amap: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { x: { type: 'string' } } },
          free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          nested: { type: 'object', properties: { deep: { type: 'object', additionalProperties: { type: 'array', items: { type: 'integer' } } } } },
        },
      },
      status: { type: 'object', properties: { ok: { type: 'boolean' } } },
    },
  },
};

const deployment = (extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd', namespace: 'default', labels: { app: 'd' }, uid: 'u', generation: 1, creationTimestamp: T },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'd' } },
    template: {
      metadata: { labels: { app: 'd' } },
      spec: {
        containers: [
          { name: 'web', image: 'nginx', ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }], env: [{ name: 'B', value: 'x' }, { name: 'A', valueFrom: { fieldRef: { fieldPath: 'x' } } }], args: ['b', 'a'] },
          { name: 'side', image: 'busybox', resources: {}, volumeMounts: [] },
        ],
        volumes: [{ name: 'v', emptyDir: {} }],
        tolerations: [{ key: 'k', operator: 'Exists' }],
        nodeSelector: {},
      },
    },
    ...extra,
  },
  status: { replicas: 1 },
});

const cases: Array<[string, SchemaRoot, object, { subresource?: string; ignoredFields?: string[][] }?]> = [
  ['configmap', { definition: 'io.k8s.api.core.v1.ConfigMap' }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { b: '1', a: '2' }, annotations: {} }, data: { z: '1', a: '2', 'ü': 'ñ', 'k"q<>': 'v' }, binaryData: {} }],
  ['configmap without data', { definition: 'io.k8s.api.core.v1.ConfigMap' }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }],
  ['configmap with null data', { definition: 'io.k8s.api.core.v1.ConfigMap' }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', finalizers: ['b', 'a'] }, data: null }],
  ['deployment', { definition: 'io.k8s.api.apps.v1.Deployment' }, deployment(), { ignoredFields: [['status']] }],
  ['deployment with strategy', { definition: 'io.k8s.api.apps.v1.Deployment' }, deployment({ strategy: { type: 'Recreate' }, paused: false, minReadySeconds: 0 }), { ignoredFields: [['status']] }],
  ['deployment status write', { definition: 'io.k8s.api.apps.v1.Deployment' }, deployment(), { subresource: 'status', ignoredFields: [['spec'], ['metadata']] }],
  ['deployment without ignored fields', { definition: 'io.k8s.api.apps.v1.Deployment' }, deployment({ template: null })],
  ['deployment with a null spec', { definition: 'io.k8s.api.apps.v1.Deployment' }, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: null }],
  ['service', { definition: 'io.k8s.api.core.v1.Service' }, { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { selector: { a: 'b' }, ports: [{ port: 80 }, { name: 'dns', port: 53, protocol: 'UDP' }], clusterIPs: ['10.0.0.1'] } }],
  ['pod', { definition: 'io.k8s.api.core.v1.Pod' }, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'n', uid: 'u' }] }, spec: { containers: [{ name: 'c', image: 'i' }], initContainers: [], securityContext: {} }, status: { phase: 'Pending' } }],
  ['cluster role', { definition: 'io.k8s.api.rbac.v1.ClusterRole' }, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }], aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } }],
  ['custom resource', crdSchema, { apiVersion: 'ex.com/v1', kind: 'W', metadata: { name: 'w', labels: { 'ключ': 'v' } }, spec: { items: [{ name: 'b', port: 2 }, { name: 'a' }, { name: 'a', port: 80, v: 'dup' }, { name: 'a', port: 1 }], tags: ['z', 'a', 'ü', 'a'], atomic: [{ a: 'b' }], labels: { z: 'v', '': 'e', 'ü': 'x' }, amap: { x: 'y' }, free: { q: [1, 2], r: { s: {} }, e: [], n: null }, nested: { deep: { k: [1], j: [] } } }, status: { ok: true } }, { ignoredFields: [['status']] }],
  ['custom resource with empty containers', crdSchema, { apiVersion: 'ex.com/v1', kind: 'W', metadata: { name: 'w' }, spec: { items: [], tags: [], labels: {}, nested: {}, free: {} } }],
  ['custom resource with unknown fields', crdSchema, { apiVersion: 'ex.com/v1', kind: 'W', metadata: { name: 'w' }, spec: { unknown: { a: [1] } }, top: 'x' }],
  ['unstructured', { unstructured: true }, { apiVersion: 'x/v1', kind: 'U', metadata: { name: 'u', namespace: 'n' }, spec: { a: { b: [{ c: 1 }] }, e: {}, l: [], n: null }, list: [1, 2] }],
  ['nothing but stripped fields', { definition: 'io.k8s.api.core.v1.ConfigMap' }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'n', uid: 'u', resourceVersion: '1' } }],
  ['an undefined value', { definition: 'io.k8s.api.core.v1.ConfigMap' }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: undefined }, data: { a: 'b' } }],
];

describe('create fast path = general ownership path', () => {
  for (const [name, schema, next, opts] of cases) {
    it(name, () => {
      const args = { next, managed: [], manager: 'kubectl-create', apiVersion: String((next as { apiVersion: string }).apiVersion), time: T, schema, ...opts };
      const fast = updateManagedFields(args);
      const general = updateManagedFieldsByOwnership(args);
      expect(JSON.stringify(fast)).toBe(JSON.stringify(general));
    });
  }

  it('gives the same entry at an empty time', () => {
    const args = { next: deployment(), managed: [], manager: 'm', apiVersion: 'apps/v1', time: '', schema: { definition: 'io.k8s.api.apps.v1.Deployment' } };
    expect(JSON.stringify(updateManagedFields(args))).toBe(JSON.stringify(updateManagedFieldsByOwnership(args)));
  });

  it('fails like the general path for list-map items without their key', () => {
    const args = { next: deployment({ template: { spec: { containers: [{ image: 'x' }] } } }), managed: [], manager: 'm', apiVersion: 'apps/v1', time: T, schema: { definition: 'io.k8s.api.apps.v1.Deployment' } };
    expect(() => updateManagedFieldsByOwnership(args)).toThrow(/omits key field "name"/);
    expect(() => updateManagedFields(args)).toThrow(/omits key field "name"/);
  });

  it('records something for every case (the comparison is not vacuous)', () => {
    const [, schema, next, opts] = cases[0]!;
    const out = updateManagedFields({ next, managed: [], manager: 'm', apiVersion: 'v1', time: T, schema, ...opts });
    expect(out[0]!.fieldsV1).toEqual({ 'f:binaryData': {}, 'f:data': { '.': {}, 'f:a': {}, 'f:k"q<>': {}, 'f:z': {}, 'f:ü': {} }, 'f:metadata': { 'f:annotations': {}, 'f:labels': { '.': {}, 'f:a': {}, 'f:b': {} } } });
  });
});
