import { describe, expect, it } from 'vitest';
import { apiPathFor, normalizeBase } from './protocol';

describe('apiPathFor', () => {
  it('answers API roots and the admin prefix under the base, relative to it', () => {
    expect(apiPathFor('/api/v1/namespaces', '/')).toBe('/api/v1/namespaces');
    expect(apiPathFor('/apis', '/')).toBe('/apis');
    expect(apiPathFor('/version', '/')).toBe('/version');
    expect(apiPathFor('/openapi/v3', '/')).toBe('/openapi/v3');
    for (const p of ['healthz', 'livez', 'readyz', 'metrics']) expect(apiPathFor(`/${p}`, '/')).toBe(`/${p}`);
    expect(apiPathFor('/sub/apis/apps/v1', '/sub/')).toBe('/apis/apps/v1');
    expect(apiPathFor('/sub/__playground/status', '/sub')).toBe('/__playground/status');
  });

  it('passes everything else through', () => {
    expect(apiPathFor('/', '/')).toBeUndefined();
    expect(apiPathFor('/index.html', '/')).toBeUndefined();
    expect(apiPathFor('/assets/index-x.js', '/')).toBeUndefined();
    expect(apiPathFor('/apisx', '/')).toBeUndefined();
    expect(apiPathFor('/api/v1', '/sub/')).toBeUndefined();
    expect(apiPathFor('/subapi/v1', '/sub/')).toBeUndefined();
  });

  it('normalises bases', () => {
    expect(normalizeBase('')).toBe('/');
    expect(normalizeBase('a/b')).toBe('/a/b/');
    expect(normalizeBase('/a/')).toBe('/a/');
  });
});
