// Browser webhooks end to end in one process: the core API server calls the Service Worker
// transport, which posts to "pages" (plain objects around PageWebhookHandlers) over real
// MessageChannels, exactly the messages the browser would carry.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient } from '../../core/testing/api-server';
import { PageWebhookHandlers, type WebhookHandler } from './page/webhook-handlers';
import { WebhookClientRegistry } from './webhook-registry';
import { createSwWebhookTransport, handleWebhookMessage, type WebhookClient } from './webhook-transport';

const ORIGIN = 'http://127.0.0.1:8080';
const V = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const M = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
const CM = '/api/v1/namespaces/default/configmaps';

/** One open tab: its handlers announce to the worker's registry as the real message listener would. */
class FakeTab implements WebhookClient {
  readonly handlers: PageWebhookHandlers;
  calls = 0;
  constructor(
    readonly id: string,
    registry: WebhookClientRegistry,
    announceToWorker = true,
  ) {
    this.handlers = new PageWebhookHandlers((paths) => {
      if (announceToWorker) handleWebhookMessage(registry, { data: { type: 'webhook-paths', paths }, source: { id } } as { data: unknown });
    });
  }
  postMessage(message: unknown, transfer: Transferable[]): void {
    this.calls++;
    void this.handlers.onMessage(message, transfer[0] as MessagePort);
  }
}

function world(queryTimeoutMs = 100) {
  const registry = new WebhookClientRegistry();
  const open: FakeTab[] = [];
  const fetched: string[] = [];
  const transport = createSwWebhookTransport({
    origin: ORIGIN,
    registry,
    queryTimeoutMs,
    clients: { matchAll: async () => open },
    fetch: async (url, init) => {
      fetched.push(url);
      const review = JSON.parse(String(init.body));
      return new Response(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: false, status: { message: 'remote says no' } } }), { status: 200 });
    },
  });
  const tab = (id: string, announce = true) => {
    const t = new FakeTab(id, registry, announce);
    open.push(t);
    return t;
  };
  const close = (t: FakeTab) => open.splice(open.indexOf(t), 1);
  return { registry, transport, tab, close, fetched };
}

const hook = (name: string, url: string, extra: Record<string, unknown> = {}) => ({
  name,
  clientConfig: { url },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});
const config = (kind: string, name: string, webhooks: unknown[]) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks });
const cm = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels } });

const denyRejectYes: WebhookHandler = (review) =>
  review.request.object?.metadata?.labels?.reject === 'yes' ? { allowed: false, status: { code: 403, message: 'no rejects' } } : { allowed: true, warnings: [`seen by ${review.request.userInfo.username}`] };

