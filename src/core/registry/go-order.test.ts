import { describe, expect, it } from 'vitest';
import { goOrderOf, inGoOrder } from './go-order';
import { toStoredText } from './objects';
import { startTestServer, MERGE_PATCH } from '../server/testing';

const keys = (o: unknown) => Object.keys(o as object);

describe('Go key order', () => {
  it('struct fields in declaration order, maps sorted bytewise, at every level', () => {
    const desc = goOrderOf('apps/v1', 'Deployment')!;
    const out = inGoOrder(desc, {
      spec: {
        template: { spec: { containers: [{ env: [{ value: 'v', name: 'E' }], image: 'i', name: 'c' }] }, metadata: { labels: { z: '1', B: '2', a: '3' } } },
        strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: 0 }, type: 'RollingUpdate' },
        replicas: 2,
      },
      metadata: { name: 'd' },
    }) as any;
    // (TypeMeta is not part of the message: kind and apiVersion are the caller's to place.)
    expect(keys(out)).toEqual(['metadata', 'spec']);
    expect(keys(out.spec)).toEqual(['replicas', 'template', 'strategy']);
    expect(keys(out.spec.strategy)).toEqual(['type', 'rollingUpdate']);
    expect(keys(out.spec.strategy.rollingUpdate)).toEqual(['maxUnavailable', 'maxSurge']);
    expect(keys(out.spec.template)).toEqual(['metadata', 'spec']);
    expect(keys(out.spec.template.metadata.labels)).toEqual(['B', 'a', 'z']);
    expect(keys(out.spec.template.spec.containers[0])).toEqual(['name', 'image', 'env']);
    expect(keys(out.spec.template.spec.containers[0].env[0])).toEqual(['name', 'value']);
  });

  it('shares what is already in order, copies what moves, never changes the input', () => {
    const desc = goOrderOf('v1', 'ConfigMap')!;
    const inOrder = { metadata: { name: 'a', labels: { a: '1', b: '2' } }, data: { a: '1', b: '2' } };
    expect(inGoOrder(desc, inOrder)).toBe(inOrder);
    const data = { b: '1', a: '2', __proto__x: '3' };
    const obj = { data, metadata: { name: 'a' } };
    const out = inGoOrder(desc, obj) as any;
    expect(keys(obj)).toEqual(['data', 'metadata']);
    expect(keys(data)).toEqual(['b', 'a', '__proto__x']);
    expect(keys(out)).toEqual(['metadata', 'data']);
    expect(keys(out.data)).toEqual(['__proto__x', 'a', 'b']);
    expect(out.metadata).toBe(obj.metadata);
  });

  it('keeps a __proto__ map key an ordinary key', () => {
    const desc = goOrderOf('v1', 'ConfigMap')!;
    const data = JSON.parse('{"z":"1","__proto__":"2"}');
    const out = inGoOrder(desc, { data }) as any;
    expect(JSON.stringify(out.data)).toBe('{"__proto__":"2","z":"1"}');
  });

  it('writes raw extensions as sent, and leaves kinds without a Go struct (custom objects) alone', () => {
    const cr = toStoredText({ apiVersion: 'x.example.com/v1', kind: 'W', metadata: { name: 'w' }, spec: { b: 1, a: 2 } });
    expect(cr).toBe('{"metadata":{"name":"w"},"spec":{"b":1,"a":2}}');
    const rev = toStoredText({ apiVersion: 'apps/v1', kind: 'ControllerRevision', revision: 1, data: { z: 1, a: 2 }, metadata: { name: 'r' } });
    expect(rev).toBe('{"metadata":{"name":"r"},"data":{"z":1,"a":2},"revision":1}');
  });
});

describe('through the API', () => {
  it('a create, an apply and a merge patch all answer and store Go order', async () => {
    const c = await startTestServer();
    try {
      const U = '/apis/apps/v1/namespaces/default/deployments';
      const d = (name: string) => ({ kind: 'Deployment', apiVersion: 'apps/v1', metadata: { labels: { z: '1', a: '1' }, name }, spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ image: 'i', name: 'c' }] } }, selector: { matchLabels: { app: 'x' } } } });
      const created = await c.post(U, d('made'));
      const applied = await c.patch(`${U}/applied?fieldManager=m`, JSON.stringify(d('applied')), 'application/apply-patch+yaml');
      const patched = await c.patch(`${U}/made`, { spec: { template: { metadata: { labels: { b: '2' } } } } }, MERGE_PATCH);
      for (const r of [created, applied, patched, await c.get(`${U}/applied`)]) {
        expect(r.text).toMatch(/^\{"kind":"Deployment","apiVersion":"apps\/v1","metadata":\{"name":"[a-z]+","namespace":"default",.*"labels":\{"a":"1","z":"1"\}/);
        expect(r.text).toContain('"spec":{"replicas":1,"selector":{"matchLabels":{"app":"x"}},"template":{"metadata":{"labels":{');
        expect(r.text).toContain('"containers":[{"name":"c","image":"i","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"Always"}],"restartPolicy":"Always"');
      }
      expect(patched.text).toContain('"labels":{"app":"x","b":"2"}');
    } finally {
      await c.close();
    }
  });
});
