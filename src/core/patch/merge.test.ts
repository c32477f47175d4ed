import { describe, expect, it } from 'vitest';
import { ApiError } from '../meta/status';
import { applyMergePatch, mergePatchStrictErrors, parseMergePatch } from './merge';

const status = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof ApiError ? `${e.code} ${e.reason}: ${e.message}` : String(e);
  }
  return 'no error';
};

describe('applyMergePatch', () => {
  it('follows RFC 7386', () => {
    const doc = { a: 'b', c: { d: 'e', f: 'g' }, l: [1, 2] };
    expect(applyMergePatch(doc, { a: 'z', c: { f: null }, l: [3] })).toEqual({ a: 'z', c: { d: 'e' }, l: [3] });
    expect(doc).toEqual({ a: 'b', c: { d: 'e', f: 'g' }, l: [1, 2] });
    expect(applyMergePatch({ a: 1 }, { b: { x: null, y: 1 } })).toEqual({ a: 1, b: { y: 1 } });
    expect(applyMergePatch({ a: 'x' }, { a: { n: null, m: 2 } })).toEqual({ a: { m: 2 } });
    expect(applyMergePatch({ a: { x: 1 } }, { a: [null, { q: null }] })).toEqual({ a: [null, { q: null }] });
    expect(applyMergePatch({ metadata: { labels: { k: 'v' } } }, { metadata: { labels: { k: null, n: 'm' } } })).toEqual({ metadata: { labels: { n: 'm' } } });
    expect(applyMergePatch({ a: 1 }, [1, { b: null }])).toEqual([1, {}]);
  });
  it('rejects null and scalar patches like kube', () => {
    expect(status(() => applyMergePatch({}, null))).toBe('400 BadRequest: Invalid JSON Patch');
    expect(status(() => applyMergePatch({}, 'x'))).toBe('400 BadRequest: Invalid JSON Patch');
    expect(status(() => parseMergePatch('{bad'))).toBe('400 BadRequest: Invalid JSON Patch');
  });
  it('finds strict errors in the patch body', () => {
    expect(mergePatchStrictErrors(parseMergePatch('{"spec":{"a":1,"a":2}}'))).toEqual(['duplicate field "spec.a"']);
    expect(status(() => mergePatchStrictErrors(parseMergePatch('[1]')))).toBe(
      '400 BadRequest: error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}',
    );
  });
});
