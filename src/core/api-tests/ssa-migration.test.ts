// Client-side apply → `kubectl apply --server-side` through the whole core (issue 22): the
// requests kubectl sends, and what kube-apiserver v1.23 answers to them (lastAppliedManager,
// lastAppliedUpdater): conflicts the last-applied annotation explains are forced for the field
// manager `kubectl` only, the others are reported alone, and the annotation follows the applied
// configuration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configMap, startTestServer, statusOf, uniqueName, type Reply, type TestClient } from '../testing/api-server';

const APPLY = 'application/apply-patch+yaml';
const CM = '/api/v1/namespaces/default/configmaps';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

/** What `kubectl apply -f` (client-side) creates: the manifest plus its last-applied annotation. */
async function clientSideApplied(name: string, data: Record<string, string>, labels?: Record<string, string>): Promise<any> {
  const manifest = configMap(name, data, labels ? { labels } : {});
  const annotation = `${JSON.stringify({ apiVersion: 'v1', data, kind: 'ConfigMap', metadata: { annotations: {}, ...(labels ? { labels } : {}), name, namespace: 'default' } })}\n`;
  const r = await c.post(`${CM}?fieldManager=kubectl-client-side-apply`, { ...manifest, metadata: { ...manifest.metadata, annotations: { [LAST_APPLIED]: annotation } } });
  expect(r.status).toBe(201);
  return r.json;
}

function apply(name: string, body: unknown, manager: string): Promise<Reply> {
  return c.patch(`${CM}/${name}?fieldManager=${manager}`, JSON.stringify(body), APPLY);
}

const managers = (obj: any) => (obj.metadata.managedFields ?? []).map((e: any) => `${e.manager}/${e.operation}`).sort();

describe('kubectl apply --server-side after client-side apply', () => {
  it('a changed manifest applies without conflicts; the client-side applier is forgotten; the annotation is the applied configuration', async () => {
    const name = uniqueName('csa');
    await clientSideApplied(name, { a: '1', c: '3' }, { app: 'demo' });
    const applied = configMap(name, { a: '1', c: '4' }, { labels: { app: 'demo' } });
    const r = await apply(name, applied, 'kubectl');
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ a: '1', c: '4' });
    expect(r.json.metadata.annotations[LAST_APPLIED]).toBe(`{"apiVersion":"v1","data":{"a":"1","c":"4"},"kind":"ConfigMap","metadata":{"labels":{"app":"demo"},"name":"${name}"}}\n`);
    // The client-side applier owned the annotation: dropped. The forced pass then started from
    // no entries, so what existed went to before-first-apply and kubectl took what it changed.
    expect(managers(r.json)).toEqual(['before-first-apply/Update', 'kubectl/Apply']);
    const bfa = r.json.metadata.managedFields.find((e: any) => e.manager === 'before-first-apply');
    expect(bfa.fieldsV1['f:metadata']['f:annotations']).toEqual({ '.': {}, [`f:${LAST_APPLIED}`]: {} });
    expect(bfa.fieldsV1['f:data']).toEqual({ '.': {}, 'f:a': {} });
    const kubectl = r.json.metadata.managedFields.find((e: any) => e.manager === 'kubectl');
    expect(kubectl.fieldsV1).toEqual({ 'f:data': { 'f:a': {}, 'f:c': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } });
    expect((await c.get(`${CM}/${name}`)).json).toEqual(r.json);
  });

  it('the same manifest again: no conflict, the client-side applier is dropped, the annotation rewritten', async () => {
    const name = uniqueName('csa-same');
    const before = await clientSideApplied(name, { a: '1' });
    const r = await apply(name, configMap(name, { a: '1' }), 'kubectl');
    expect(r.status).toBe(200);
    expect(managers(r.json)).toEqual(['kubectl/Apply']);
    expect(r.json.metadata.annotations[LAST_APPLIED]).toBe(`{"apiVersion":"v1","data":{"a":"1"},"kind":"ConfigMap","metadata":{"name":"${name}"}}\n`);
    expect(Number(r.json.metadata.resourceVersion)).toBeGreaterThan(Number(before.metadata.resourceVersion));
  });

  it('a field changed since the client-side apply still conflicts, and only that one is reported', async () => {
    const name = uniqueName('csa-drift');
    await clientSideApplied(name, { a: '1', c: '3' });
    // Someone else changed data.a after the client-side apply.
    expect((await c.patch(`${CM}/${name}?fieldManager=editor`, { data: { a: 'edited' } })).status).toBe(200);
    const r = await apply(name, configMap(name, { a: '2', c: '4' }), 'kubectl');
    expect(r.status).toBe(409);
    expect(statusOf(r).message).toBe('Apply failed with 1 conflict: conflict with "editor" using v1: .data.a');
    expect((await c.get(`${CM}/${name}`)).json.data).toEqual({ a: 'edited', c: '3' });
  });

  it('another manager name gets the conflicts, and no annotation is rewritten', async () => {
    const name = uniqueName('csa-other');
    const before = await clientSideApplied(name, { a: '1' });
    const r = await apply(name, configMap(name, { a: '2' }), 'kubectl-ssa');
    expect(statusOf(r).message).toBe('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.a');
    const ok = await apply(name, configMap(name, { a: '1', b: '2' }), 'kubectl-ssa');
    expect(ok.status).toBe(200);
    expect(ok.json.metadata.annotations[LAST_APPLIED]).toBe(before.metadata.annotations[LAST_APPLIED]);
    expect(managers(ok.json)).toEqual(['kubectl-client-side-apply/Update', 'kubectl-ssa/Apply']);
  });

  it('kubectl applying to an object without the annotation adds none', async () => {
    const name = uniqueName('ssa-only');
    const r = await apply(name, configMap(name, { a: '1' }), 'kubectl');
    expect(r.status).toBe(201);
    expect(r.json.metadata.annotations).toBeUndefined();
  });
});
