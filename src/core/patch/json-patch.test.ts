import { describe, expect, it } from 'vitest';
import { ApiError } from '../meta/status';
import { applyJsonPatch, jsonPatchStrictErrors, parseJsonPatch } from './json-patch';

const fail = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return { code: e.code, reason: e.reason, message: e.message, status: e.toStatus() };
    throw e;
  }
  throw new Error('expected an error');
};

const doc = { metadata: { name: 'x', labels: { a: 'true' } }, spec: { list: [1, 2] } };

describe('JSON patch', () => {
  it('applies RFC 6902 operations to a copy', () => {
    const ops = parseJsonPatch(
      '[{"op":"test","path":"/metadata/labels/a","value":"true"},{"op":"replace","path":"/metadata/labels/a","value":"false"},{"op":"add","path":"/spec/list/-","value":3},{"op":"remove","path":"/spec/list/0"},{"op":"copy","from":"/metadata/name","path":"/spec/n"},{"op":"move","from":"/spec/n","path":"/spec/m"}]',
    ).ops;
    expect(applyJsonPatch(doc, ops)).toEqual({ metadata: { name: 'x', labels: { a: 'false' } }, spec: { list: [2, 3], m: 'x' } });
    expect(doc.metadata.labels.a).toBe('true');
    expect(applyJsonPatch(doc, parseJsonPatch('null').ops)).toEqual(doc);
  });

  it('refuses operations on the root, except test (evanphx finds no container for "")', () => {
    const unprocessable = { code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request' };
    for (const op of ['{"op":"replace","path":"","value":{}}', '{"op":"add","path":"","value":{}}', '{"op":"remove","path":""}', '{"op":"move","from":"","path":"/spec/x"}', '{"op":"copy","from":"","path":"/spec/x"}']) {
      expect(fail(() => applyJsonPatch(doc, parseJsonPatch(`[${op}]`).ops))).toMatchObject(unprocessable);
    }
    expect(applyJsonPatch(doc, parseJsonPatch(`[{"op":"test","path":"","value":${JSON.stringify(doc)}}]`).ops)).toEqual(doc);
  });

  it('answers 400 for bodies that are not operation lists', () => {
    expect(fail(() => parseJsonPatch('{"op":"add"}')).message).toBe('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
    expect(fail(() => parseJsonPatch('[1]')).message).toBe('json: cannot unmarshal number into Go value of type jsonpatch.Operation');
    expect(fail(() => parseJsonPatch('[')).message).toBe('unexpected end of JSON input');
    expect(fail(() => parseJsonPatch('[')).code).toBe(400);
    const many = JSON.stringify(Array.from({ length: 10001 }, () => ({ op: 'test', path: '/a', value: 1 })));
    expect(fail(() => parseJsonPatch(many))).toMatchObject({ code: 413, message: 'The allowed maximum operations in a JSON patch is 10000, got 10001' });
  });

  it('answers 422 with the generic message when an operation fails', () => {
    for (const body of [
      '[{"op":"test","path":"/metadata/labels/a","value":"no"}]',
      '[{"op":"replace","path":"/spec/missing","value":1}]',
      '[{"op":"remove","path":"/nope"}]',
      '[{"op":"add","path":"/a/b/c","value":1}]',
      '[{"op":"bogus","path":"/a"}]',
      '[{"op":"add","path":"spec","value":1}]',
    ]) {
      const e = fail(() => applyJsonPatch(doc, parseJsonPatch(body).ops));
      expect(e.status).toEqual({
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server rejected our request due to an error in our request', reason: 'Invalid', details: {}, code: 422,
      });
    }
  });

  it('reports strict errors on the operations', () => {
    const p = parseJsonPatch('[{"op":"add","path":"/a","value":1,"foo":"bar"},{"op":"add","path":"/b","path":"/c","value":2}]');
    expect(jsonPatchStrictErrors(p)).toEqual(['json patch unknown field "[0].foo"', 'json patch duplicate field "[1].path"']);
  });
});

describe('JSON patch paths whose keys are Object.prototype member names', () => {
  const unprocessable = { code: 422, message: 'the server rejected our request due to an error in our request' };
  const apply = (d: unknown, body: string) => applyJsonPatch(d, parseJsonPatch(body).ops) as Record<string, any>;

  it('adds, replaces, tests and removes `__proto__` as an ordinary key (kube applies it; fast-json-patch refused it)', () => {
    const added = apply({ data: {} }, '[{"op":"add","path":"/data/__proto__","value":{"x":"1"}}]');
    expect(Object.getOwnPropertyDescriptor(added.data, '__proto__')?.value).toEqual({ x: '1' });
    expect(Object.getPrototypeOf(added.data)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    const replaced = apply(added, '[{"op":"test","path":"/data/__proto__/x","value":"1"},{"op":"replace","path":"/data/__proto__","value":"v"}]');
    expect(JSON.stringify(replaced)).toBe('{"data":{"__proto__":"v"}}');
    expect(apply(replaced, '[{"op":"remove","path":"/data/__proto__"}]')).toEqual({ data: {} });
    expect(apply({}, '[{"op":"add","path":"/__proto__","value":{"polluted":true}}]')).toEqual(JSON.parse('{"__proto__":{"polluted":true}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never finds inherited members: a path through or to `toString` that the document lacks fails', () => {
    for (const body of [
      '[{"op":"test","path":"/data/toString","value":null}]',
      '[{"op":"remove","path":"/data/constructor"}]',
      '[{"op":"replace","path":"/data/valueOf","value":"x"}]',
      '[{"op":"add","path":"/data/constructor/prototype/x","value":"1"}]',
      '[{"op":"copy","from":"/data/hasOwnProperty","path":"/data/x"}]',
    ]) expect(fail(() => apply({ data: {} }, body))).toMatchObject(unprocessable);
    expect(apply({ data: {} }, '[{"op":"add","path":"/data/constructor","value":"c"},{"op":"move","from":"/data/constructor","path":"/data/toString"}]')).toEqual({ data: { toString: 'c' } });
  });

  it('reads array indices and a missing value as evanphx/json-patch does', () => {
    expect(apply({ l: [1, 2, 3] }, '[{"op":"remove","path":"/l/-1"},{"op":"add","path":"/l/-1","value":9}]')).toEqual({ l: [1, 2, 9] });
    expect(apply({ l: [] }, '[{"op":"add","path":"/l/-","value":1},{"op":"add","path":"/m"}]')).toEqual({ l: [1], m: null });
    expect(fail(() => apply({ l: [1] }, '[{"op":"add","path":"/l/3","value":1}]'))).toMatchObject(unprocessable);
    expect(fail(() => apply({ l: [1] }, '[{"op":"replace","path":"/l/x","value":1}]'))).toMatchObject(unprocessable);
  });
});

describe('patch entry points', async () => {
  const { parsePatchBody, applyJsonPatch: apply, applyMergePatch: merge, patchStrictErrors } = await import('./index');
  it('reads the body once and applies either type', () => {
    expect(apply({ a: 1 }, parsePatchBody('[{"op":"replace","path":"/a","value":2}]'))).toEqual({ a: 2 });
    expect(merge({ a: 1 }, parsePatchBody('{"b":2}'))).toEqual({ a: 1, b: 2 });
    expect(fail(() => merge({}, parsePatchBody('{x'))).message).toBe('Invalid JSON Patch');
    expect(fail(() => apply({}, parsePatchBody('{x'))).message).toBe("invalid character 'x' looking for beginning of object key string");
    expect(patchStrictErrors('merge', parsePatchBody('{"a":1,"a":2}'))).toEqual(['duplicate field "a"']);
  });
});
