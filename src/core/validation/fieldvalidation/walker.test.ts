import { describe, expect, it } from 'vitest';
import { valueToNode } from '../../codec/json-scan';
import { FieldWalker } from './walker';
import type { SchemaContext, SchemaNode } from './types';

// walkValueRoot must give exactly what walking valueToNode(value, true) gives (same value with
// the same key order, same issues): the fast JSON path relies on it.
const s = (type: string): SchemaNode => ({ type });
const ref = (name: string): SchemaNode => ({ $ref: `#/definitions/${name}` });
const definitions: Record<string, SchemaNode> = {
  Thing: { type: 'object', properties: { kind: s('string'), metadata: ref('Meta'), spec: ref('Spec'), data: { type: 'object', additionalProperties: s('string') }, raw: { type: 'object' } } },
  Meta: { type: 'object', properties: { name: s('string'), labels: { type: 'object', additionalProperties: s('string') } } },
  Spec: { type: 'object', properties: { items: { type: 'array', items: { allOf: [ref('Item')] } }, tags: { type: 'array', items: s('string') } } },
  Item: { type: 'object', properties: { name: s('string'), port: s('integer') } },
};

const body = () =>
  JSON.parse(
    '{"spec":{"tags":["b","a"],"items":[{"port":80,"name":"x","extra":1},{"name":"y"}],"bogus":{"z":1}},"kind":"Thing",' +
      '"metadata":{"labels":{"zeta":"1","Alpha":"2","é":"3","😀":"4","\uffff":"5"},"name":"n","__proto__":{"p":1}},' +
      '"data":{"b":"2","a":"1"},"raw":{"y":[1,{"b":1,"a":2}],"x":null},"unknownTop":true}',
  ) as unknown;

function both(ctx: SchemaContext) {
  const byNode = new FieldWalker(ctx);
  const fromNode = byNode.walkRoot(valueToNode(body(), true));
  const byValue = new FieldWalker(ctx);
  const fromValue = byValue.walkValueRoot(body());
  return { fromNode, fromValue, nodeIssues: byNode.issues, valueIssues: byValue.issues };
}

describe('FieldWalker.walkValueRoot', () => {
  it('matches the node walk for a typed schema: same value, key order and unknown fields', () => {
    const r = both({ definitions, root: 'Thing' });
    expect(JSON.stringify(r.fromValue)).toBe(JSON.stringify(r.fromNode));
    expect(r.valueIssues).toEqual(r.nodeIssues);
    expect(r.valueIssues.map((i) => i.path)).toEqual(['metadata.__proto__', 'spec.bogus', 'spec.items[0].extra', 'unknownTop']);
    // Map keys come out in Go's bytewise order; free-form objects keep their content.
    expect(Object.keys((r.fromValue as { data: object }).data)).toEqual(['a', 'b']);
    expect((r.fromValue as { raw: unknown }).raw).toEqual({ x: null, y: [1, { a: 2, b: 1 }] });
  });

  it('matches the node walk for a structural (custom) schema, which prunes below bare objects', () => {
    const root: SchemaNode = { type: 'object', properties: { spec: { type: 'object', properties: { tags: { type: 'array', items: s('string') } } }, data: { type: 'object' } } };
    const r = both({ definitions: { 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': definitions.Meta! }, root, custom: true });
    expect(JSON.stringify(r.fromValue)).toBe(JSON.stringify(r.fromNode));
    expect(r.valueIssues).toEqual(r.nodeIssues);
    expect(r.valueIssues.length).toBeGreaterThan(3);
  });

  it('keeps an object whose keys are in order and known, fixing what is below it in place', () => {
    const text = '{"data":{"b":"2","a":"1"},"kind":"Thing","metadata":{"name":"n"},"raw":{"__proto__":{"b":1,"a":2}}}';
    const value = JSON.parse(text) as { data: object; raw: object };
    const walker = new FieldWalker({ definitions, root: 'Thing' });
    const out = walker.walkValueRoot(value);
    expect(out).toBe(value);
    expect(walker.issues).toEqual([]);
    expect(Object.keys(value.data)).toEqual(['a', 'b']);
    // The own `__proto__` key stays an ordinary key, its value rebuilt in Go's order.
    expect(Object.getPrototypeOf(value.raw)).toBe(Object.prototype);
    expect(Object.keys(Object.getOwnPropertyDescriptor(value.raw, '__proto__')!.value as object)).toEqual(['a', 'b']);
    expect(JSON.stringify(out)).toBe(JSON.stringify(new FieldWalker({ definitions, root: 'Thing' }).walkRoot(valueToNode(JSON.parse(text), true))));
  });
});
