import { describe, expect, it } from 'vitest';
import { isConfigMapKey, isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, isValidPathSegmentName, isValidPortName, validateName } from './names';

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('name validators', () => {
  it('DNS-1123 subdomain', () => {
    expect(isDNS1123Subdomain('my.app-1')).toEqual([]);
    expect(isDNS1123Subdomain('My_App')).toEqual([SUBDOMAIN]);
    expect(isDNS1123Subdomain('a'.repeat(254))).toEqual(['must be no more than 253 characters']);
  });

  it('DNS-1123 label', () => {
    expect(isDNS1123Label('web-1')).toEqual([]);
    expect(isDNS1123Label('a.b')).toEqual([
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });

  it('DNS-1035 label (Service names)', () => {
    expect(isDNS1035Label('svc')).toEqual([]);
    expect(isDNS1035Label('1svc')).toEqual([
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });

  it('qualified names', () => {
    expect(isQualifiedName('app.kubernetes.io/name')).toEqual([]);
    expect(isQualifiedName('/x')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('a/b/c')[0]).toMatch(/^a qualified name must consist of .* with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/);
    expect(isQualifiedName('bad key')).toEqual([
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
    expect(isQualifiedName('x'.repeat(64))).toContain('name part must be no more than 63 characters');
  });

  it('label values', () => {
    expect(isValidLabelValue('')).toEqual([]);
    expect(isValidLabelValue('-x')).toEqual([
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]);
  });

  it('config keys', () => {
    expect(isConfigMapKey('app.properties')).toEqual([]);
    expect(isConfigMapKey('..data')).toEqual(["must not start with '..'"]);
    expect(isConfigMapKey('bad key')[0]).toBe(
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    );
  });

  it('port names, path segments, generateName masking', () => {
    expect(isValidPortName('http')).toEqual([]);
    expect(isValidPortName('HTTP--')).toEqual([
      'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'must contain at least one letter or number (a-z, 0-9)',
      'must not contain consecutive hyphens',
      'must not begin or end with a hyphen',
    ]);
    expect(isValidPathSegmentName('..')).toEqual(["may not be '..'"]);
    expect(isValidPathSegmentName('a/b%')).toEqual(["may not contain '/'", "may not contain '%'"]);
    expect(validateName('subdomain', 'web-', true)).toEqual([]);
    expect(validateName('subdomain', 'web-', false)).toEqual([SUBDOMAIN]);
  });
});
