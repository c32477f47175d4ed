// Scenario tables for a Service (ports keyed by port+protocol, atomic selector) and for custom
// resources (CRD list types map/set/atomic/unannotated, and schema-less objects).
import { describe, expect, it } from 'vitest';
import { applyPatch, type ManagedFieldsEntry, type SchemaRoot, updateManagedFields } from './index';
import { ownedPaths } from './inspect';

type Obj = Record<string, any>;
const T = (m: number) => `2024-05-01T10:${String(m).padStart(2, '0')}:00Z`;

function applier(schema: SchemaRoot, apiVersion: string) {
  return (live: Obj | undefined, applied: Obj, managed: ManagedFieldsEntry[], manager: string, time: string, force = false) =>
    applyPatch({ live, applied, managed, manager, apiVersion, force, time, schema });
}
function ok(r: ReturnType<ReturnType<typeof applier>>) {
  if (!('object' in r)) throw new Error(`unexpected conflicts ${JSON.stringify(r.conflicts)}`);
  return r as { object: Obj; managed: ManagedFieldsEntry[] };
}

describe('Service scenarios', () => {
  const apply = applier({ definition: 'io.k8s.api.core.v1.Service' }, 'v1');
  const svc = (spec: Obj) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec });

  it('ports are keyed by port+protocol; two appliers share the list', () => {
    const a = ok(apply(undefined, svc({ selector: { app: 'a' }, ports: [{ port: 80, targetPort: 8080 }] }), [], 'alice', T(0)));
    const b = ok(apply(a.object, svc({ ports: [{ port: 53, protocol: 'UDP' }] }), a.managed, 'bob', T(1)));
    expect(b.object.spec.ports).toEqual([{ port: 80, targetPort: 8080 }, { port: 53, protocol: 'UDP' }]);
    expect(ownedPaths(b.managed)['bob:Apply']).toEqual(['.spec.ports[port=53,protocol="UDP"]', '.spec.ports[port=53,protocol="UDP"].port', '.spec.ports[port=53,protocol="UDP"].protocol']);
    const c = apply(b.object, svc({ ports: [{ port: 80, targetPort: 9090 }] }), b.managed, 'bob', T(2));
    expect('conflicts' in c && c.conflicts.map((x) => x.field)).toEqual(['.spec.ports[port=80,protocol="TCP"].targetPort']);
  });

  it('the selector is an atomic map: one owner for the whole map', () => {
    const a = ok(apply(undefined, svc({ selector: { app: 'a', tier: 'x' } }), [], 'alice', T(0)));
    expect(a.managed[0]!.fieldsV1).toEqual({ 'f:spec': { 'f:selector': {} } });
    const c = apply(a.object, svc({ selector: { app: 'a' } }), a.managed, 'bob', T(1));
    expect('conflicts' in c && c.conflicts.map((x) => x.field)).toEqual(['.spec.selector']);
    const same = ok(apply(a.object, svc({ selector: { app: 'a', tier: 'x' } }), a.managed, 'bob', T(1)));
    expect(ownedPaths(same.managed)).toEqual({ 'alice:Apply': ['.spec.selector'], 'bob:Apply': ['.spec.selector'] });
  });
});

const crd: SchemaRoot = {
  openAPIV3Schema: {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: {
        type: 'object',
        properties: {
          byName: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' }, v: { type: 'integer' } } } },
          tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
          atomicList: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: { type: 'string' } },
          plain: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
          size: { 'x-kubernetes-int-or-string': true },
          free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
    },
  },
};

describe('custom resource scenarios', () => {
  const apply = applier(crd, 'example.com/v1');
  const cr = (spec: Obj, metadata: Obj = {}) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', ...metadata }, spec });

  it('list-type map, set, atomic and unannotated lists', () => {
    const a = ok(apply(undefined, cr({ byName: [{ name: 'x', v: 1 }], tags: ['t1'], atomicList: ['a'], plain: [{ a: '1' }], size: '10%' }, { labels: { l: '1' } }), [], 'alice', T(0)));
    expect(a.managed[0]!.fieldsV1).toEqual({
      'f:metadata': { 'f:labels': { 'f:l': {} } },
      'f:spec': {
        'f:atomicList': {},
        'f:byName': { 'k:{"name":"x"}': { '.': {}, 'f:name': {}, 'f:v': {} } },
        'f:plain': {},
        'f:size': {},
        'f:tags': { 'v:"t1"': {} },
      },
    });
    const b = ok(apply(a.object, cr({ byName: [{ name: 'y', v: 2 }], tags: ['t2'] }), a.managed, 'bob', T(1)));
    expect(b.object.spec.byName).toEqual([{ name: 'x', v: 1 }, { name: 'y', v: 2 }]);
    expect(b.object.spec.tags).toEqual(['t1', 't2']);
    const c = apply(b.object, cr({ plain: [{ a: '2' }] }), b.managed, 'bob', T(2));
    expect('conflicts' in c && c.conflicts).toEqual([{ manager: 'alice', operation: 'Apply', apiVersion: 'example.com/v1', field: '.spec.plain' }]);
    const dropped = ok(apply(b.object, cr({ byName: [{ name: 'x', v: 1 }] }), b.managed, 'alice', T(3)));
    expect(dropped.object.spec).toEqual({ byName: [{ name: 'x', v: 1 }, { name: 'y', v: 2 }], tags: ['t2'] });
  });

  it('preserve-unknown-fields and schema-less objects: maps granular (with `.`), lists atomic', () => {
    const a = ok(apply(undefined, cr({ free: { deep: { k: 'v' }, list: [1, 2] } }), [], 'alice', T(0)));
    expect(a.managed[0]!.fieldsV1).toEqual({ 'f:spec': { 'f:free': { 'f:deep': { '.': {}, 'f:k': {} }, 'f:list': {} } } });
    const schemaless = applyPatch({ applied: cr({ a: { b: 1 }, l: [{ x: 1 }] }), managed: [], manager: 'm', apiVersion: 'example.com/v1', force: false, time: T(0), schema: { unstructured: true } });
    expect('object' in schemaless && schemaless.managed[0]!.fieldsV1).toEqual({
      'f:spec': { '.': {}, 'f:a': { '.': {}, 'f:b': {} }, 'f:l': {} },
    });
  });

  it('update on a custom resource marks every new object with `.`', () => {
    const managed = updateManagedFields({ next: cr({ byName: [{ name: 'x', v: 1 }] }), managed: [], manager: 'kubectl-create', apiVersion: 'example.com/v1', time: T(0), schema: crd });
    expect(managed[0]!.fieldsV1).toEqual({ 'f:spec': { '.': {}, 'f:byName': { '.': {}, 'k:{"name":"x"}': { '.': {}, 'f:name': {}, 'f:v': {} } } } });
  });

  it('a list-map item without its key cannot be tracked', () => {
    expect(() => apply(undefined, cr({ byName: [{ v: 1 }] }), [], 'alice', T(0))).toThrow(/omits key field "name"/);
  });
});
