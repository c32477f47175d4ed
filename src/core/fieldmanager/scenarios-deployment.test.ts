// Scenario table for a Deployment: containers keyed by name, ports by containerPort+protocol,
// env by name, args atomic, labels granular, nodeSelector atomic, finalizers a set, status reset.
import { describe, expect, it } from 'vitest';
import { applyPatch, conflictMessages, type ManagedFieldsEntry, updateManagedFields } from './index';
import { ownedPaths } from './inspect';

const schema = { definition: 'io.k8s.api.apps.v1.Deployment' };
const T = (m: number) => `2024-05-01T10:${String(m).padStart(2, '0')}:00Z`;
const C = '.spec.template.spec.containers[name="nginx"]';

type Obj = Record<string, any>;
function deployment(container: Obj, extra: { spec?: Obj; podSpec?: Obj; metadata?: Obj; status?: Obj } = {}): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', ...extra.metadata },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', ...container }], ...extra.podSpec } },
      ...extra.spec,
    },
    ...(extra.status ? { status: extra.status } : {}),
  };
}

function apply(live: Obj | undefined, applied: Obj, managed: ManagedFieldsEntry[], manager: string, time: string, opts: { force?: boolean; ignoredFields?: string[][] } = {}) {
  return applyPatch({ live, applied, managed, manager, apiVersion: 'apps/v1', force: opts.force ?? false, time, schema, ignoredFields: opts.ignoredFields });
}
function ok(r: ReturnType<typeof apply>) {
  if (!('object' in r)) throw new Error(`unexpected conflicts ${JSON.stringify(r.conflicts)}`);
  return r as { object: Obj; managed: ManagedFieldsEntry[] };
}

