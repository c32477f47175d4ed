// Webhook admission of the subresource writes served as another kind: /scale (UPDATE of an
// autoscaling/v1 Scale), pods/eviction (CREATE of a policy/v1 Eviction) and pods/binding (CREATE
// of a v1 Binding), through the in-process API server with a fake transport.
import { afterEach, describe, expect, it } from 'vitest';
import { JSON_PATCH, startTestServer, startWithStoredState, type TestClient } from '../../testing/api-server';
import type { WebhookCall } from './call';

const seen: any[] = [];
/** A transport answering every review with `response(request, call)`; it records each request. */
function answering(response: (request: any, call: WebhookCall) => Record<string, unknown>) {
  return async (call: WebhookCall) => {
    const review = JSON.parse(call.body);
    seen.push(review.request);
    return { status: 200, body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, ...response(review.request, call) } }) };
  };
}
const patchOf = (ops: unknown[]) => ({ allowed: true, patchType: 'JSONPatch', patch: btoa(JSON.stringify(ops)) });

function config(kind: 'Validating' | 'Mutating', name: string, rule: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: `${kind}WebhookConfiguration`,
    metadata: { name },
    webhooks: [{ name: `${name}.example.com`, clientConfig: { url: `https://hooks.test/${name}` }, sideEffects: 'None', admissionReviewVersions: ['v1'], rules: [rule], ...extra }],
  };
}
const V = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const M = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
const PODS = '/api/v1/namespaces/default/pods';

const deployment = (name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: { replicas: 1, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
});
const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });

let client: TestClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  seen.length = 0;
});

describe('scale subresource', () => {
  const scaleRule = { operations: ['UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments/scale'] };

  it('is admitted as UPDATE of an autoscaling/v1 Scale, with the old Scale', async () => {
    client = await startTestServer({ webhookTransport: answering((req) => (req.object.spec.replicas > 5 ? { allowed: false, status: { message: 'at most 5' } } : { allowed: true })) });
    expect((await client.post(DEPLOY, deployment('d'))).status).toBe(201);
    await client.post(V, config('Validating', 'scale', scaleRule));
    // A hook on the main resource only is not called for the subresource.
    await client.post(V, config('Validating', 'main', { ...scaleRule, resources: ['deployments'] }));
    const ok = await client.patch(`${DEPLOY}/d/scale?fieldManager=scaler`, { spec: { replicas: 3 } });
    expect(ok.status).toBe(200);
    expect(ok.json.spec.replicas).toBe(3);
    expect(seen).toHaveLength(1);
    const req = seen[0];
    expect(req.kind).toEqual({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
    expect(req.resource).toEqual({ group: 'apps', version: 'v1', resource: 'deployments' });
    expect(req.subResource).toBe('scale');
    expect(req.requestKind).toEqual({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
    expect(req.requestResource).toEqual({ group: 'apps', version: 'v1', resource: 'deployments' });
    expect(req.requestSubResource).toBe('scale');
    expect(req.operation).toBe('UPDATE');
    expect(req.name).toBe('d');
    expect(req.object).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'd', namespace: 'default' }, spec: { replicas: 3 } });
    expect(req.oldObject).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 1 } });
    expect(req.options).toEqual({ kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'scaler' });
    const denied = await client.put(`${DEPLOY}/d/scale`, { ...ok.json, spec: { replicas: 9 } });
    expect(denied.status).toBe(400);
    expect(denied.json.message).toBe('admission webhook "scale.example.com" denied the request: at most 5');
    expect((await client.get(`${DEPLOY}/d`)).json.spec.replicas).toBe(3);
  });

  it('takes the replicas of a Scale a mutating webhook patched', async () => {
    client = await startTestServer({ webhookTransport: answering((req) => (req.object.spec.replicas > 4 ? patchOf([{ op: 'replace', path: '/spec/replicas', value: 4 }]) : { allowed: true })) });
    await client.post(DEPLOY, deployment('m'));
    await client.post(M, config('Mutating', 'cap', scaleRule));
    const res = await client.patch(`${DEPLOY}/m/scale`, [{ op: 'replace', path: '/spec/replicas', value: 10 }], JSON_PATCH);
    expect(res.status).toBe(200);
    expect(res.json.spec.replicas).toBe(4);
    expect((await client.get(`${DEPLOY}/m`)).json.spec.replicas).toBe(4);
  });
});

