import { describe, expect, it } from 'vitest';
import { toStoredText } from './objects';
import { rememberManagedFieldsText } from '../fieldmanager/managed-text';

// toStoredText writes its text member by member and splices remembered managedFields text in;
// the answer must be what JSON.stringify of the ordered object writes (a built-in's zero
// creationTimestamp included, as encoding/json writes it).
const entries = () => [{ manager: 'm', operation: 'Update', apiVersion: 'v1', time: '2024-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:k': {} } } }];

describe('toStoredText', () => {
  it('writes metadata first, status last, no type meta, with spliced managedFields text', () => {
    const managedFields = entries();
    // A text that differs from the entries' own, to see that it is the one spliced in.
    rememberManagedFieldsText(managedFields, '["spliced"]');
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', status: undefined, data: { k: 'v' }, metadata: { managedFields, name: 'a', namespace: 'ns', labels: {}, uid: 'u' } };
    expect(toStoredText(obj, '7')).toBe('{"metadata":{"name":"a","namespace":"ns","uid":"u","resourceVersion":"7","creationTimestamp":null,"managedFields":["spliced"]},"data":{"k":"v"}}');
  });

  it('writes the entries themselves when unusual metadata fields follow managedFields', () => {
    const managedFields = entries();
    rememberManagedFieldsText(managedFields, '["spliced"]');
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', managedFields, extra: 'x' } };
    expect(toStoredText(obj)).toBe(`{"metadata":{"name":"a","creationTimestamp":null,"managedFields":${JSON.stringify(managedFields)},"extra":"x"}}`);
  });

  it('splices into empty metadata and keeps a __proto__ key an ordinary member', () => {
    const managedFields = entries();
    rememberManagedFieldsText(managedFields, '["spliced"]');
    const data = JSON.parse('{"__proto__":"p"}');
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { managedFields }, data, status: { phase: 'x' } };
    expect(toStoredText(obj)).toBe('{"metadata":{"creationTimestamp":null,"managedFields":["spliced"]},"data":{"__proto__":"p"},"status":{"phase":"x"}}');
  });

  it('leaves an empty remembered list out, as an empty managedFields', () => {
    const managedFields: object[] = [];
    rememberManagedFieldsText(managedFields, '[]');
    expect(toStoredText({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', managedFields } })).toBe('{"metadata":{"name":"a","creationTimestamp":null}}');
  });
});
