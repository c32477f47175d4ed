// The root-ca-cert-publisher through the whole core: every namespace's kube-root-ca.crt, put back
// when deleted or edited, and left alone in a namespace that is going away.
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configMap, eventually, startTestServer, type TestClient } from '../../testing/api-server';
import { DESCRIPTION } from './root-ca-publisher';

let c: TestClient;
let pem: string;
beforeAll(async () => {
  c = await startTestServer();
  pem = (await c.get('/api/v1/namespaces/kube-system/configmaps/kube-playground-cluster-ca')).json.data['ca.crt'];
});
afterAll(async () => {
  await c.close();
});

const cmUrl = (ns: string) => `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`;
const createNs = async (name: string) => expect((await c.post('/api/v1/namespaces', { metadata: { name } })).status).toBe(201);
/** Waits until the ConfigMap exists with a resourceVersion other than `not`. */
const republished = (ns: string, not?: string) =>
  eventually(async () => {
    const r = await c.get(cmUrl(ns));
    return r.status === 200 && r.json.metadata.resourceVersion !== not ? r.json : undefined;
  });

describe('root-ca-cert-publisher', () => {
  it('publishes the CA in every initial namespace, as kube-controller-manager writes it', async () => {
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      const r = await c.get(cmUrl(ns));
      expect(r.status, ns).toBe(200);
      expect(r.json.data).toEqual({ 'ca.crt': pem });
      expect(r.json.metadata.annotations).toEqual({ 'kubernetes.io/description': DESCRIPTION });
      expect(r.json.metadata.managedFields).toEqual([
        expect.objectContaining({
          manager: 'kube-controller-manager',
          operation: 'Update',
          apiVersion: 'v1',
          fieldsV1: { 'f:data': { '.': {}, 'f:ca.crt': {} }, 'f:metadata': { 'f:annotations': { '.': {}, 'f:kubernetes.io/description': {} } } },
        }),
      ]);
    }
    expect(new X509Certificate(pem).ca).toBe(true);
  });

  it('the description is kube 1.23\'s text', () => {
    expect(DESCRIPTION).toBe(
      'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.',
    );
  });

  it('a new namespace has it as soon as its create is answered', async () => {
    await createNs('ca-new');
    const r = await c.get('/api/v1/namespaces/ca-new/configmaps');
    expect(r.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['kube-root-ca.crt']);
    expect(r.json.items[0].data['ca.crt']).toBe(pem);
  });

  it('puts it back when it is deleted', async () => {
    await createNs('ca-delete');
    const before = (await c.get(cmUrl('ca-delete'))).json;
    expect((await c.del(cmUrl('ca-delete'))).status).toBe(200);
    const after = await republished('ca-delete', before.metadata.resourceVersion);
    expect(after.metadata.uid).not.toBe(before.metadata.uid);
    expect(after.data).toEqual({ 'ca.crt': pem });
  });

  it('puts the data back when it is edited, keeping other changes; a changed description stays', async () => {
    await createNs('ca-edit');
    const edited = await c.patch(cmUrl('ca-edit'), { metadata: { labels: { mine: 'yes' } }, data: { 'ca.crt': 'not a CA', extra: 'x' } });
    expect(edited.status).toBe(200);
    const fixed = await republished('ca-edit', edited.json.metadata.resourceVersion);
    expect(fixed.data).toEqual({ 'ca.crt': pem });
    expect(fixed.metadata.labels).toEqual({ mine: 'yes' });

    // kube only asks that the annotation be non-empty.
    const reworded = await c.patch(cmUrl('ca-edit'), { metadata: { annotations: { 'kubernetes.io/description': 'mine' } } });
    expect(reworded.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await c.get(cmUrl('ca-edit'))).json.metadata).toMatchObject({ resourceVersion: reworded.json.metadata.resourceVersion, annotations: { 'kubernetes.io/description': 'mine' } });

    // Without the annotation it is written again.
    const stripped = await c.patch(cmUrl('ca-edit'), { metadata: { annotations: null } });
    const back = await republished('ca-edit', stripped.json.metadata.resourceVersion);
    expect(back.metadata.annotations).toEqual({ 'kubernetes.io/description': DESCRIPTION });
  });

  it('is not created again in a Terminating namespace, and the namespace still goes away', async () => {
    await createNs('ca-doomed');
    // A finalizer on another object keeps the namespace Terminating while the publisher could act.
    expect((await c.post('/api/v1/namespaces/ca-doomed/configmaps', configMap('held', {}, { finalizers: ['example.com/hold'] }))).status).toBe(201);
    expect((await c.del('/api/v1/namespaces/ca-doomed')).status).toBe(200);
    await eventually(async () => ((await c.get(cmUrl('ca-doomed'))).status === 404 ? true : undefined));
    // Its delete event made the publisher try a create, which NamespaceLifecycle refused.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await c.get(cmUrl('ca-doomed'))).status).toBe(404);
    expect((await c.get('/api/v1/namespaces/ca-doomed')).json.status.phase).toBe('Terminating');

    expect((await c.patch('/api/v1/namespaces/ca-doomed/configmaps/held', { metadata: { finalizers: null } })).status).toBe(200);
    await eventually(async () => ((await c.get('/api/v1/namespaces/ca-doomed')).status === 404 ? true : undefined), 8000);
    expect((await c.get(cmUrl('ca-doomed'))).status).toBe(404);
  });

  it('a namespace deleted right after its create finishes deleting', async () => {
    await createNs('ca-quick');
    expect((await c.del('/api/v1/namespaces/ca-quick')).status).toBe(200);
    await eventually(async () => ((await c.get('/api/v1/namespaces/ca-quick')).status === 404 ? true : undefined), 8000);
    expect((await c.get('/api/v1/namespaces/ca-quick/configmaps')).json.items).toEqual([]);
  });

  it('a dry-run namespace create publishes nothing', async () => {
    expect((await c.post('/api/v1/namespaces?dryRun=All', { metadata: { name: 'ca-dry' } })).status).toBe(201);
    expect((await c.get(cmUrl('ca-dry'))).status).toBe(404);
  });
});
