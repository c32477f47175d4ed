import { X509Certificate } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient } from '../testing/api-server';
import { createMemoryBackend } from '../storage/memory-backend';
import { CLUSTER_CA_CONFIGMAP } from './cluster-ca';
import { createSelfSignedCa } from './self-signed-ca';

const CA_URL = `/api/v1/namespaces/kube-system/configmaps/${CLUSTER_CA_CONFIGMAP}`;
const published = async (c: TestClient, ns = 'default') => (await c.get(`/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`)).json.data['ca.crt'] as string;

describe('cluster CA', () => {
  const open: TestClient[] = [];
  const start = async (...args: Parameters<typeof startTestServer>) => {
    const c = await startTestServer(...args);
    open.push(c);
    return c;
  };
  afterEach(async () => {
    for (const c of open.splice(0)) await c.close();
  });

  it('is made once, self-signed with CN=kubernetes, and kept in a kube-system ConfigMap (no key stored)', async () => {
    const c = await start();
    const stored = await c.get(CA_URL);
    expect(stored.status).toBe(200);
    expect(Object.keys(stored.json.data)).toEqual(['ca.crt']);
    const pem: string = stored.json.data['ca.crt'];
    const cert = new X509Certificate(pem);
    expect(cert.subject).toBe('CN=kubernetes');
    expect(cert.ca).toBe(true);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(await published(c)).toBe(pem);
    // The private key is dropped after signing: no Secret or ConfigMap anywhere holds one.
    const secrets = (await c.get('/api/v1/secrets')).json.items as Array<{ data?: Record<string, string> }>;
    const decoded = secrets.flatMap((s) => Object.values(s.data ?? {}).map((v) => Buffer.from(v, 'base64').toString('latin1')));
    const configMaps = (await c.get('/api/v1/configmaps')).json.items as Array<{ data?: Record<string, string> }>;
    expect([...decoded, ...configMaps.flatMap((m) => Object.values(m.data ?? {}))].join('\n')).not.toContain('PRIVATE KEY');
  });

  it('survives a restart over the same storage, writing nothing', async () => {
    const backend = createMemoryBackend();
    const first = await start({ backend });
    const before = (await first.get(CA_URL)).json;
    const publishedBefore = (await first.get('/api/v1/namespaces/default/configmaps/kube-root-ca.crt')).json;
    await first.close();
    open.splice(0);
    const second = await start({ backend });
    const after = (await second.get(CA_URL)).json;
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(after.data['ca.crt']).toBe(before.data['ca.crt']);
    expect(await published(second, 'kube-public')).toBe(before.data['ca.crt']);
    const publishedAfter = (await second.get('/api/v1/namespaces/default/configmaps/kube-root-ca.crt')).json;
    expect(publishedAfter.metadata.resourceVersion).toBe(publishedBefore.metadata.resourceVersion);
  });

  it('is replaced by a new one when the stored text is not a certificate', async () => {
    const backend = createMemoryBackend();
    const first = await start({ backend });
    const old = (await first.get(CA_URL)).json.data['ca.crt'];
    expect((await first.patch(CA_URL, { data: { 'ca.crt': 'garbage' } })).status).toBe(200);
    await first.close();
    open.splice(0);
    const second = await start({ backend });
    const pem = (await second.get(CA_URL)).json.data['ca.crt'];
    expect(pem).not.toBe(old);
    expect(new X509Certificate(pem).subject).toBe('CN=kubernetes');
    expect(await published(second)).toBe(pem);
  });

  it('is the host\'s CA when the host passes one, and then nothing is stored', async () => {
    const hostCa = await createSelfSignedCa({ commonName: 'host-ca' });
    const c = await start({ clusterCaCert: hostCa });
    expect((await c.get(CA_URL)).status).toBe(404);
    expect(await published(c)).toBe(hostCa);
  });
});
