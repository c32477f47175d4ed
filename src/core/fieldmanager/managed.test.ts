import { describe, expect, it } from 'vitest';
import { conflictMessages, decodeManagedFields, isResetManagedFields, managerFromUserAgent, validateManagedFields } from './index';
import { managerIdentifier } from './managed';

const entry = (over: Record<string, unknown>) => ({ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {}, ...over });

describe('decodeManagedFields', () => {
  it('accepts valid entries and writes their fields in kube order', () => {
    const d = decodeManagedFields([{ fieldsV1: { 'f:data': {} }, subresource: 'status', time: 't', fieldsType: 'FieldsV1', apiVersion: 'v1', operation: 'Apply', manager: 'a' }]);
    expect('entries' in d && Object.keys(d.entries[0]!)).toEqual(['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource']);
  });
  it('reads an object\'s metadata.managedFields too', () => {
    expect(decodeManagedFields({ metadata: { managedFields: [entry({})] } })).toEqual({ entries: [entry({})] });
    expect(decodeManagedFields({ metadata: {} })).toEqual({ entries: [] });
  });
  it('rejects malformed entries with kube wording', () => {
    expect(decodeManagedFields([entry({ operation: 'Patch' })])).toEqual({ error: 'operation must be `Apply` or `Update`' });
    expect(decodeManagedFields([entry({ apiVersion: '' })])).toEqual({ error: 'apiVersion must not be empty' });
    expect(decodeManagedFields([entry({}), entry({ fieldsType: undefined })])).toEqual({ error: 'missing fieldsType in managed fields entry 1' });
    expect(decodeManagedFields([entry({ fieldsType: 'FieldsV2' })])).toEqual({ error: 'invalid fieldsType "FieldsV2" in managed fields entry 0' });
    expect('error' in decodeManagedFields([entry({ fieldsV1: { 'x:y': {} } })])).toBe(true);
  });
  it('validation causes for ObjectMeta', () => {
    expect(validateManagedFields([entry({ operation: 'Nope', manager: 'x'.repeat(129) })])).toEqual([
      { type: 'FieldValueInvalid', field: 'metadata.managedFields[0].operation', value: 'Nope', detail: 'must be `Apply` or `Update`' },
      { type: 'FieldValueTooLong', field: 'metadata.managedFields[0].manager', value: 'x'.repeat(129), detail: 'must have at most 128 bytes' },
    ]);
  });
  it('recognises reset requests', () => {
    expect(isResetManagedFields([])).toBe(true);
    expect(isResetManagedFields([{}])).toBe(true);
    expect(isResetManagedFields(undefined)).toBe(false);
    expect(isResetManagedFields([entry({})])).toBe(false);
  });
});

describe('manager identity and names', () => {
  it('appliers are identified without apiVersion, updaters with it', () => {
    expect(managerIdentifier({ manager: 'k', operation: 'Apply', apiVersion: 'v1' })).toBe('{"manager":"k","operation":"Apply"}');
    expect(managerIdentifier({ manager: 'k', operation: 'Update', apiVersion: 'apps/v1', subresource: 'status' })).toBe('{"manager":"k","operation":"Update","apiVersion":"apps/v1","subresource":"status"}');
  });
  it('derives the manager from the User-Agent', () => {
    expect(managerFromUserAgent('kubectl/v1.34.5 (linux/amd64) kubernetes/ebfac05')).toBe('kubectl');
    expect(managerFromUserAgent('Helm/4.1.4')).toBe('Helm');
    expect(managerFromUserAgent('a\u0001b/1')).toBe('ab');
    expect(managerFromUserAgent('x'.repeat(200))).toHaveLength(128);
    expect(managerFromUserAgent(undefined)).toBe('');
  });
  it('words conflicts with subresource owners', () => {
    const m = conflictMessages([{ manager: 'ctrl', operation: 'Update', apiVersion: 'apps/v1', subresource: 'status', field: '.status.replicas' }]);
    expect(m.message).toBe('Apply failed with 1 conflict: conflict with "ctrl" with subresource "status" using apps/v1: .status.replicas');
  });
});