let client: TestClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe('Service Worker webhook transport', () => {
  it('forwards a same-origin call to the page serving its path, and the denial reaches the client', async () => {
    const w = world();
    const page = w.tab('tab-1');
    page.handlers.register('/webhooks/deny', denyRejectYes);
    expect(w.registry.paths()).toEqual(['/webhooks/deny']);
    client = await startTestServer({ webhookTransport: w.transport, localWebhookOrigins: [ORIGIN] });
    await client.post(V, config('ValidatingWebhookConfiguration', 'deny', [hook('deny.playground.test', `${ORIGIN}/webhooks/deny`)]));
    const denied = await client.post(CM, cm('bad', { reject: 'yes' }));
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe('admission webhook "deny.playground.test" denied the request: no rejects');
    const ok = await client.post(CM, cm('good'));
    expect(ok.status).toBe(201);
    expect(ok.headers['Warning']).toBe('299 - "seen by kubernetes-admin"');
    expect(page.calls).toBe(2);
  });

  it('applies a mutating handler\'s JSON patch', async () => {
    const w = world();
    w.tab('tab-1').handlers.register('webhooks/label', () => ({ allowed: true, patchType: 'JSONPatch', patch: btoa(JSON.stringify([{ op: 'add', path: '/metadata/labels/team', value: 'blue' }])) }));
    client = await startTestServer({ webhookTransport: w.transport, localWebhookOrigins: [ORIGIN] });
    await client.post(M, config('MutatingWebhookConfiguration', 'label', [hook('label.playground.test', `${ORIGIN}/webhooks/label`)]));
    const res = await client.post(CM, cm('m', { keep: 'me' }));
    expect(res.status).toBe(201);
    expect(res.json.metadata.labels).toEqual({ keep: 'me', team: 'blue' });
  });

  it('fails like a refused connection when no open page serves the path; failurePolicy decides', async () => {
    const w = world();
    const page = w.tab('tab-1');
    const stop = page.handlers.register('/webhooks/deny', denyRejectYes);
    client = await startTestServer({ webhookTransport: w.transport, localWebhookOrigins: [ORIGIN] });
    await client.post(V, config('ValidatingWebhookConfiguration', 'deny', [hook('deny.playground.test', `${ORIGIN}/webhooks/deny`)]));
    await client.post(V, config('ValidatingWebhookConfiguration', 'lenient', [hook('lenient.playground.test', `${ORIGIN}/webhooks/other`, { failurePolicy: 'Ignore' })]));
    stop();
    expect(w.registry.paths()).toEqual([]);
    const res = await client.post(CM, cm('x'));
    expect(res.status).toBe(500);
    expect(res.json.message).toBe('Internal error occurred: failed calling webhook "deny.playground.test": Post "http://127.0.0.1:8080/webhooks/deny?timeout=10s": dial tcp 127.0.0.1:8080: connect: connection refused');
    // The Ignore hook alone lets the request through.
    await client.del(`${V}/deny`);
    expect((await client.post(CM, cm('y'))).status).toBe(201);
  });

  it('lets any open tab serve a path; a closed tab is forgotten', async () => {
    const w = world();
    const first = w.tab('tab-1');
    const second = w.tab('tab-2');
    first.handlers.register('/webhooks/deny', () => ({ allowed: false, status: { message: 'from tab 1' } }));
    second.handlers.register('/webhooks/deny', () => ({ allowed: false, status: { message: 'from tab 2' } }));
    client = await startTestServer({ webhookTransport: w.transport, localWebhookOrigins: [ORIGIN] });
    await client.post(V, config('ValidatingWebhookConfiguration', 'deny', [hook('deny.playground.test', `${ORIGIN}/webhooks/deny`)]));
    expect((await client.post(CM, cm('a'))).json.message).toBe('admission webhook "deny.playground.test" denied the request: from tab 1');
    w.close(first);
    expect((await client.post(CM, cm('b'))).json.message).toBe('admission webhook "deny.playground.test" denied the request: from tab 2');
    expect(w.registry.clientsFor('/webhooks/deny')).toEqual(['tab-2']);
  });

  it('skips a tab that answers it no longer serves the path', async () => {
    const w = world();
    const stale = w.tab('tab-1');
    const live = w.tab('tab-2');
    // The worker believes tab-1 (asked first) serves the path, but tab-1 has no handler: its update is late.
    w.registry.announce('tab-1', ['/webhooks/deny']);
    live.handlers.register('/webhooks/deny', () => ({ allowed: false, status: { message: 'from tab 2' } }));
    expect(w.registry.clientsFor('/webhooks/deny')).toEqual(['tab-1', 'tab-2']);
    client = await startTestServer({ webhookTransport: w.transport, localWebhookOrigins: [ORIGIN] });
    await client.post(V, config('ValidatingWebhookConfiguration', 'deny', [hook('deny.playground.test', `${ORIGIN}/webhooks/deny`)]));
    expect((await client.post(CM, cm('a'))).json.message).toBe('admission webhook "deny.playground.test" denied the request: from tab 2');
    expect(stale.calls).toBe(1);
    expect(w.registry.clientsFor('/webhooks/deny')).toEqual(['tab-2']);
  });

  it('asks the open pages what they serve after a worker restart lost the list', async () => {
    const w = world();
    // The page registered with a previous worker: nothing reached this registry.
    const page = w.tab('tab-1', false);
    page.handlers.register('/webhooks/deny', denyRejectYes);
    expect(w.registry.paths()).toEqual([]);
    client = await startTestServer({ webhookTransport: w.transport, localWebhookOrigins: [ORIGIN] });
    await client.post(V, config('ValidatingWebhookConfiguration', 'deny', [hook('deny.playground.test', `${ORIGIN}/webhooks/deny`)]));
    expect((await client.post(CM, cm('bad', { reject: 'yes' }))).status).toBe(403);
    expect(w.registry.clientsFor('/webhooks/deny')).toEqual(['tab-1']);
  });

  it('answers a thrown handler error as an HTTP 500 and a silent handler with the deadline', async () => {
    const w = world();
    const page = w.tab('tab-1');
    page.handlers.register('/webhooks/throws', () => {
      throw new TypeError('labels is undefined');
    });
    page.handlers.register('/webhooks/silent', () => new Promise(() => undefined));
    client = await startTestServer({ webhookTransport: w.transport, localWebhookOrigins: [ORIGIN] });
    await client.post(V, config('ValidatingWebhookConfiguration', 'throws', [hook('throws.playground.test', `${ORIGIN}/webhooks/throws`)]));
    const thrown = await client.post(CM, cm('a'));
    expect(thrown.status).toBe(500);
    expect(thrown.json.message).toBe('Internal error occurred: failed calling webhook "throws.playground.test": an error on the server ("TypeError: labels is undefined") has prevented the request from succeeding');
    await client.del(`${V}/throws`);
    await client.post(V, config('ValidatingWebhookConfiguration', 'silent', [hook('silent.playground.test', `${ORIGIN}/webhooks/silent`, { timeoutSeconds: 1 })]));
    const slow = await client.post(CM, cm('b'));
    expect(slow.status).toBe(500);
    expect(slow.json.message).toBe('Internal error occurred: failed calling webhook "silent.playground.test": Post "http://127.0.0.1:8080/webhooks/silent?timeout=1s": context deadline exceeded');
  });

  it('posts other origins with fetch, and says why it cannot without it', async () => {
    const w = world();
    client = await startTestServer({ webhookTransport: w.transport, localWebhookOrigins: [ORIGIN] });
    await client.post(V, config('ValidatingWebhookConfiguration', 'remote', [hook('remote.playground.test', 'https://hooks.example.com/check')]));
    expect((await client.post(CM, cm('a'))).json.message).toBe('admission webhook "remote.playground.test" denied the request: remote says no');
    expect(w.fetched).toEqual(['https://hooks.example.com/check?timeout=10s']);
    await client.close();

    const noNetwork = createSwWebhookTransport({ origin: ORIGIN, registry: new WebhookClientRegistry(), clients: { matchAll: async () => [] } });
    await expect(noNetwork({ url: 'https://hooks.example.com/check', body: '{}', timeoutMs: 1000 })).rejects.toThrow('this browser host calls webhooks only on its own origin');
    const refused = createSwWebhookTransport({ origin: ORIGIN, registry: new WebhookClientRegistry(), clients: { matchAll: async () => [] }, fetch: () => Promise.reject(new TypeError('Failed to fetch')) });
    await expect(refused({ url: 'https://hooks.example.com/check', body: '{}', timeoutMs: 1000 })).rejects.toThrow("Failed to fetch (a webhook on another origin must allow this page's origin with CORS)");
    client = undefined;
  });
});

describe('page handlers', () => {
  it('fill in the uid, pass a whole AdmissionReview through, and leave other messages alone', async () => {
    const announced: string[][] = [];
    const handlers = new PageWebhookHandlers((paths) => announced.push(paths));
    const stopA = handlers.register('/a', () => ({ allowed: true }));
    handlers.register('/b', () => ({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'mine', allowed: true } }));
    const body = JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: 'u-1' } });
    expect(await handlers.serve({ type: 'webhook-call', path: '/a', url: `${ORIGIN}/a`, body })).toEqual({ type: 'webhook-answer', status: 200, body: '{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"u-1","allowed":true}}' });
    const b = await handlers.serve({ type: 'webhook-call', path: 'b', url: `${ORIGIN}/b`, body });
    expect(b.type === 'webhook-answer' && JSON.parse(b.body).response.uid).toBe('mine');
    stopA();
    stopA();
    expect(await handlers.serve({ type: 'webhook-call', path: '/a', url: `${ORIGIN}/a`, body })).toEqual({ type: 'webhook-unserved' });
    expect(announced).toEqual([['/a'], ['/a', '/b'], ['/b']]);
    expect(await handlers.onMessage({ type: 'hello' }, undefined)).toBe(false);
  });
});
