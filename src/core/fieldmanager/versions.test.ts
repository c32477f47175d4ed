// Ownership across versions with a toy resource whose field is renamed between versions:
// x.example/v1 spells it `spec.old`, x.example/v2 `spec.renamed`. Conflicts, lost fields and
// pruning are decided at each manager's own version, as kube's structured-merge-diff does.
import { describe, expect, it } from 'vitest';
import { applyPatch, conflictMessages, type ManagedFieldsEntry, updateManagedFields, type VersionConverter } from './index';
import { ownedPaths } from './inspect';

const schema = { unstructured: true } as const;
const T = '2024-05-01T10:00:00Z';

const rename = (obj: any, from: string, to: string): any => {
  if (!obj?.spec || !(from in obj.spec)) return obj;
  const { [from]: value, ...rest } = obj.spec;
  return { ...obj, spec: { ...rest, [to]: value } };
};

const versions: VersionConverter = {
  samePaths: (a, b) => a === b,
  convert: (obj, from, to) => ({ ...(from === 'x.example/v1' && to === 'x.example/v2' ? rename(obj, 'old', 'renamed') : rename(obj, 'renamed', 'old')), apiVersion: to }),
  schema: () => schema,
};

const obj = (apiVersion: string, spec: Record<string, unknown>) => ({ apiVersion, kind: 'Toy', metadata: { name: 't' }, spec });

function apply(live: any, applied: any, manager: string, force = false, converter: VersionConverter | null = versions) {
  const managed: ManagedFieldsEntry[] = live?.metadata?.managedFields ?? [];
  return applyPatch({ live, applied, managed, manager, apiVersion: applied.apiVersion, force, time: T, schema, versions: converter ?? undefined });
}

function ok(r: ReturnType<typeof applyPatch>): any {
  if (!('object' in r)) throw new Error(`unexpected conflicts ${JSON.stringify(r.conflicts)}`);
  return r.object;
}

describe('field ownership across versions', () => {
  const first = ok(apply(undefined, obj('x.example/v1', { old: 1, keep: 'k' }), 'a'));

  it('a change through v2 of a field a v1 applier owns conflicts, named at the owner\'s version', () => {
    // The live object as the v2 request sees it.
    const live: any = versions.convert(first, 'x.example/v1', 'x.example/v2');
    const r = apply(live, obj('x.example/v2', { renamed: 2 }), 'b');
    expect('conflicts' in r && conflictMessages(r.conflicts).message).toBe('Apply failed with 1 conflict: conflict with "a": .spec.old');
  });

  it('without the converter the renamed field would slip through (the bug this guards)', () => {
    const live: any = versions.convert(first, 'x.example/v1', 'x.example/v2');
    expect('object' in apply(live, obj('x.example/v2', { renamed: 2 }), 'b', false, null)).toBe(true);
  });

  it('the same value through the other version is shared, not a conflict', () => {
    const live: any = versions.convert(first, 'x.example/v1', 'x.example/v2');
    const merged = ok(apply(live, obj('x.example/v2', { renamed: 1 }), 'b'));
    expect(ownedPaths(merged.metadata.managedFields)).toEqual({ 'a:Apply': ['.spec', '.spec.keep', '.spec.old'], 'b:Apply': ['.spec', '.spec.renamed'] });
  });

  it('force moves the field: the v1 owner loses it at its own version', () => {
    const live: any = versions.convert(first, 'x.example/v1', 'x.example/v2');
    const merged = ok(apply(live, obj('x.example/v2', { renamed: 2 }), 'b', true));
    expect(merged.spec).toEqual({ renamed: 2, keep: 'k' });
    expect(ownedPaths(merged.metadata.managedFields)).toEqual({ 'a:Apply': ['.spec', '.spec.keep'], 'b:Apply': ['.spec', '.spec.renamed'] });
    expect(merged.metadata.managedFields.map((e: ManagedFieldsEntry) => [e.manager, e.apiVersion])).toEqual([['a', 'x.example/v1'], ['b', 'x.example/v2']]);
  });

  it('an update through v2 takes the field from the v1 applier', () => {
    const live: any = versions.convert(first, 'x.example/v1', 'x.example/v2');
    const next = { ...live, spec: { ...live.spec, renamed: 5 } };
    const managed = updateManagedFields({ old: live, next, managed: live.metadata.managedFields, manager: 'kubectl', apiVersion: 'x.example/v2', time: T, schema, versions });
    expect(ownedPaths(managed)).toEqual({ 'a:Apply': ['.spec', '.spec.keep'], 'kubectl:Update': ['.spec.renamed'] });
  });

  it('an applier that dropped a field it applied through v1 prunes it when applying through v2', () => {
    const live: any = versions.convert(first, 'x.example/v1', 'x.example/v2');
    const merged = ok(apply(live, obj('x.example/v2', { keep: 'k' }), 'a'));
    expect(merged.spec).toEqual({ keep: 'k' });
    expect(merged.metadata.managedFields).toEqual([{ manager: 'a', operation: 'Apply', apiVersion: 'x.example/v2', time: T, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { '.': {}, 'f:keep': {} } } }]);
  });

  it('a field another manager still owns survives the pruning', () => {
    let live: any = versions.convert(first, 'x.example/v1', 'x.example/v2');
    live = ok(apply(live, obj('x.example/v2', { renamed: 1 }), 'b'));
    const merged = ok(apply(live, obj('x.example/v2', { keep: 'k' }), 'a'));
    expect(merged.spec).toEqual({ renamed: 1, keep: 'k' });
  });
});
