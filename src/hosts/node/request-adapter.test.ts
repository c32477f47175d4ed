import { describe, expect, it } from 'vitest';
import { collectHeaders, originForm } from './request-adapter';

describe('request targets', () => {
  it('serves an absolute-form target by its path and query, as Go does', () => {
    expect(originForm('http://other:6443/api/v1/namespaces?limit=1')).toBe('/api/v1/namespaces?limit=1');
    expect(originForm('HTTPS://h')).toBe('/');
    expect(originForm('https://h?x=1')).toBe('/?x=1');
    expect(originForm('/api/v1')).toBe('/api/v1');
    expect(originForm('*')).toBe('*');
  });

  it('keeps repeated headers, joined', () => {
    expect(collectHeaders(['Accept', 'a', 'accept', 'b', 'X-One', '1'])).toEqual({ accept: 'a, b', 'x-one': '1' });
  });

  it('keeps headers named as Object.prototype members as headers', () => {
    const headers = collectHeaders(['Constructor', 'a', '__proto__', 'b', 'toString', 'c', 'toString', 'd']);
    expect(Object.keys(headers)).toEqual(['constructor', '__proto__', 'tostring']);
    expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
    expect([headers.constructor, headers.__proto__, headers.tostring]).toEqual(['a', 'b', 'c, d']);
  });
});
