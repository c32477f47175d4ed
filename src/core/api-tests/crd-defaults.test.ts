// Structural defaulting of custom objects through the whole core: every kind of write (create,
// update, merge and JSON patch, apply, a mutating webhook's patch) ends with the schema's defaults
// in place, before validation, and non-nullable nulls without a default are dropped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_PATCH, eventually, startTestServer, type TestClient } from '../testing/api-server';

let c: TestClient;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GADGETS = '/apis/example.com/v1/namespaces/default/gadgets';
const APPLY = 'application/apply-patch+yaml';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  replicas: { type: 'integer', minimum: 0, default: 1 },
                  mode: { type: 'string', enum: ['auto', 'manual'], default: 'auto' },
                  tags: { type: 'array', items: { type: 'string' } },
                  ports: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, protocol: { type: 'string', default: 'TCP' } } } },
                },
              },
            },
          },
        },
      },
    ],
  },
};

const gadget = (name: string, spec: Record<string, unknown> = {}) => ({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name }, spec });

beforeAll(async () => {
  c = await startTestServer();
  expect((await c.post(CRDS, crd)).status).toBe(201);
  await eventually(async () => ((await c.get(GADGETS)).status === 200 ? true : undefined));
});
afterAll(async () => {
  await c.close();
});

describe('custom object defaulting', () => {
  it('create fills missing fields, list items included, and the creator owns them', async () => {
    const r = await c.post(`${GADGETS}?fieldManager=maker`, gadget('g1', { ports: [{ name: 'http' }] }));
    expect(r.status).toBe(201);
    expect(r.json.spec).toEqual({ replicas: 1, mode: 'auto', ports: [{ name: 'http', protocol: 'TCP' }] });
    expect((await c.get(`${GADGETS}/g1`)).json.spec.replicas).toBe(1);
    const owned = r.json.metadata.managedFields.find((e: { manager: string }) => e.manager === 'maker').fieldsV1['f:spec'];
    expect(Object.keys(owned)).toEqual(expect.arrayContaining(['f:replicas', 'f:mode']));
  });

  it('a non-nullable null is dropped, or replaced by its default, instead of failing validation', async () => {
    const r = await c.post(GADGETS, gadget('g2', { tags: null, replicas: null }));
    expect(r.status).toBe(201);
    expect(r.json.spec).toEqual({ replicas: 1, mode: 'auto' });
  });

  it('update, merge patch and JSON patch that remove a defaulted field get the default back', async () => {
    const live = (await c.post(GADGETS, gadget('g3', { replicas: 4, mode: 'manual' }))).json;
    const put = await c.put(`${GADGETS}/g3`, { ...live, spec: { replicas: 5 } });
    expect(put.json.spec).toEqual({ replicas: 5, mode: 'auto' });
    const merged = await c.patch(`${GADGETS}/g3`, { spec: { replicas: null } });
    expect(merged.json.spec).toEqual({ replicas: 1, mode: 'auto' });
    const jp = await c.patch(`${GADGETS}/g3`, [{ op: 'remove', path: '/spec/mode' }], JSON_PATCH);
    expect(jp.json.spec).toEqual({ replicas: 1, mode: 'auto' });
  });

  it('a patch cannot add a field the schema does not have: it is pruned, with a warning', async () => {
    await c.post(GADGETS, gadget('g6'));
    const r = await c.patch(`${GADGETS}/g6`, { spec: { bogus: 1, replicas: 2 } });
    expect(r.status).toBe(200);
    expect(r.headers['Warning']).toBe('299 - "unknown field \\"spec.bogus\\""');
    expect((await c.get(`${GADGETS}/g6`)).json.spec).toEqual({ replicas: 2, mode: 'auto' });
  });

  it('apply gets the defaults but does not own them', async () => {
    const r = await c.patch(`${GADGETS}/g4?fieldManager=applier`, gadget('g4', { tags: ['a'] }), APPLY);
    expect(r.status).toBe(201);
    expect(r.json.spec).toEqual({ replicas: 1, mode: 'auto', tags: ['a'] });
    const entry = r.json.metadata.managedFields.find((e: { manager: string }) => e.manager === 'applier');
    expect(entry.fieldsV1).toEqual({ 'f:spec': { 'f:tags': {} } });
  });

  it('defaults come before validation: a default is never reported missing, a set value is still checked', async () => {
    const bad = await c.post(GADGETS, gadget('g5', { replicas: -1 }));
    expect(bad.status).toBe(422);
    expect(bad.json.message).toContain('spec.replicas in body should be greater than or equal to 0');
  });
});

describe('custom object defaulting after a mutating webhook', () => {
  it('defaults what the webhook patch removed, on create and on update', async () => {
    // The webhook removes spec.mode from every Gadget it sees.
    const removeMode = btoa(JSON.stringify([{ op: 'remove', path: '/spec/mode' }]));
    const hooked = await startTestServer({
      webhookTransport: async (call) => {
        const review = JSON.parse(call.body);
        const response = { uid: review.request.uid, allowed: true, patchType: 'JSONPatch', patch: removeMode };
        return { status: 200, body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }) };
      },
    });
    try {
      expect((await hooked.post(CRDS, crd)).status).toBe(201);
      await eventually(async () => ((await hooked.get(GADGETS)).status === 200 ? true : undefined));
      const webhook = {
        name: 'strip.example.com',
        clientConfig: { url: 'https://hooks.test/strip' },
        rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['gadgets'] }],
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      };
      const config = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'strip' }, webhooks: [webhook] };
      expect((await hooked.post('/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', config)).status).toBe(201);
      const created = await hooked.post(GADGETS, gadget('w1', { mode: 'manual' }));
      expect(created.status).toBe(201);
      expect(created.json.spec).toEqual({ replicas: 1, mode: 'auto' });
      const updated = await hooked.patch(`${GADGETS}/w1`, { spec: { mode: 'manual', replicas: 2 } });
      expect(updated.status).toBe(200);
      expect(updated.json.spec).toEqual({ replicas: 2, mode: 'auto' });
    } finally {
      await hooked.close();
    }
  });
});
