// The API server counts the write requests in progress, so a backend with a commit delay gets
// concurrent writes into one commit: here a create held by a webhook joins the commit of a
// create that reached storage first.
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBackend } from '../storage/memory-backend';
import type { CommitBatch, KvBackend } from '../storage/types';
import { startTestServer, type TestClient } from '../testing/api-server';

/** The memory backend with asynchronous commits and a commit delay, recording each commit. */
function delayingBackend(commitDelay: { ms: number; minWriters: number }) {
  const inner = createMemoryBackend();
  const commits: CommitBatch[] = [];
  const backend: KvBackend = {
    ...inner,
    commitDelay,
    async commit(batch) {
      commits.push(batch);
      await inner.commit(batch);
    },
  };
  return { backend, commits };
}

const hooked = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: 'hold' },
  webhooks: [
    {
      name: 'hold.example.com',
      clientConfig: { url: 'https://hooks.test/hold' },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    },
  ],
};

let client: TestClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe('commit delay through the API server', () => {
  it('a write waits for another write request in progress and shares its commit', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let called!: () => void;
    const webhookCalled = new Promise<void>((resolve) => (called = resolve));
    const { backend, commits } = delayingBackend({ ms: 60_000, minWriters: 2 });
    client = await startTestServer({
      backend,
      webhookTransport: async (call) => {
        called();
        await held;
        const review = JSON.parse(call.body);
        return { status: 200, body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true } }) };
      },
    });
    expect((await client.post('/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', hooked)).status).toBe(201);
    const before = commits.length;

    // The ConfigMap create is in progress (its webhook holds it) when the Secret's write is queued.
    const configMap = client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'cm' } });
    await webhookCalled;
    const secret = client.post('/api/v1/namespaces/default/secrets', { metadata: { name: 's' } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(commits.length).toBe(before);

    release();
    expect((await configMap).status).toBe(201);
    expect((await secret).status).toBe(201);
    const shared = commits.slice(before).map((c) => c.puts.map((p) => p.key).sort());
    expect(shared).toEqual([['/core/configmaps/default/cm', '/core/secrets/default/s']]);
  });

  it('a lone write request does not wait', async () => {
    const { backend, commits } = delayingBackend({ ms: 60_000, minWriters: 2 });
    client = await startTestServer({ backend });
    const before = commits.length;
    expect((await client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'a' } })).status).toBe(201);
    expect((await client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'b' } })).status).toBe(201);
    expect(commits.length).toBe(before + 2);
  });
});
