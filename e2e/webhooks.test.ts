// Admission webhooks with the real kubectl: the Node host calls a small HTTPS webhook server run
// by this test (a self-signed certificate made with openssl, sent as the caBundle).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startCluster, type Cluster } from './harness';

const exec = promisify(execFile);

interface WebhookServer {
  url: string;
  caBundle: string;
  close(): Promise<void>;
}

/** Answers AdmissionReviews: /validate denies ConfigMaps labelled reject=yes, /mutate adds a label, /allow allows. */
async function startWebhookServer(dir: string): Promise<WebhookServer> {
  const key = join(dir, 'hook.key');
  const cert = join(dir, 'hook.crt');
  await exec('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=webhook', '-addext', 'subjectAltName=IP:127.0.0.1']);
  const pem = await readFile(cert, 'utf8');
  const server: Server = createServer({ key: await readFile(key, 'utf8'), cert: pem }, (req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => {
      const review = JSON.parse(body);
      const labels = review.request.object?.metadata?.labels ?? {};
      const response: Record<string, unknown> = { uid: review.request.uid, allowed: true };
      const path = (req.url ?? '').split('?')[0];
      if (path === '/validate' && labels.reject === 'yes') {
        Object.assign(response, { allowed: false, status: { code: 403, message: 'configmaps labelled reject=yes are not allowed' } });
      }
      if (path === '/mutate') {
        const patch = review.request.object.metadata.labels ? [{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }] : [{ op: 'add', path: '/metadata/labels', value: { mutated: 'yes' } }];
        Object.assign(response, { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') });
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `https://127.0.0.1:${port}`, caBundle: Buffer.from(pem).toString('base64'), close: () => new Promise((r) => server.close(() => r())) };
}

function configuration(kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration', name: string, hook: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind,
    metadata: { name },
    webhooks: [{ admissionReviewVersions: ['v1'], rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], ...hook }],
  });
}

let cluster: Cluster;
let hooks: WebhookServer;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kube-playground-webhooks-'));
  [cluster, hooks] = await Promise.all([startCluster(), startWebhookServer(dir)]);
}, 60_000);

afterAll(async () => {
  await Promise.all([cluster?.stop(), hooks?.close()]);
  await rm(dir, { recursive: true, force: true });
});

describe('admission webhooks with kubectl', () => {
  it('a validating webhook rejects a labelled ConfigMap', async () => {
    const cc = { url: `${hooks.url}/validate`, caBundle: hooks.caBundle };
    const created = await cluster.kubectl(['apply', '-f', '-'], { stdin: configuration('ValidatingWebhookConfiguration', 'reject', { name: 'reject.example.com', clientConfig: cc, sideEffects: 'None' }) });
    expect(created.stderr).toBe('');
    const plain = await cluster.kubectl(['create', 'configmap', 'plain', '-n', 'default']);
    expect(plain.code).toBe(0);
    const bad = await cluster.kubectl(['create', '-f', '-'], { stdin: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bad2', namespace: 'default', labels: { reject: 'yes' } } }) });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('Error from server: error when creating "STDIN": admission webhook "reject.example.com" denied the request: configmaps labelled reject=yes are not allowed');
    await cluster.kubectl(['delete', 'validatingwebhookconfiguration', 'reject']);
  });

  it('a webhook with side effects cannot be configured in v1; a NoneOnDryRun one lets a server-side dry run through', async () => {
    const cc = { url: `${hooks.url}/allow`, caBundle: hooks.caBundle };
    const some = await cluster.kubectl(['apply', '-f', '-'], { stdin: configuration('ValidatingWebhookConfiguration', 'effects', { name: 'effects.example.com', clientConfig: cc, sideEffects: 'Some' }) });
    expect(some.code).not.toBe(0);
    expect(some.stderr).toContain('webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"');
    await cluster.kubectl(['apply', '-f', '-'], { stdin: configuration('ValidatingWebhookConfiguration', 'effects', { name: 'effects.example.com', clientConfig: cc, sideEffects: 'NoneOnDryRun' }) });
    const dry = await cluster.kubectl(['create', 'configmap', 'dry', '-n', 'default', '--dry-run=server']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('configmap/dry created (server dry run)');
    await cluster.kubectl(['delete', 'validatingwebhookconfiguration', 'effects']);
  });

  it('a mutating webhook adds a label that kubectl get shows', async () => {
    const cc = { url: `${hooks.url}/mutate`, caBundle: hooks.caBundle };
    await cluster.kubectl(['apply', '-f', '-'], { stdin: configuration('MutatingWebhookConfiguration', 'labeller', { name: 'labeller.example.com', clientConfig: cc, sideEffects: 'None' }) });
    const created = await cluster.kubectl(['create', 'configmap', 'mutated', '-n', 'default']);
    expect(created.stderr).toBe('');
    const got = await cluster.kubectl(['get', 'configmap', 'mutated', '-n', 'default', '-o', 'jsonpath={.metadata.labels.mutated}']);
    expect(got.stdout).toBe('yes');
  });
});