describe('pods/eviction and pods/binding', () => {
  it('admits an eviction as CREATE of a policy/v1 Eviction; a denial keeps the pod', async () => {
    client = await startTestServer({ webhookTransport: answering((req) => (req.object.metadata.labels?.keep ? { allowed: false, status: { code: 403, message: 'keep me' } } : { allowed: true })) });
    await client.post(PODS, pod('a'));
    await client.post(PODS, pod('b'));
    await client.post(V, config('Validating', 'evict', { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/eviction'] }));
    const eviction = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, labels }, deleteOptions: { gracePeriodSeconds: 0 } });
    const denied = await client.post(`${PODS}/a/eviction`, eviction('a', { keep: 'yes' }));
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe('admission webhook "evict.example.com" denied the request: keep me');
    expect((await client.get(`${PODS}/a`)).status).toBe(200);
    expect((await client.post(`${PODS}/b/eviction`, eviction('b'))).status).toBe(201);
    expect((await client.get(`${PODS}/b`)).status).toBe(404);
    const req = seen[1];
    expect(req.kind).toEqual({ group: 'policy', version: 'v1', kind: 'Eviction' });
    expect(req.resource).toEqual({ group: '', version: 'v1', resource: 'pods' });
    expect(req.subResource).toBe('eviction');
    expect(req.requestKind).toEqual({ group: 'policy', version: 'v1', kind: 'Eviction' });
    expect(req.operation).toBe('CREATE');
    expect(req.name).toBe('b');
    expect(req.namespace).toBe('default');
    expect(req.oldObject).toBeNull();
    expect(req.object).toEqual({ kind: 'Eviction', apiVersion: 'policy/v1', metadata: { name: 'b', labels: {}, namespace: 'default', creationTimestamp: null }, deleteOptions: { gracePeriodSeconds: 0 } });
    expect(req.options).toEqual({ kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' });
  });

  it('refuses a dry-run eviction against a webhook with side effects', async () => {
    // v1 refuses sideEffects Some now; a configuration stored by an older release still has it.
    client = await startWithStoredState(
      { webhookTransport: answering(() => ({ allowed: true })) },
      async (c) => {
        await c.post(PODS, pod('p'));
        await c.post(V, config('Validating', 'some', { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/*'] }, { sideEffects: 'None' }));
      },
      (key, value) => (key.includes('validatingwebhookconfigurations') ? value.replace('"sideEffects":"None"', '"sideEffects":"Some"') : value),
    );
    const res = await client.post(`${PODS}/p/eviction?dryRun=All`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p' } });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('admission webhook "some.example.com" does not support dry run');
    expect((await client.get(`${PODS}/p`)).status).toBe(200);
  });

  it('admits a binding as CREATE of a v1 Binding, and binds to the target a webhook set', async () => {
    client = await startTestServer({
      webhookTransport: answering((req, call) => {
        const validating = call.url.includes('/check?');
        if (validating) return req.object.target.name === 'forbidden-node' ? { allowed: false, status: { message: 'no' } } : { allowed: true };
        return req.object.target.name === 'node-a' ? patchOf([{ op: 'replace', path: '/target/name', value: 'node-b' }]) : { allowed: true };
      }),
    });
    await client.post(PODS, pod('p'));
    const rule = { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/binding'] };
    await client.post(M, config('Mutating', 'steer', rule));
    await client.post(V, config('Validating', 'check', rule));
    const binding = (node: string) => ({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { apiVersion: 'v1', kind: 'Node', name: node } });
    const denied = await client.post(`${PODS}/p/binding`, binding('forbidden-node'));
    expect(denied.status).toBe(400);
    expect(denied.json.message).toBe('admission webhook "check.example.com" denied the request: no');
    expect((await client.get(`${PODS}/p`)).json.spec.nodeName).toBeUndefined();
    seen.length = 0;
    expect((await client.post(`${PODS}/p/binding`, binding('node-a'))).status).toBe(201);
    expect((await client.get(`${PODS}/p`)).json.spec.nodeName).toBe('node-b');
    expect(seen.map((r) => [r.kind.kind, r.subResource, r.operation, r.object.target.name])).toEqual([
      ['Binding', 'binding', 'CREATE', 'node-a'],
      ['Binding', 'binding', 'CREATE', 'node-b'],
    ]);
    expect(seen[0].kind).toEqual({ group: '', version: 'v1', kind: 'Binding' });
    // A bound pod stays bound (kube's assignPod conflict).
    const again = await client.post(`${PODS}/p/binding`, binding('node-c'));
    expect(again.status).toBe(409);
    expect(again.json.message).toBe('Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "node-b"');
  });
});

describe('no-op updates', () => {
  const CM = '/api/v1/namespaces/default/configmaps';
  const cmRule = { operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] };

  it('still call the webhooks, with object equal to oldObject, and write nothing', async () => {
    client = await startTestServer({ webhookTransport: answering((req) => (req.object.data?.deny ? { allowed: false } : { allowed: true })) });
    const created = await client.post(CM, { metadata: { name: 'c' }, data: { a: '1' } });
    await client.post(V, config('Validating', 'noop', cmRule));
    const res = await client.patch(`${CM}/c`, { data: { a: '1' } });
    expect(res.status).toBe(200);
    expect(res.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    expect(seen).toHaveLength(1);
    expect(seen[0].operation).toBe('UPDATE');
    expect(seen[0].object).toEqual(seen[0].oldObject);
    // A webhook that denies denies a no-op too.
    await client.post(CM, { metadata: { name: 'd' }, data: { deny: 'x' } });
    const denied = await client.patch(`${CM}/d`, { data: { deny: 'x' } });
    expect(denied.status).toBe(400);
    expect(denied.json.message).toBe('admission webhook "noop.example.com" denied the request without explanation');
  });

  it('store what a mutating webhook changed on a no-op', async () => {
    client = await startTestServer({ webhookTransport: answering((req) => (req.object.metadata.labels?.stamped ? { allowed: true } : patchOf([{ op: 'add', path: '/metadata/labels', value: { stamped: 'yes' } }]))) });
    const created = await client.post(CM, { metadata: { name: 'c' }, data: { a: '1' } });
    await client.post(M, config('Mutating', 'stamp', cmRule));
    const res = await client.patch(`${CM}/c`, { data: { a: '1' } });
    expect(res.status).toBe(200);
    expect(res.json.metadata.labels).toEqual({ stamped: 'yes' });
    expect(res.json.metadata.resourceVersion).not.toBe(created.json.metadata.resourceVersion);
    expect((await client.get(`${CM}/c`)).json.metadata.labels).toEqual({ stamped: 'yes' });
    // Stamped already: the next no-op is admitted and stays a no-op.
    const again = await client.patch(`${CM}/c`, { data: { a: '1' } });
    expect(again.json.metadata.resourceVersion).toBe(res.json.metadata.resourceVersion);
    expect(seen).toHaveLength(2);
  });
});