describe('Deployment scenarios', () => {
  const base = { image: 'nginx:1', ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }], env: [{ name: 'A', value: '1' }], args: ['--a', '--b'] };

  it('apply owns list-map items by key, args as a whole, selector as an atomic struct', () => {
    const r = ok(apply(undefined, deployment(base), [], 'alice', T(0)));
    expect(ownedPaths(r.managed)['alice:Apply']).toEqual([
      '.spec.selector',
      '.spec.template.metadata.labels.app',
      `${C}`,
      `${C}.args`,
      `${C}.image`,
      `${C}.name`,
      `${C}.env[name="A"]`,
      `${C}.env[name="A"].name`,
      `${C}.env[name="A"].value`,
      `${C}.ports[containerPort=53,protocol="UDP"]`,
      `${C}.ports[containerPort=80,protocol="TCP"]`,
      `${C}.ports[containerPort=53,protocol="UDP"].containerPort`,
      `${C}.ports[containerPort=53,protocol="UDP"].protocol`,
      `${C}.ports[containerPort=80,protocol="TCP"].containerPort`,
    ]);
  });

  it('an editor takes env values; re-applying the old value conflicts with "editor" using apps/v1', () => {
    const a = ok(apply(undefined, deployment(base), [], 'alice', T(0)));
    const edited = deployment({ ...base, env: [{ name: 'A', value: '2' }, { name: 'B', value: 'x' }] });
    const managed = updateManagedFields({ old: a.object, next: edited, managed: a.managed, manager: 'editor', apiVersion: 'apps/v1', time: T(1), schema });
    expect(ownedPaths(managed)['editor:Update']).toEqual([`${C}.env[name="B"]`, `${C}.env[name="A"].value`, `${C}.env[name="B"].name`, `${C}.env[name="B"].value`]);
    const c = apply({ ...edited, metadata: { ...edited.metadata, managedFields: managed } }, deployment(base), managed, 'alice', T(2));
    expect(c).toEqual({ conflicts: [{ manager: 'editor', operation: 'Update', apiVersion: 'apps/v1', field: `${C}.env[name="A"].value` }] });
    expect(conflictMessages((c as { conflicts: any }).conflicts).message).toBe(
      `Apply failed with 1 conflict: conflict with "editor" using apps/v1: ${C}.env[name="A"].value`,
    );
    // Alice no longer applying env B does not remove it: the editor owns it.
    const forced = ok(apply(edited, deployment(base), managed, 'alice', T(3), { force: true }));
    expect(forced.object.spec.template.spec.containers[0].env).toEqual([{ name: 'A', value: '1' }, { name: 'B', value: 'x' }]);
  });

  it('args are atomic: changing one element conflicts on the whole list', () => {
    const a = ok(apply(undefined, deployment(base), [], 'alice', T(0)));
    const c = apply(a.object, deployment({ args: ['--a', '--c'] }), a.managed, 'bob', T(1));
    expect('conflicts' in c && c.conflicts.map((x) => x.field)).toEqual([`${C}.args`]);
    const f = ok(apply(a.object, deployment({ args: ['--c'] }), a.managed, 'bob', T(1), { force: true }));
    expect(f.object.spec.template.spec.containers[0].args).toEqual(['--c']);
    expect(ownedPaths(f.managed)['bob:Apply']).toContain(`${C}.args`);
    expect(ownedPaths(f.managed)['alice:Apply']).not.toContain(`${C}.args`);
  });

  it('containers dropped from the apply are removed, unless another applier owns them', () => {
    const two = deployment(base, { podSpec: {} });
    two.spec.template.spec.containers.push({ name: 'sidecar', image: 'busybox' });
    const a = ok(apply(undefined, two, [], 'alice', T(0)));
    const dropped = ok(apply(a.object, deployment(base), a.managed, 'alice', T(1)));
    expect(dropped.object.spec.template.spec.containers.map((c: Obj) => c.name)).toEqual(['nginx']);

    const b = ok(apply(a.object, { ...deployment({}), spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'busybox' }] } } } }, a.managed, 'bob', T(1)));
    const kept = ok(apply(b.object, deployment(base), b.managed, 'alice', T(2)));
    expect(kept.object.spec.template.spec.containers.map((c: Obj) => c.name)).toEqual(['nginx', 'sidecar']);
    expect(ownedPaths(kept.managed)['bob:Apply']).toEqual(['.spec.template.spec.containers[name="sidecar"]', '.spec.template.spec.containers[name="sidecar"].image', '.spec.template.spec.containers[name="sidecar"].name']);
  });

  it('labels are granular; nodeSelector is atomic', () => {
    const a = ok(apply(undefined, deployment(base, { metadata: { labels: { team: 'a' } }, podSpec: { nodeSelector: { disk: 'ssd' } } }), [], 'alice', T(0)));
    const b = apply(a.object, { ...deployment({}), metadata: { name: 'web', labels: { tier: 'web' } }, spec: { template: { spec: { nodeSelector: { zone: 'x' } } } } }, a.managed, 'bob', T(1));
    expect('conflicts' in b && b.conflicts).toEqual([{ manager: 'alice', operation: 'Apply', apiVersion: 'apps/v1', field: '.spec.template.spec.nodeSelector' }]);
    const labelsOnly = ok(apply(a.object, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { tier: 'web' } } }, a.managed, 'bob', T(1)));
    expect(labelsOnly.object.metadata.labels).toEqual({ team: 'a', tier: 'web' });
    expect(ownedPaths(labelsOnly.managed)['bob:Apply']).toEqual(['.metadata.labels.tier']);
    const forced = ok(apply(a.object, { ...deployment({}), spec: { template: { spec: { nodeSelector: { zone: 'x' } } } } }, a.managed, 'bob', T(1), { force: true }));
    expect(forced.object.spec.template.spec.nodeSelector).toEqual({ zone: 'x' });
  });

  it('finalizers are a set: each applier owns its values, removal only drops its own', () => {
    const a = ok(apply(undefined, deployment(base, { metadata: { finalizers: ['a.io/x'] } }), [], 'alice', T(0)));
    const b = ok(apply(a.object, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', finalizers: ['b.io/y'] } }, a.managed, 'bob', T(1)));
    expect(b.object.metadata.finalizers).toEqual(['a.io/x', 'b.io/y']);
    expect(ownedPaths(b.managed)['bob:Apply']).toEqual(['.metadata.finalizers[="b.io/y"]']);
    const c = ok(apply(b.object, deployment(base), b.managed, 'alice', T(2)));
    expect(c.object.metadata.finalizers).toEqual(['b.io/y']);
  });

  it('status is a reset field on the main resource: kept from live and never owned', () => {
    const live = { ...deployment(base), status: { replicas: 1 } };
    const r = ok(apply(live, deployment(base, { status: { replicas: 5 } }), [], 'alice', T(1), { ignoredFields: [['status']] }));
    expect(r.object.status).toEqual({ replicas: 1 });
    expect(Object.keys(ownedPaths(r.managed))).toEqual(['alice:Apply', 'before-first-apply:Update']);
    expect(ownedPaths(r.managed)['before-first-apply:Update']!.some((p) => p.startsWith('.status'))).toBe(false);
    const status = updateManagedFields({ old: live, next: { ...live, status: { replicas: 2 } }, managed: r.managed, manager: 'ctrl', apiVersion: 'apps/v1', subresource: 'status', time: T(2), schema, ignoredFields: [['spec']] });
    expect(status.at(-1)).toEqual({ manager: 'ctrl', operation: 'Update', apiVersion: 'apps/v1', time: T(2), fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:replicas': {} } }, subresource: 'status' });
  });

  it('several conflicts are grouped per manager in the message', () => {
    const a = ok(apply(undefined, deployment(base, { spec: { replicas: 2 } }), [], 'alice', T(0)));
    const c = apply(a.object, deployment({ image: 'nginx:2' }, { spec: { replicas: 3 } }), a.managed, 'bob', T(1));
    if (!('conflicts' in c)) throw new Error('expected conflicts');
    const m = conflictMessages(c.conflicts);
    expect(m.message).toBe(`Apply failed with 2 conflicts: conflicts with "alice":\n- .spec.replicas\n- ${C}.image`);
    expect(m.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.replicas' },
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: `${C}.image` },
    ]);
  });

  it('caps Update entries at 10, folding the oldest into ancient-changes', () => {
    let obj: Obj = deployment(base, { metadata: { labels: {} } });
    let managed = updateManagedFields({ next: obj, managed: [], manager: 'creator', apiVersion: 'apps/v1', time: T(0), schema });
    for (let i = 1; i <= 11; i++) {
      const next = { ...obj, metadata: { ...obj.metadata, labels: { ...obj.metadata.labels, [`l${i}`]: 'v' } } };
      managed = updateManagedFields({ old: obj, next, managed, manager: `m${i}`, apiVersion: 'apps/v1', time: T(i), schema });
      obj = next;
    }
    expect(managed).toHaveLength(10);
    const ancient = managed.find((e) => e.manager === 'ancient-changes')!;
    expect(ancient.time).toBe(T(2));
    expect(ownedPaths([ancient])['ancient-changes:Update']).toContain('.metadata.labels.l1');
    expect(managed.map((e) => e.manager)).toEqual(['ancient-changes', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10', 'm11']);
  });
});
