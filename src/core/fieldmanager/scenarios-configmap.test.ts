// Scenario table for a ConfigMap: operations → expected object → owned fields per manager.
import { describe, expect, it } from 'vitest';
import { applyPatch, type ManagedFieldsEntry, managedFieldsForUpdate, updateManagedFields } from './index';
import { ownedPaths } from './inspect';

const schema = { definition: 'io.k8s.api.core.v1.ConfigMap' };
const T1 = '2024-05-01T10:00:00Z';
const T2 = '2024-05-01T11:00:00Z';
const T3 = '2024-05-01T12:00:00Z';

const cm = (data: Record<string, string>, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'x', namespace: 'default', ...(labels ? { labels } : {}) },
  data,
});

function apply(live: object | undefined, applied: object, managed: ManagedFieldsEntry[], manager: string, time: string, force = false) {
  const r = applyPatch({ live, applied, managed, manager, apiVersion: 'v1', force, time, schema });
  if (!('object' in r)) throw new Error(`unexpected conflicts ${JSON.stringify(r.conflicts)}`);
  return r;
}

describe('ConfigMap scenarios', () => {
  it('apply creates, records an Apply entry without apiVersion/kind/name/namespace', () => {
    const r = apply(undefined, cm({ a: '1' }, { app: 'demo' }), [], 'alice', T1);
    expect(r.object).toEqual({ ...cm({ a: '1' }, { app: 'demo' }), metadata: { ...cm({}, { app: 'demo' }).metadata, managedFields: r.managed } });
    expect(r.managed).toEqual([
      { manager: 'alice', operation: 'Apply', apiVersion: 'v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } } },
    ]);
  });

  it('create by update marks new maps with `.`', () => {
    const managed = updateManagedFields({ next: cm({ a: '1' }), managed: [], manager: 'kubectl-create', apiVersion: 'v1', time: T1, schema });
    expect(managed).toEqual([{ manager: 'kubectl-create', operation: 'Update', apiVersion: 'v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } } }]);
  });

  it('same value = shared ownership; a different value conflicts; force takes the field', () => {
    const a = apply(undefined, cm({ a: '1', b: '2' }), [], 'alice', T1);
    const shared = apply(a.object, cm({ a: '1' }), a.managed, 'bob', T2);
    expect(ownedPaths(shared.managed)).toEqual({ 'alice:Apply': ['.data.a', '.data.b'], 'bob:Apply': ['.data.a'] });
    // Nothing changed: the object is the live one and bob's new entry has no time.
    expect(shared.managed.find((e) => e.manager === 'bob')!.time).toBeUndefined();

    const conflict = applyPatch({ live: shared.object, applied: cm({ a: '9' }), managed: shared.managed, manager: 'bob', apiVersion: 'v1', force: false, time: T3, schema });
    expect(conflict).toEqual({ conflicts: [{ manager: 'alice', operation: 'Apply', apiVersion: 'v1', field: '.data.a' }] });

    const forced = apply(shared.object, cm({ a: '9' }), shared.managed, 'bob', T3, true);
    expect((forced.object as { data: unknown }).data).toEqual({ a: '9', b: '2' });
    expect(ownedPaths(forced.managed)).toEqual({ 'alice:Apply': ['.data.b'], 'bob:Apply': ['.data.a'] });
    expect(forced.managed.find((e) => e.manager === 'bob')!.time).toBe(T3);
  });

  it('fields the applier stops applying are removed unless someone else owns them', () => {
    const a = apply(undefined, cm({ a: '1', b: '2', c: '3' }), [], 'alice', T1);
    const b = apply(a.object, cm({ c: '3' }), a.managed, 'bob', T2);
    const again = apply(b.object, cm({ a: '1' }), b.managed, 'alice', T3);
    expect((again.object as { data: unknown }).data).toEqual({ a: '1', c: '3' });
    expect(ownedPaths(again.managed)).toEqual({ 'alice:Apply': ['.data.a'], 'bob:Apply': ['.data.c'] });
  });

  it('a no-op re-apply returns the live object unchanged, keeping the time', () => {
    const a = apply(undefined, cm({ a: '1' }), [], 'alice', T1);
    const again = apply(a.object, cm({ a: '1' }), a.managed, 'alice', T2);
    expect(again.object).toEqual(a.object);
    expect(again.managed[0]!.time).toBe(T1);
  });

  it('update takes changed fields from appliers, removed fields leave every set, empty entries vanish', () => {
    const a = apply(undefined, cm({ a: '1', b: '2' }), [], 'alice', T1);
    const live = a.object as ReturnType<typeof cm>;
    const m1 = updateManagedFields({ old: live, next: { ...live, data: { a: 'changed', b: '2' } }, managed: a.managed, manager: 'kubectl-edit', apiVersion: 'v1', time: T2, schema });
    expect(ownedPaths(m1)).toEqual({ 'alice:Apply': ['.data.b'], 'kubectl-edit:Update': ['.data.a'] });
    // Removing the field kubectl-edit owns drops its entry entirely.
    const m2 = updateManagedFields({ old: { ...live, data: { a: 'changed', b: '2' } }, next: { ...live, data: { b: '2' } }, managed: m1, manager: 'other', apiVersion: 'v1', time: T3, schema });
    expect(ownedPaths(m2)).toEqual({ 'alice:Apply': ['.data.b'] });
    // An update that changes nothing leaves entries and times alone.
    expect(updateManagedFields({ old: live, next: live, managed: a.managed, manager: 'x', apiVersion: 'v1', time: T3, schema })).toEqual(a.managed);
  });

  it('Update entries of one manager merge and take the latest time', () => {
    const base = cm({ a: '1' });
    const m1 = updateManagedFields({ next: base, managed: [], manager: 'ed', apiVersion: 'v1', time: T1, schema });
    const m2 = updateManagedFields({ old: base, next: cm({ a: '1', b: '2' }), managed: m1, manager: 'ed', apiVersion: 'v1', time: T2, schema });
    expect(m2).toEqual([{ manager: 'ed', operation: 'Update', apiVersion: 'v1', time: T2, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} } } }]);
  });

  it('reset: managedFields [] / [{}] start from nothing; otherwise the live entries are kept', () => {
    const a = apply(undefined, cm({ a: '1' }), [], 'alice', T1);
    expect(managedFieldsForUpdate([{}], a.managed)).toEqual([]);
    expect(managedFieldsForUpdate([], a.managed)).toEqual([]);
    expect(managedFieldsForUpdate(undefined, a.managed)).toEqual(a.managed);
    expect(managedFieldsForUpdate([{ operation: 'Bogus' }], a.managed)).toEqual(a.managed);
    const live = a.object as ReturnType<typeof cm>;
    // kube's skipNonAppliedManager: an update starting from no entries is not tracked at all
    // (the next apply hands what exists to before-first-apply); a create always is.
    const after = updateManagedFields({ old: live, next: { ...live, data: { a: '1', z: '0' } }, managed: [], manager: 'kubectl', apiVersion: 'v1', time: T2, schema });
    expect(after).toEqual([]);
    const created = updateManagedFields({ next: cm({ z: '0' }), managed: [], manager: 'kubectl', apiVersion: 'v1', time: T2, schema });
    expect(ownedPaths(created)).toEqual({ 'kubectl:Update': ['.data', '.data.z'] });
  });

  it('the first apply to an object without managedFields hands existing fields to before-first-apply', () => {
    const live = cm({ a: '1', b: '2' }, { app: 'demo' });
    const r = applyPatch({ live, applied: cm({ a: '5' }), managed: [], manager: 'alice', apiVersion: 'v1', force: false, time: T2, schema });
    expect(r).toEqual({ conflicts: [{ manager: 'before-first-apply', operation: 'Update', apiVersion: 'v1', field: '.data.a' }] });
    const ok = apply(live, cm({ a: '1' }), [], 'alice', T2);
    expect(ownedPaths(ok.managed)).toEqual({
      'alice:Apply': ['.data.a'],
      'before-first-apply:Update': ['.data', '.data.a', '.data.b', '.metadata.labels', '.metadata.labels.app'],
    });
    expect(ok.managed.map((e) => e.time)).toEqual([undefined, T2]);
  });
});
