// A webhook's clientConfig.service resolved as kube-apiserver's default (ClusterIP) service
// resolver does, each failure worded as the call's cause: a missing Service, a headless one, a
// port the Service does not have, a cluster IP (nothing listens behind it here), and an
// ExternalName Service dialled by name with the service's DNS name as TLS server name.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient } from '../../testing/api-server';
import type { WebhookCall } from './call';
import { joinHostPort } from './service-resolver';

const V = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const SVC = '/api/v1/namespaces/hooks/services';
const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];
const hook = (service: Record<string, unknown>) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: 'guard' },
  webhooks: [{ name: 'guard.example.com', clientConfig: { service: { namespace: 'hooks', name: 'guard', path: '/check', ...service } }, sideEffects: 'None', admissionReviewVersions: ['v1'], rules }],
});
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
const PREFIX = 'Internal error occurred: failed calling webhook "guard.example.com": Post "https://guard.hooks.svc:443/check?timeout=10s": ';

let c: TestClient | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

async function setUp(transport?: (call: WebhookCall) => Promise<{ status: number; body: string }>): Promise<TestClient> {
  c = await startTestServer(transport ? { webhookTransport: transport } : {});
  await c.post('/api/v1/namespaces', { metadata: { name: 'hooks' } });
  await c.post(V, hook({}));
  return c;
}

const causeOf = async (client: TestClient): Promise<string> => {
  const res = await client.post('/api/v1/namespaces/default/configmaps', cm(`c${Math.random().toString(36).slice(2, 8)}`));
  expect(res.status).toBe(500);
  return res.json.message.startsWith(PREFIX) ? res.json.message.slice(PREFIX.length) : res.json.message;
};

describe('clientConfig.service', () => {
  it('a missing Service: the lister NotFound', async () => {
    expect(await causeOf(await setUp())).toBe('service "guard" not found');
  });

  it('a ClusterIP Service: the connection to its cluster IP is refused (nothing behind it)', async () => {
    const client = await setUp();
    const svc = await client.post(SVC, { metadata: { name: 'guard' }, spec: { ports: [{ port: 443, targetPort: 8443 }] } });
    expect(await causeOf(client)).toBe(`dial tcp ${svc.json.spec.clusterIP}:443: connect: connection refused`);
  });

  it('a Service without the port, and a headless one', async () => {
    const client = await setUp();
    await client.post(SVC, { metadata: { name: 'guard' }, spec: { ports: [{ port: 8443 }] } });
    expect(await causeOf(client)).toBe('no service port 443 found for service "guard"');
    await client.del(`${SVC}/guard`);
    await client.post(SVC, { metadata: { name: 'guard' }, spec: { clusterIP: 'None', ports: [{ port: 443 }] } });
    expect(await causeOf(client)).toBe('cannot route to service with ClusterIP "None"');
  });

  it('an ExternalName Service is dialled by its external name, verified as <name>.<namespace>.svc', async () => {
    const calls: WebhookCall[] = [];
    const client = await setUp(async (call) => {
      calls.push(call);
      const review = JSON.parse(call.body);
      return { status: 200, body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true } }) };
    });
    await client.post(SVC, { metadata: { name: 'guard' }, spec: { type: 'ExternalName', externalName: 'hooks.example.test' } });
    expect((await client.post('/api/v1/namespaces/default/configmaps', cm('ok'))).status).toBe(201);
    expect(calls.map((x) => [x.url, x.serverName])).toEqual([['https://hooks.example.test:443/check?timeout=10s', 'guard.hooks.svc']]);
  });

  it('joins IPv6 hosts in brackets', () => {
    expect(joinHostPort('fd00::1', 443)).toBe('[fd00::1]:443');
    expect(joinHostPort('10.0.0.1', 443)).toBe('10.0.0.1:443');
  });
});
