// The `default/kubernetes` Service, Endpoints and EndpointSlice come back after a client deletes
// them, as kube-apiserver's bootstrap controller and endpoint reconciler put them back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestServer, type TestClient } from '../testing/api-server';

let c: TestClient;
const SVC = '/api/v1/namespaces/default/services/kubernetes';
const EP = '/api/v1/namespaces/default/endpoints/kubernetes';
const SLICE = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes';

beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

describe('the kubernetes Service', () => {
  it('is recreated with its address after a delete', async () => {
    const before = (await c.get(SVC)).json;
    expect((await c.del(SVC)).status).toBe(200);
    const after = await eventually(async () => {
      const r = await c.get(SVC);
      return r.status === 200 ? r.json : undefined;
    });
    expect(after.metadata.uid).not.toBe(before.metadata.uid);
    expect(after.spec.clusterIP).toBe('10.96.0.1');
  });

  it('its Endpoints and EndpointSlice are recreated, and an edit is put back', async () => {
    expect((await c.del(EP)).status).toBe(200);
    expect((await c.del(SLICE)).status).toBe(200);
    await eventually(async () => ((await c.get(EP)).status === 200 && (await c.get(SLICE)).status === 200 ? true : undefined));
    const ep = (await c.get(EP)).json;
    const ports = ep.subsets[0].ports;
    expect((await c.put(EP, { ...ep, subsets: [{ ...ep.subsets[0], ports: [{ name: 'https', port: 1234, protocol: 'TCP' }] }] })).status).toBe(200);
    const fixed = await eventually(async () => {
      const now = (await c.get(EP)).json;
      return now.subsets[0].ports[0].port === 6443 ? now : undefined;
    });
    expect(fixed.subsets[0].ports).toEqual(ports);
  });

  it('a Service of another name is left alone', async () => {
    const body = { metadata: { name: 'kubernetes-extra' }, spec: { ports: [{ port: 80 }] } };
    expect((await c.post('/api/v1/namespaces/default/services', body)).status).toBe(201);
    expect((await c.del('/api/v1/namespaces/default/services/kubernetes-extra')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await c.get('/api/v1/namespaces/default/services/kubernetes-extra')).status).toBe(404);
  });
});
