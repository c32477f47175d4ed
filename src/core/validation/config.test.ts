import { describe, expect, it } from 'vitest';
import { invalid as invalidStatus } from '../meta/status';
import { decodeBase64 } from './base64';
import { rulesFor } from '../kinds';

const cm = rulesFor('', 'ConfigMap')!;
const secret = rulesFor('', 'Secret')!;

describe('ConfigMap', () => {
  it('accepts valid keys', () => {
    expect(cm.validateCreate!({ data: { 'app.properties': 'x' }, binaryData: { 'b.bin': 'AAE=' } })).toEqual([]);
  });
  it('rejects bad and duplicated keys', () => {
    const errs = cm.validateCreate!({ data: { 'bad key': 'x', dup: 'a' }, binaryData: { dup: 'AA==' } });
    expect(errs.map((e) => [e.field, e.detail])).toEqual([
      ['data[bad key]', "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"],
      ['data[dup]', 'duplicate of key present in binaryData'],
      ['binaryData[dup]', 'duplicate of key present in data'],
    ]);
  });
  it('reports keys in Go map order (sorted), whatever order the body had', () => {
    const errs = cm.validateCreate!({ data: { 'z z': 'x', 'B b': 'x', 'a a': 'x', 'Z:': 'x' }, binaryData: { 'y y': 'AA==', 'c c': 'AA==' } });
    expect(errs.map((e) => e.field)).toEqual(['data[B b]', 'data[Z:]', 'data[a a]', 'data[z z]', 'binaryData[c c]', 'binaryData[y y]']);
  });
  it('limits the total size to 1 MiB', () => {
    const errs = cm.validateCreate!({ data: { a: 'x'.repeat(1024 * 1024 + 1) } });
    expect(invalidStatus('', 'ConfigMap', 'c', errs).message).toBe('ConfigMap "c" is invalid: []: Too long: must have at most 1048576 bytes');
  });
  it('enforces immutable', () => {
    const old = { immutable: true, data: { a: '1' } };
    expect(cm.validateUpdate!({ immutable: true, data: { a: '1' } }, old)).toEqual([]);
    expect(cm.validateUpdate!({ data: { a: '2' } }, old)).toEqual([
      { type: 'FieldValueForbidden', field: 'immutable', detail: 'field is immutable when `immutable` is set' },
      { type: 'FieldValueForbidden', field: 'data', detail: 'field is immutable when `immutable` is set' },
    ]);
  });
});

describe('Secret', () => {
  it('defaults type and merges stringData into data', () => {
    const s: any = { metadata: { name: 's' }, data: { a: 'eA==' }, stringData: { b: 'héllo', a: 'y' } };
    secret.defaults!(s);
    expect(s).toEqual({ metadata: { name: 's' }, type: 'Opaque', data: { a: 'eQ==', b: 'aMOpbGxv' } });
  });
  it('reports invalid base64 with Go offsets', () => {
    expect(secret.validateCreate!({ type: 'Opaque', data: { a: 'ab$c' } })).toEqual([
      { type: 'FieldValueInvalid', field: 'data[a]', value: '<secret contents redacted>', detail: 'illegal base64 data at input byte 2' },
    ]);
    expect(decodeBase64('YWJ').error).toBe('illegal base64 data at input byte 0');
    expect(decodeBase64('YQ=').error).toBe('illegal base64 data at input byte 3');
    expect(decodeBase64('YQ==x').error).toBe('illegal base64 data at input byte 4');
    expect(new TextDecoder().decode(decodeBase64('aGk=\n').bytes)).toBe('hi');
  });
  it('checks type-specific keys', () => {
    expect(secret.validateCreate!({ type: 'kubernetes.io/service-account-token', metadata: {} })).toEqual([
      { type: 'FieldValueRequired', field: 'metadata.annotations[kubernetes.io/service-account.name]' },
    ]);
    expect(secret.validateCreate!({ type: 'kubernetes.io/dockerconfigjson', data: {} })).toEqual([{ type: 'FieldValueRequired', field: 'data[.dockerconfigjson]' }]);
    expect(secret.validateCreate!({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': 'aGVsbG8=' } })[0].detail).toBe(
      "invalid character 'h' looking for beginning of value",
    );
    expect(secret.validateCreate!({ type: 'kubernetes.io/tls', data: { 'tls.crt': '' } })).toEqual([{ type: 'FieldValueRequired', field: 'data[tls.key]' }]);
  });
  it('keeps type immutable', () => {
    expect(secret.validateUpdate!({ type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } }, { type: 'Opaque' })).toEqual([
      { type: 'FieldValueInvalid', field: 'type', value: 'kubernetes.io/tls', detail: 'field is immutable' },
    ]);
  });
});
