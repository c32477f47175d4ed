import { describe, expect, it } from 'vitest';
import { JsonPathError, findResults, parsePath } from './jsonpath';

const doc = {
  metadata: { name: 'w1', creationTimestamp: '2024-01-01T00:00:00Z', labels: { 'app.kubernetes.io/name': 'web' } },
  spec: {
    replicas: 3,
    items: [{ name: 'a', size: 1 }, { name: 'b', size: 5 }],
    list: [{ name: 'x' }, { name: 'y' }, { other: 1 }],
  },
  status: {
    conditions: [
      { type: 'Progressing', status: 'True' },
      { type: 'Ready', status: 'False' },
    ],
  },
};

describe('JSONPath subset', () => {
  it('walks fields, with or without braces and $', () => {
    expect(findResults('.spec.replicas', doc)).toEqual([3]);
    expect(findResults('{.metadata.creationTimestamp}', doc)).toEqual(['2024-01-01T00:00:00Z']);
    expect(findResults('$.metadata.name', doc)).toEqual(['w1']);
    expect(findResults(".metadata['name']", doc)).toEqual(['w1']);
  });
  it('treats missing keys as no result', () => {
    expect(findResults('.spec.missing.deeper', doc)).toEqual([]);
    expect(findResults('.spec.replicas.x', doc)).toEqual([]);
  });
  it('indexes, slices and wildcards arrays', () => {
    expect(findResults('.spec.items[0].name', doc)).toEqual(['a']);
    expect(findResults('.spec.items[-1].name', doc)).toEqual(['b']);
    expect(findResults('.spec.items[5].name', doc)).toEqual([]);
    expect(findResults('.spec.list[*].name', doc)).toEqual(['x', 'y']);
    expect(findResults('.spec.items[0:1].name', doc)).toEqual(['a']);
  });
  it('filters on equality, inequality, comparisons and existence', () => {
    expect(findResults('.status.conditions[?(@.type=="Ready")].status', doc)).toEqual(['False']);
    expect(findResults(".status.conditions[?(@.type=='Progressing')].status", doc)).toEqual(['True']);
    expect(findResults('.status.conditions[?(@.type!="Ready")].type', doc)).toEqual(['Progressing']);
    expect(findResults('.spec.items[?(@.size > 2)].name', doc)).toEqual(['b']);
    expect(findResults('.spec.list[?(@.name)].name', doc)).toEqual(['x', 'y']);
  });
  it('supports escaped dots in keys and recursive descent', () => {
    expect(findResults('.metadata.labels.app\\.kubernetes\\.io/name', doc)).toEqual(['web']);
    expect(findResults('..name', doc)).toEqual(['w1', 'a', 'b', 'x', 'y']);
  });
  it('rejects syntax it does not know', () => {
    expect(() => parsePath('.spec.items[')).toThrow(JsonPathError);
    expect(() => parsePath('.spec.items[?(1==1)]')).toThrow(JsonPathError);
  });
});
