// Webhook matching through the API: matchPolicy, DELETE reviews, Namespace objects, clientConfig
// without a reachable URL, and warnings on a rejection.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient } from '../../testing/api-server';
import type { WebhookCall } from './call';

const seen: any[] = [];
function answering(response: (review: any) => any) {
  return async (call: WebhookCall) => {
    const review = JSON.parse(call.body);
    seen.push(review.request);
    return { status: 200, body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, ...response(review) } }) };
  };
}

const config = (name: string, hook: Record<string, unknown>) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name },
  webhooks: [{ name: `${name}.example.com`, clientConfig: { url: 'https://hooks.test/' }, sideEffects: 'None', admissionReviewVersions: ['v1'], ...hook }],
});
const V = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const pdb = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'b' }, spec: { minAvailable: 1, selector: { matchLabels: { a: 'b' } } } };

let client: TestClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  seen.length = 0;
});

describe('matchPolicy', () => {
  it('Equivalent calls a hook for another served version, with the object converted', async () => {
    client = await startTestServer({ webhookTransport: answering(() => ({ allowed: true })) });
    const rules = [{ operations: ['CREATE'], apiGroups: ['policy'], apiVersions: ['v1beta1'], resources: ['poddisruptionbudgets'] }];
    await client.post(V, config('eq', { rules }));
    await client.post(V, config('exact', { rules, matchPolicy: 'Exact' }));
    expect((await client.post('/apis/policy/v1/namespaces/default/poddisruptionbudgets', pdb)).status).toBe(201);
    expect(seen).toHaveLength(1);
    expect(seen[0].kind).toEqual({ group: 'policy', version: 'v1beta1', kind: 'PodDisruptionBudget' });
    expect(seen[0].requestKind).toEqual({ group: 'policy', version: 'v1', kind: 'PodDisruptionBudget' });
    expect(seen[0].requestResource).toEqual({ group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' });
    expect(seen[0].object.apiVersion).toBe('policy/v1beta1');
  });
});

describe('reviews', () => {
  it('DELETE sends the old object and DeleteOptions; a denial keeps the request warnings', async () => {
    client = await startTestServer({ webhookTransport: answering(() => ({ allowed: false, warnings: ['think again'], status: { message: 'kept' } })) });
    await client.post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
    await client.post(V, config('del', { rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], scope: 'Namespaced' }] }));
    const res = await client.del('/api/v1/namespaces/default/configmaps/c?gracePeriodSeconds=0');
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('admission webhook "del.example.com" denied the request: kept');
    expect(res.headers['Warning']).toBe('299 - "think again"');
    expect(seen[0].operation).toBe('DELETE');
    expect(seen[0].object).toBeNull();
    expect(seen[0].oldObject.metadata.name).toBe('c');
    expect(seen[0].options).toEqual({ kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', gracePeriodSeconds: 0 });
    expect((await client.get('/api/v1/namespaces/default/configmaps/c')).status).toBe(200);
  });

  it('selects Namespace objects by their own labels', async () => {
    client = await startTestServer({ webhookTransport: answering(() => ({ allowed: false })) });
    await client.post(V, config('ns', { rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'] }], namespaceSelector: { matchLabels: { guarded: 'yes' } } }));
    expect((await client.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'free' } })).status).toBe(201);
    const res = await client.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'held', labels: { guarded: 'yes' } } });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('admission webhook "ns.example.com" denied the request without explanation');
  });

  it('fails a service clientConfig or a missing transport per failurePolicy', async () => {
    client = await startTestServer();
    const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];
    await client.post(V, config('svc', { rules, clientConfig: { service: { namespace: 'hooks', name: 'guard', path: '/check' } } }));
    const res = await client.post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
    expect(res.status).toBe(500);
    expect(res.json.reason).toBe('InternalError');
    expect(res.json.message).toBe('Internal error occurred: failed calling webhook "svc.example.com": Post "https://guard.hooks.svc:443/check?timeout=10s": service "guard" not found');
    await client.patch(`${V}/svc`, { webhooks: [{ name: 'svc.example.com', failurePolicy: 'Ignore', clientConfig: { url: 'https://x.test/' }, sideEffects: 'None', admissionReviewVersions: ['v1'], rules }] });
    expect((await client.post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } })).status).toBe(201);
  });
});

describe('configuration defaults', () => {
  it('stores the v1 defaults', async () => {
    client = await startTestServer();
    const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];
    const res = await client.post('/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', { ...config('d', { rules, clientConfig: { service: { namespace: 'n', name: 's' } } }), kind: 'MutatingWebhookConfiguration' });
    expect(res.status).toBe(201);
    expect(res.json.webhooks[0]).toEqual({
      name: 'd.example.com',
      clientConfig: { service: { namespace: 'n', name: 's', port: 443 } },
      rules: [{ ...rules[0], scope: '*' }],
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      sideEffects: 'None',
      timeoutSeconds: 10,
      admissionReviewVersions: ['v1'],
      reinvocationPolicy: 'Never',
    });
    expect(Object.keys(res.json.webhooks[0])).toEqual(['name', 'clientConfig', 'rules', 'failurePolicy', 'matchPolicy', 'namespaceSelector', 'objectSelector', 'sideEffects', 'timeoutSeconds', 'admissionReviewVersions', 'reinvocationPolicy']);
  });
});
