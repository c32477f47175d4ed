// Empty optional maps and lists are not stored or answered (Go's omitempty), and managedFields do
// not record them, as for an object kube-apiserver decoded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERGE_PATCH, startTestServer, uniqueName, type TestClient } from '../testing/api-server';

let c: TestClient;
const CM = '/api/v1/namespaces/default/configmaps';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';

beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

describe('empty collections', () => {
  it('a ConfigMap created with data: {} has neither data nor a managedFields entry', async () => {
    const r = await c.post(CM, { metadata: { name: uniqueName('e') }, data: {} });
    expect(r.status).toBe(201);
    expect('data' in r.json).toBe(false);
    expect(r.json.metadata.managedFields).toBeUndefined();
  });

  it("a Deployment's template drops nodeSelector: {} and tolerations: [] but keeps resources: {}", async () => {
    const body = {
      metadata: { name: uniqueName('d') },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { nodeSelector: {}, tolerations: [], containers: [{ name: 'c', image: 'i', resources: {}, env: [] }] } } },
    };
    const r = await c.post(`${DEPLOY}?fieldManager=helm`, body);
    expect(r.status).toBe(201);
    const spec = r.json.spec.template.spec;
    expect(spec.nodeSelector).toBeUndefined();
    expect(spec.tolerations).toBeUndefined();
    expect(spec.containers[0].resources).toEqual({});
    expect(spec.containers[0].env).toBeUndefined();
    const owned = r.json.metadata.managedFields[0].fieldsV1['f:spec']['f:template']['f:spec'];
    expect(Object.keys(owned)).not.toContain('f:nodeSelector');
    // A merge patch that empties a map removes it.
    const patched = await c.patch(`${DEPLOY}/${body.metadata.name}`, { spec: { template: { spec: { nodeSelector: { zone: 'a' } } } } }, MERGE_PATCH);
    expect(patched.json.spec.template.spec.nodeSelector).toEqual({ zone: 'a' });
    const emptied = await c.patch(`${DEPLOY}/${body.metadata.name}`, { spec: { template: { spec: { nodeSelector: { zone: null } } } } }, MERGE_PATCH);
    expect(emptied.json.spec.template.spec.nodeSelector).toBeUndefined();
  });
});
