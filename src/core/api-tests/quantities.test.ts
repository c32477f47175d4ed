// Quantities through the API: stored and answered in canonical form whatever way they were
// written (create, patch, server-side apply), as Go's Quantity marshals them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueName, type TestClient } from '../testing/api-server';

let c: TestClient;
const PODS = '/api/v1/namespaces/default/pods';
const LR = '/api/v1/namespaces/default/limitranges';
const APPLY = 'application/apply-patch+yaml';

beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

const podWith = (name: string, resources: unknown) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx', resources }] } });

describe('quantities', () => {
  it('a create reads back canonical quantities, requests defaulted from limits included', async () => {
    const name = uniqueName('q');
    const r = await c.post(PODS, podWith(name, { limits: { cpu: 1, memory: '1.5Gi' }, requests: { cpu: 0.5 } }));
    expect(r.status).toBe(201);
    expect(r.json.spec.containers[0].resources).toEqual({ limits: { cpu: '1', memory: '1536Mi' }, requests: { cpu: '500m', memory: '1536Mi' } });
    expect((await c.get(`${PODS}/${name}`)).json.spec.containers[0].resources.requests.cpu).toBe('500m');
  });

  it('patches and server-side apply store them canonical too; re-applying the same configuration writes nothing', async () => {
    const name = uniqueName('lr');
    const body = { apiVersion: 'v1', kind: 'LimitRange', metadata: { name }, spec: { limits: [{ type: 'Container', default: { cpu: 0.25 } }] } };
    const applied = await c.patch(`${LR}/${name}?fieldManager=me`, body, APPLY);
    expect(applied.status).toBe(201);
    expect(applied.json.spec.limits[0].default).toEqual({ cpu: '250m' });
    const again = await c.patch(`${LR}/${name}?fieldManager=me`, body, APPLY);
    expect(again.json.metadata.resourceVersion).toBe(applied.json.metadata.resourceVersion);
    const patched = await c.patch(`${LR}/${name}`, { spec: { limits: [{ type: 'Container', default: { cpu: 2000 } }] } });
    expect(patched.json.spec.limits[0].default).toEqual({ cpu: '2k' });
  });
});
