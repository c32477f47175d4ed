import { describe, expect, it } from 'vitest';
import { describeTimeline, leafValues, type RecordedRevision } from './timeline';

const entry = (manager: string, operation: string, fields: Record<string, unknown>, time = 't') => ({ manager, operation, apiVersion: 'v1', time, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': Object.fromEntries(Object.keys(fields).map((k) => [`f:${k}`, {}])) } });
const cm = (rev: number, data: Record<string, string>, managedFields: unknown[]): RecordedRevision => ({ rev, type: 'put', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', resourceVersion: String(rev), managedFields }, data } });

describe('timeline', () => {
  it('reads leaf values by path, without managedFields and resourceVersion', () => {
    expect([...leafValues({ metadata: { name: 'a', resourceVersion: '3', managedFields: [] }, spec: { list: [{ n: 1 }], empty: {} } }).entries()]).toEqual([
      ['.metadata.name', '"a"'],
      ['.spec.list[0].n', '1'],
      ['.spec.empty', '{}'],
    ]);
  });

  it('names each revision\'s writers, changed values and owner moves; a manager losing its last field stays visible', () => {
    const revs = [
      cm(10, { a: '1' }, [entry('alice', 'Apply', { a: 1 }, 't1')]),
      cm(11, { a: '1', b: '2' }, [entry('alice', 'Apply', { a: 1 }, 't1'), entry('bob', 'Apply', { b: 1 }, 't2')]),
      cm(12, { a: '9', b: '2' }, [entry('bob', 'Apply', { b: 1 }, 't2'), entry('carol', 'Update', { a: 1 }, 't3')]),
      cm(13, { a: '9', b: '5' }, [entry('bob', 'Apply', { b: 1 }, 't2'), entry('carol', 'Update', { a: 1 }, 't3')]),
      { rev: 14, type: 'delete' as const, object: {} },
    ];
    const t = describeTimeline(revs);
    expect(t.map((e) => e.type)).toEqual(['created', 'changed', 'changed', 'changed', 'deleted']);
    // Same fields, same entry time: the writer is whoever owns what changed.
    expect(t[3]!.writers).toEqual(['bob (Apply)']);
    expect(t[0]!.writers).toEqual(['alice (Apply)']);
    expect(t[1]!.writers).toEqual(['bob (Apply)']);
    expect(t[1]!.changedValues).toEqual(['.data.b']);
    expect(t[2]!.writers).toEqual(['carol (Update)']);
    expect(t[2]!.changedValues).toEqual(['.data.a']);
    expect(t[2]!.ownerChanges).toEqual([{ path: '.data.a', gained: ['carol'], lost: ['alice'] }]);
    expect(t[2]!.managersGone).toEqual(['alice']);
  });
});
