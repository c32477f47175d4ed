import { describe, expect, it } from 'vitest';
import { isCustomApiVersion, sortedDeep, withSortedTypeMeta } from './unstructured-order';
import { storedTextTemplate, toStoredText } from './objects';
import { startTestServer } from '../testing/api-server';
import { FUZZ_CRD } from '../testing/fuzz';
import { startWatch } from '../testing/watch';

describe('custom objects: keys sorted at every level, as encoding/json writes a map', () => {
  it('tells custom resources from built-in and meta.k8s.io kinds', () => {
    expect(isCustomApiVersion('fuzz.example.com/v1')).toBe(true);
    for (const v of ['v1', 'apps/v1', 'autoscaling/v1', 'meta.k8s.io/v1', 'apiextensions.k8s.io/v1', undefined]) expect(isCustomApiVersion(v), String(v)).toBe(false);
  });

  it('sorts copies, shares what is in order', () => {
    const inOrder = { a: [{ x: 1, y: 2 }], b: { c: 1 } };
    expect(sortedDeep(inOrder)).toBe(inOrder);
    const v = { b: 1, a: [{ y: 2, x: 1 }], __proto__x: 0 };
    expect(JSON.stringify(sortedDeep(v))).toBe('{"__proto__x":0,"a":[{"x":1,"y":2}],"b":1}');
    expect(Object.keys(v)).toEqual(['b', 'a', '__proto__x']);
  });

  it('stores a custom object sorted, metadata and managedFields entries included, and finds its resourceVersion after fields that mimic it', () => {
    const obj = { apiVersion: 'x.example.com/v1', kind: 'W', metadata: { name: 'w', namespace: 'ns', managedFields: [{ manager: 'm', operation: 'Update', apiVersion: 'x.example.com/v1', fieldsType: 'FieldsV1', fieldsV1: {} }] }, spec: { b: 1, a: 2 }, data: { resourceVersion: '0' } };
    expect(toStoredText(obj, '5')).toBe('{"data":{"resourceVersion":"0"},"metadata":{"managedFields":[{"apiVersion":"x.example.com/v1","fieldsType":"FieldsV1","fieldsV1":{},"manager":"m","operation":"Update"}],"name":"w","namespace":"ns","resourceVersion":"5"},"spec":{"a":2,"b":1}}');
    const t = storedTextTemplate(obj);
    expect(JSON.parse(t.withRevision(42))).toMatchObject({ data: { resourceVersion: '0' }, metadata: { resourceVersion: '42' } });
  });

  it('puts apiVersion and kind back in their sorted places', () => {
    expect(withSortedTypeMeta('{"metadata":{"name":"w"},"spec":{}}', 'W', 'x/v1')).toBe('{"apiVersion":"x/v1","kind":"W","metadata":{"name":"w"},"spec":{}}');
    expect(withSortedTypeMeta('{"data":1,"metadata":{"name":"w"}}', 'W', 'x/v1')).toBe('{"apiVersion":"x/v1","data":1,"kind":"W","metadata":{"name":"w"}}');
  });
});

describe('through the API', () => {
  it('a custom object reads, lists and watches with sorted keys; its list has continue', async () => {
    const c = await startTestServer();
    try {
      expect((await c.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', FUZZ_CRD)).status).toBe(201);
      const U = '/apis/fuzz.example.com/v1/namespaces/default/widgets';
      let made = await c.post(`${U}?fieldManager=m`, { kind: 'Widget', apiVersion: 'fuzz.example.com/v1', metadata: { name: 'w', labels: { z: '1', a: '2' } }, spec: { size: 3, mode: 'slow' } });
      for (let i = 0; made.status === 404 && i < 50; i++) {
        await new Promise((r) => setTimeout(r, 20));
        made = await c.post(`${U}?fieldManager=m`, { kind: 'Widget', apiVersion: 'fuzz.example.com/v1', metadata: { name: 'w', labels: { z: '1', a: '2' } }, spec: { size: 3, mode: 'slow' } });
      }
      expect(made.status).toBe(201);
      const sortedText = /^\{"apiVersion":"fuzz\.example\.com\/v1","kind":"Widget","metadata":\{"creationTimestamp":"[^"]+","generation":1,"labels":\{"a":"2","z":"1"\},"managedFields":\[\{"apiVersion":"fuzz\.example\.com\/v1","fieldsType":"FieldsV1","fieldsV1":\{[^\]]*\},"manager":"m","operation":"Update","time":"[^"]+"\}\],"name":"w","namespace":"default","resourceVersion":"\d+","uid":"[^"]+"\},"spec":\{"mode":"slow","size":3\}\}\n?$/;
      expect(made.text).toMatch(sortedText);
      expect((await c.get(`${U}/w`)).text).toMatch(sortedText);
      const applied = await c.patch(`${U}/w?fieldManager=m2&force=true`, JSON.stringify({ apiVersion: 'fuzz.example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 4 } }), 'application/apply-patch+yaml');
      expect(applied.text).toContain('"spec":{"mode":"slow","size":4}}');
      const list = await c.get(U);
      expect(list.text).toMatch(/^\{"apiVersion":"fuzz\.example\.com\/v1","items":\[\{"apiVersion":"fuzz\.example\.com\/v1","kind":"Widget","metadata":/);
      expect(list.text).toMatch(/\],"kind":"WidgetList","metadata":\{"continue":"","resourceVersion":"\d+"\}\}\n?$/);
      const page = await c.get(`${U}?limit=1`);
      expect(page.json.metadata.continue).toBe('');
      const w = await startWatch(c.api, `${U}?watch=1&resourceVersion=0&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`);
      await w.waitFor((e) => e.type === 'BOOKMARK');
      w.cancel();
      expect(w.chunks[0]).toMatch(/^\{"type":"ADDED","object":\{"apiVersion":"fuzz\.example\.com\/v1","kind":"Widget","metadata":\{"creationTimestamp"/);
      expect(w.chunks.find((t) => t.includes('BOOKMARK'))).toMatch(/^\{"type":"BOOKMARK","object":\{"apiVersion":"fuzz\.example\.com\/v1","kind":"Widget","metadata":\{"annotations":\{"k8s\.io\/initial-events-end":"true"\},"resourceVersion":"\d+"\}\}\}/);
    } finally {
      await c.close();
    }
  });
});
