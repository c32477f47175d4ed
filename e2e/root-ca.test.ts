// The root-ca-cert-publisher as kubectl sees it: a new namespace lists kube-root-ca.crt, whose
// ca.crt is the cluster's CA — self-made over plain HTTP, the serving CA with --secure-port.
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, eventually, kubectlOk, startCluster } from './harness';
import { startSecureServer, type SecureServer } from './secure-server';

describe('kube-root-ca.crt with kubectl', () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await startCluster();
  });
  afterAll(async () => {
    await c?.stop();
  });

  it('is listed in a new namespace and holds a self-signed CA (CN=kubernetes)', async () => {
    await kubectlOk(c, ['create', 'namespace', 'rca-e2e']);
    const out = await eventually(async () => {
      const r = (await kubectlOk(c, ['get', 'cm', '-n', 'rca-e2e'])).stdout;
      expect(r).toMatch(/^kube-root-ca\.crt\s+1\s+\S+$/m);
      return r;
    });
    expect(out).toMatch(/^NAME\s+DATA\s+AGE$/m);
    const pem = (await kubectlOk(c, ['get', 'cm', 'kube-root-ca.crt', '-n', 'rca-e2e', '-o', 'jsonpath={.data.ca\\.crt}'])).stdout;
    const cert = new X509Certificate(pem);
    expect(cert.subject).toBe('CN=kubernetes');
    expect(cert.ca).toBe(true);
    expect(cert.verify(cert.publicKey)).toBe(true);
    const description = (await kubectlOk(c, ['get', 'cm', 'kube-root-ca.crt', '-n', 'rca-e2e', '-o', 'jsonpath={.metadata.annotations.kubernetes\\.io/description}'])).stdout;
    expect(description).toMatch(/^Contains a CA bundle that can be used to verify the kube-apiserver/);
  });

  it('comes back after kubectl delete', async () => {
    await kubectlOk(c, ['delete', 'cm', 'kube-root-ca.crt', '-n', 'default']);
    await eventually(async () => {
      expect((await kubectlOk(c, ['get', 'cm', '-n', 'default', '-o', 'name'])).stdout).toContain('configmap/kube-root-ca.crt');
    });
  });
});

describe('kube-root-ca.crt with --secure-port', () => {
  let secure: SecureServer;
  beforeAll(async () => {
    secure = await startSecureServer('admin-token,admin,1,"system:masters"\n');
  });
  afterAll(async () => {
    await secure?.stop();
  });

  it('publishes the CA that signed the serving certificate', async () => {
    const r = await secure.kubectl(['get', 'cm', 'kube-root-ca.crt', '-n', 'kube-public', '-o', 'jsonpath={.data.ca\\.crt}']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(await readFile(join(secure.dir, 'data', 'ca.crt'), 'utf8'));
  });
});
