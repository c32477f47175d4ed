import { describe, expect, it } from 'vitest';
import { ownerRefsOf, uidOf } from './owner-refs-text';

const ref = (uid: string) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `rs-${uid}`, uid, controller: true, blockOwnerDeletion: true });

/** What a full parse answers: the scanner must agree with it on every text. */
function parsed(text: string) {
  const refs = JSON.parse(text).metadata?.ownerReferences;
  return Array.isArray(refs) && refs.length ? refs : undefined;
}

describe('ownerRefsOf', () => {
  const texts: Record<string, string> = {
    'no key at all': JSON.stringify({ kind: 'ConfigMap', metadata: { name: 'x' } }),
    'the key only inside a string value': '{"metadata":{"name":"x"},"data":{"k":"\\"ownerReferences\\":[1]"}}',
    'an empty list': JSON.stringify({ metadata: { name: 'x', ownerReferences: [] } }),
    'a pod as stored': JSON.stringify({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { name: 'p', labels: { 'a]b': '{"x"' }, annotations: { n: 'x\\"}' }, ownerReferences: [ref('u1'), ref('u2')], managedFields: [{ fieldsV1: { 'f:metadata': { 'f:ownerReferences': { 'k:{"uid":"u1"}': {} } } } }] },
      spec: { containers: [{ name: 'c', args: ['[', '{', '"'] }] },
    }),
    'only a template has references': JSON.stringify({ kind: 'ReplicaSet', metadata: { name: 'r' }, spec: { template: { metadata: { ownerReferences: [ref('t')] } } } }),
    'metadata after spec, values of every type before it': JSON.stringify({ n: 1.5e3, t: true, f: false, z: null, a: [[], {}, [{ ownerReferences: [ref('no')] }]], spec: { x: { ownerReferences: [ref('no')] } }, metadata: { ownerReferences: [ref('yes')] } }),
    'a template first, then the object\'s own': JSON.stringify({ spec: { template: { metadata: { ownerReferences: [ref('t')] } } }, metadata: { name: 'r', ownerReferences: [ref('own')] } }),
    'indented text': JSON.stringify({ metadata: { name: 'x', ownerReferences: [ref('u')] }, spec: {} }, null, 2),
    'an escaped key (falls back to a full parse)': '{"meta\\u0064ata":{"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"c","uid":"u"}]}}',
    'metadata null': '{"metadata":null,"spec":{"ownerReferences":[1]}}',
  };
  for (const [name, text] of Object.entries(texts)) {
    it(`agrees with a full parse: ${name}`, () => {
      expect(ownerRefsOf(text)).toEqual(parsed(text));
    });
  }
  it('finds the object\'s own references next to a template\'s', () => {
    expect(ownerRefsOf(texts["a template first, then the object's own"])?.map((r) => r.uid)).toEqual(['own']);
    expect(ownerRefsOf(texts['a pod as stored'])?.map((r) => r.uid)).toEqual(['u1', 'u2']);
  });
});

describe('uidOf', () => {
  it('reads metadata.uid, not a uid elsewhere', () => {
    expect(uidOf(JSON.stringify({ kind: 'Pod', spec: { uid: 'no' }, metadata: { name: 'p', ownerReferences: [ref('r')], uid: 'yes' } }))).toBe('yes');
    expect(uidOf(JSON.stringify({ metadata: { name: 'p' }, spec: { uid: 'no' } }))).toBeUndefined();
    expect(uidOf(JSON.stringify({ spec: { uid: 'no' } }))).toBeUndefined();
    expect(uidOf('{"metadata":{"u\\u0069d":"escaped"}}')).toBe('escaped');
    expect(uidOf('{"metadata":{"uid":"a\\"b"}}')).toBe('a"b');
  });
});
