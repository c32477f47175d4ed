// Deleting a CRD as kube-apiserver does: marked Terminating with the cleanup finalizer, objects
// deleted afterwards (their own finalizers honoured), creates refused meanwhile, then gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestServer, type TestClient } from '../testing/api-server';
import { createMemoryBackend } from '../storage/memory-backend';

let c: TestClient;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const NAME = 'gizmos.final.example.com';
const GIZMOS = '/apis/final.example.com/v1/namespaces/default/gizmos';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: NAME },
  spec: {
    group: 'final.example.com',
    scope: 'Namespaced',
    names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};
const gizmo = (name: string, finalizers?: string[]) => ({ apiVersion: 'final.example.com/v1', kind: 'Gizmo', metadata: { name, ...(finalizers ? { finalizers } : {}) } });
const terminating = (obj: any) => obj.status.conditions.find((x: any) => x.type === 'Terminating');

beforeAll(async () => {
  c = await startTestServer();
  expect((await c.post(CRDS, crd)).status).toBe(201);
  await eventually(async () => ((await c.get(GIZMOS)).status === 200 ? true : undefined));
  expect((await c.post(GIZMOS, gizmo('free'))).status).toBe(201);
  // A custom resource's finalizer only has to be a qualified name (apimachinery's generic rule).
  expect((await c.post(GIZMOS, gizmo('held', ['hold-on']))).status).toBe(201);
});
afterAll(async () => {
  await c.close();
});

describe('deleting a CRD', () => {
  it('answers 200 with the CRD marked: deletionTimestamp, the cleanup finalizer, Terminating InstanceDeletionPending', async () => {
    const r = await c.del(`${CRDS}/${NAME}`);
    expect(r.status).toBe(200);
    expect(r.json.metadata.deletionTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(r.json.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
    expect(r.json.metadata.generation).toBe(1);
    expect(terminating(r.json)).toMatchObject({ status: 'True', reason: 'InstanceDeletionPending', message: 'CustomResourceDefinition marked for deletion; instance deletion will begin soon' });
  });

  it('keeps serving the objects while it cleans up, but refuses creates', async () => {
    expect((await c.get(`${GIZMOS}/held`)).status).toBe(200);
    const r = await c.post(GIZMOS, gizmo('late'));
    expect(r.status).toBe(405);
    expect(r.json).toMatchObject({ reason: 'MethodNotAllowed', message: 'create not allowed while custom resource definition is terminating', details: { group: 'final.example.com', kind: 'gizmos' } });
  });

  it('deletes the objects; one held by its own finalizer keeps the CRD terminating', async () => {
    await eventually(async () => ((await c.get(`${GIZMOS}/free`)).status === 404 ? true : undefined));
    const held = (await c.get(`${GIZMOS}/held`)).json;
    expect(held.metadata.deletionTimestamp).toBeDefined();
    const got = (await c.get(`${CRDS}/${NAME}`)).json;
    expect(terminating(got)).toMatchObject({ status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' });
  });

  it('once the last object is gone the CRD is removed and its resource no longer served', async () => {
    const released = await c.patch(`${GIZMOS}/held`, { metadata: { finalizers: null } });
    expect(released.status).toBe(200);
    await eventually(async () => ((await c.get(`${CRDS}/${NAME}`)).status === 404 ? true : undefined), 10_000);
    expect((await c.get(GIZMOS)).status).toBe(404);
    expect((await c.post(CRDS, crd)).status).toBe(201);
  });
});

describe('a CRD left terminating by a restart', () => {
  it('resumes its cleanup when the server starts again', async () => {
    const backend = createMemoryBackend();
    const first = await startTestServer({ backend });
    expect((await first.post(CRDS, crd)).status).toBe(201);
    await eventually(async () => ((await first.get(GIZMOS)).status === 200 ? true : undefined));
    expect((await first.post(GIZMOS, gizmo('held', ['hold-on']))).status).toBe(201);
    expect((await first.del(`${CRDS}/${NAME}`)).status).toBe(200);
    await eventually(async () => ((await first.get(`${GIZMOS}/held`)).json?.metadata?.deletionTimestamp ? true : undefined));
    await first.close();

    const second = await startTestServer({ backend });
    try {
      expect((await second.post(GIZMOS, gizmo('late'))).status).toBe(405);
      expect((await second.patch(`${GIZMOS}/held`, { metadata: { finalizers: null } })).status).toBe(200);
      await eventually(async () => ((await second.get(`${CRDS}/${NAME}`)).status === 404 ? true : undefined), 10_000);
    } finally {
      await second.close();
    }
  });
});
