import { describe, expect, it } from 'vitest';
import { invalid as invalidStatus } from '../meta/status';
import { validateLabels, validateObjectMeta, validateObjectMetaUpdate } from './index';
import { nameRuleFor } from '../kinds';

describe('validateObjectMeta', () => {
  const ns = { namespaced: true, nameRule: 'subdomain' as const };

  it('accepts a valid object', () => {
    expect(validateObjectMeta({ name: 'web', namespace: 'default', labels: { app: 'web' }, annotations: { 'example.com/x': 'y' } }, ns)).toEqual([]);
  });

  it('requires a name', () => {
    expect(validateObjectMeta({ namespace: 'default' }, ns)).toEqual([{ type: 'FieldValueRequired', field: 'metadata.name', detail: 'name or generateName is required' }]);
  });

  it('requires or forbids the namespace by scope', () => {
    expect(validateObjectMeta({ name: 'a' }, ns)).toEqual([{ type: 'FieldValueRequired', field: 'metadata.namespace' }]);
    expect(validateObjectMeta({ name: 'a', namespace: 'x' }, { namespaced: false, nameRule: 'subdomain' })).toEqual([
      { type: 'FieldValueForbidden', field: 'metadata.namespace', detail: 'not allowed on this type' },
    ]);
  });

  it('checks labels, annotations and generateName', () => {
    const errs = validateObjectMeta({ name: 'a', namespace: 'd', generateName: 'Bad_', labels: { 'bad key': 'v' }, annotations: { 'a/b/c': '' } }, ns);
    expect(errs.map((e) => `${e.field}:${e.value}`)).toEqual(['metadata.generateName:Bad_', 'metadata.labels:bad key', 'metadata.annotations:a/b/c']);
  });

  it('limits the total annotation size to 256 KiB', () => {
    const errs = validateObjectMeta({ name: 'a', namespace: 'd', annotations: { big: 'x'.repeat(256 * 1024) } }, ns);
    expect(errs).toEqual([{ type: 'FieldValueTooLong', field: 'metadata.annotations', detail: 'must have at most 262144 bytes' }]);
  });

  it('requires qualified finalizers on built-in kinds', () => {
    expect(validateObjectMeta({ name: 'a', namespace: 'd', finalizers: ['foo'] }, ns)[0].detail).toBe('name is neither a standard finalizer name nor is it fully qualified');
    expect(validateObjectMeta({ name: 'a', namespace: 'd', finalizers: ['foo'] }, { ...ns, custom: true })).toEqual([]);
  });

  it('renders like kube-apiserver in a 422', () => {
    const errs = validateObjectMeta({ name: 'Bad', namespace: 'default' }, { namespaced: true, nameRule: nameRuleFor('', 'Service') });
    expect(invalidStatus('', 'Service', 'Bad', errs).message).toBe(
      `Service "Bad" is invalid: metadata.name: Invalid value: "Bad": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    );
  });
});

describe('nameRuleFor', () => {
  it.each([
    ['', 'Namespace', 'label'],
    ['', 'Service', 'dns1035-label'],
    ['', 'ConfigMap', 'subdomain'],
    ['apps', 'Deployment', 'subdomain'],
    ['rbac.authorization.k8s.io', 'ClusterRole', 'path-segment'],
  ])('%s/%s → %s', (g, k, rule) => expect(nameRuleFor(g, k)).toBe(rule));
});

describe('validateObjectMetaUpdate', () => {
  const old = { name: 'a', namespace: 'd', uid: 'u1', creationTimestamp: '2024-01-02T03:04:05Z', generation: 2 };
  it('accepts an unchanged identity', () => {
    expect(validateObjectMetaUpdate({ ...old, labels: { x: 'y' } }, old)).toEqual([]);
  });
  it('rejects identity changes', () => {
    const errs = validateObjectMetaUpdate({ ...old, uid: 'u2', creationTimestamp: '2025-01-01T00:00:00Z', generation: 1 }, old);
    expect(errs).toEqual([
      { type: 'FieldValueInvalid', field: 'metadata.generation', value: 1, detail: 'must not be decremented' },
      { type: 'FieldValueInvalid', field: 'metadata.uid', value: 'u2', detail: 'field is immutable' },
      { type: 'FieldValueInvalid', field: 'metadata.creationTimestamp', value: '2025-01-01T00:00:00Z', valueText: '2025-01-01 00:00:00 +0000 UTC', detail: 'field is immutable' },
    ]);
  });
  it('forbids new finalizers while deleting', () => {
    const errs = validateObjectMetaUpdate({ ...old, deletionTimestamp: 't', finalizers: ['a/b'] }, { ...old, deletionTimestamp: 't' });
    expect(errs).toEqual([{ type: 'FieldValueForbidden', field: 'metadata.finalizers', detail: 'no new finalizers can be added if the object is being deleted, found new finalizers []string{"a/b"}' }]);
  });
});

describe('validateLabels', () => {
  it('reports in key order, whatever keys were seen valid before', () => {
    expect(validateLabels({ app: 'web', 'b/c': 'x' }, 'metadata.labels')).toEqual([]);
    // `app` is now a remembered valid key: its bad value, and a bad key, are still reported, sorted.
    const errs = validateLabels({ 'z_bad/': 'v', app: '-bad-' }, 'metadata.labels');
    const values = errs.map((e) => e.value);
    expect(values[0]).toBe('-bad-');
    expect(values.length).toBeGreaterThan(1);
    expect(values.slice(1).every((v) => v === 'z_bad/')).toBe(true);
  });
});
