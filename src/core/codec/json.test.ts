import { describe, expect, it } from 'vitest';
import { decodeErrorMessage, encodeJson, parseJsonBody, summarizeBody } from './json';

const err = (body: string) => {
  const r = parseJsonBody(body);
  return r.ok ? 'ok' : r.message;
};

describe('parseJsonBody', () => {
  it('reads apiVersion and kind', () => {
    const r = parseJsonBody(new TextEncoder().encode('{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"x"}}'));
    expect(r).toMatchObject({ ok: true, group: 'apps', version: 'v1', kind: 'Deployment', value: { metadata: { name: 'x' } } });
  });
  it("words syntax errors like Go's encoding/json", () => {
    const p = "couldn't get version/kind; json parse error: ";
    expect(err('')).toBe(`${p}unexpected end of JSON input`);
    expect(err('{"a":1')).toBe(`${p}unexpected end of JSON input`);
    expect(err('x')).toBe(`${p}invalid character 'x' looking for beginning of value`);
    expect(err('{a:1}')).toBe(`${p}invalid character 'a' looking for beginning of object key string`);
    expect(err('{"a" 1}')).toBe(`${p}invalid character '1' after object key`);
    expect(err('{"a":1 "b":2}')).toBe(`${p}invalid character '"' after object key:value pair`);
    expect(err('[1 2]')).toBe(`${p}invalid character '2' after array element`);
    expect(err('[1,]')).toBe(`${p}invalid character ']' looking for beginning of value`);
    expect(err('{} x')).toBe(`${p}invalid character 'x' after top-level value`);
    expect(err('{"a":tru}')).toBe(`${p}invalid character '}' in literal true (expecting 'e')`);
    expect(err('{"a":-x}')).toBe(`${p}invalid character 'x' in numeric literal`);
    expect(err('{"a":1.}')).toBe(`${p}invalid character '}' after decimal point in numeric literal`);
    expect(err('{"a":"\\q"}')).toBe(`${p}invalid character 'q' in string escape code`);
    expect(err('{"a":"\n"}')).toBe(`${p}invalid character '\\n' in string literal`);
    expect(err("{'a':1}")).toBe(`${p}invalid character '\\'' looking for beginning of object key string`);
  });
  it('rejects non-objects and wrong field types', () => {
    expect(err('[]')).toBe(
      `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
    expect(err('{"kind":1}')).toBe("couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string");
    expect(err('{"apiVersion":"a/b/c"}')).toBe('unexpected GroupVersion string: a/b/c');
  });
  it('marks duplicate keys and keeps the last value', () => {
    const r = parseJsonBody('{"a":1,"a":2}');
    expect(r.ok && r.value).toEqual({ a: 2 });
    expect(r.ok && r.node.kind === 'object' && r.node.entries.map((e) => e.duplicate)).toEqual([false, true]);
  });
});

describe('decode error messages', () => {
  it('builds transformDecodeError text', () => {
    expect(decodeErrorMessage('ConfigMap', 'boom', '{}', 'ConfigMap', 'v1')).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: boom');
    // The version alone, as kube's serializer names it.
    expect(decodeErrorMessage('Deployment', 'boom', '{}', 'Deployment', 'apps/v1')).toBe('Deployment in version "v1" cannot be handled as a Deployment: boom');
    expect(decodeErrorMessage('ConfigMap', 'boom', '{"apiVersion":"v1","data":{"aaaaaaaaa":1}}')).toBe(
      'the object provided is unrecognized (must be of type ConfigMap): boom ({"apiVersion":"v1","data":{"aa ...)',
    );
    expect(summarizeBody('')).toBe('<empty>');
    expect(summarizeBody('[1]')).toBe('5b315d');
  });
});

describe('encodeJson', () => {
  it('writes Go encoding/json bytes', () => {
    expect(encodeJson({ a: '<b>&', c: '\u2028', d: '\b\f\n' })).toBe('{"a":"\\u003cb\\u003e\\u0026","c":"\\u2028","d":"\\u0008\\u000c\\n"}\n');
    expect(encodeJson({ a: [1, {}], b: [] }, true)).toBe('{\n  "a": [\n    1,\n    {}\n  ],\n  "b": []\n}');
    expect(encodeJson({ s: 'x\\b' })).toBe('{"s":"x\\\\b"}\n');
    expect(encodeJson({ s: '\ud800' })).toBe('{"s":"\\ufffd"}\n');
  });
});
