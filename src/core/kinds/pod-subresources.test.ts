// pods/binding and the legacy bindings collection through the whole core: the Pod kind's binding
// write (BindingREST's assignPod) decides what of the pod changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pod, startTestServer, type TestClient } from '../testing/api-server';

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

const PODS = '/api/v1/namespaces/default/pods';
const binding = (name: string, node: string, annotations?: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Binding', metadata: { name, ...(annotations ? { annotations } : {}) }, target: { kind: 'Node', name: node } });
const SUCCESS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

describe('pods/binding', () => {
  it('sets nodeName, merges the annotations, sets PodScheduled=True and answers Success', async () => {
    await c.post(PODS, { ...pod('bound'), metadata: { name: 'bound', annotations: { kept: 'yes' } } });
    const r = await c.post(`${PODS}/bound/binding`, binding('bound', 'n1', { added: 'too' }));
    expect([r.status, r.json]).toEqual([201, SUCCESS]);
    const p = (await c.get(`${PODS}/bound`)).json;
    expect(p.spec.nodeName).toBe('n1');
    expect(p.metadata.annotations).toEqual({ kept: 'yes', added: 'too' });
    expect(p.status.conditions.map((x: any) => [x.type, x.status])).toEqual([['PodScheduled', 'True']]);
  });

  it('refuses a pod already on a node with a Conflict on pods/binding', async () => {
    await c.post(PODS, pod('twice'));
    await c.post(`${PODS}/twice/binding`, binding('twice', 'n1'));
    const r = await c.post(`${PODS}/twice/binding`, binding('twice', 'n2'));
    expect([r.status, r.json.reason, r.json.message]).toEqual([409, 'Conflict', 'Operation cannot be fulfilled on pods/binding "twice": pod twice is already assigned to node "n1"']);
    expect((await c.get(`${PODS}/twice`)).json.spec.nodeName).toBe('n1');
  });

  it('refuses a pod that is being deleted', async () => {
    await c.post(PODS, { ...pod('going'), metadata: { name: 'going', finalizers: ['example.com/hold'] } });
    await c.del(`${PODS}/going`);
    const r = await c.post(`${PODS}/going/binding`, binding('going', 'n1'));
    expect([r.status, r.json.message]).toEqual([409, 'Operation cannot be fulfilled on pods/binding "going": pod going is being deleted, cannot be assigned to a host']);
    expect((await c.get(`${PODS}/going`)).json.spec.nodeName).toBeUndefined();
  });
});

describe('the legacy bindings collection', () => {
  it('binds the pod its Binding names and stores no Binding', async () => {
    await c.post(PODS, pod('legacy'));
    const r = await c.post('/api/v1/namespaces/default/bindings', binding('legacy', 'n3'));
    expect([r.status, r.json]).toEqual([201, SUCCESS]);
    expect((await c.get(`${PODS}/legacy`)).json.spec.nodeName).toBe('n3');
    const again = await c.post('/api/v1/namespaces/default/bindings', binding('legacy', 'n1'));
    expect([again.status, again.json.reason]).toEqual([409, 'Conflict']);
    expect((await c.get('/api/v1/namespaces/default/bindings')).status).toBe(405);
  });
});
