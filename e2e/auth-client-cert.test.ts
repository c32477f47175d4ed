// x509 client certificates end to end with the real kubectl over HTTPS: the server is started
// with --secure-port, RBAC and an empty token file, so the kubeconfig's admin is kubeadm's
// `kubernetes-admin` client certificate (O = system:masters); carol gets a certificate for group
// `devs` from the same CA, and a certificate from another CA is refused.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueClientCertificate } from '../src/hosts/node/client-cert';
import { renderKubeconfig } from '../src/hosts/node/kubeconfig';
import { ensureServingCerts } from '../src/hosts/node/tls';
import { startSecureServer, type SecureServer } from './secure-server';

let secure: SecureServer;
let carolKubeconfig = '';
let strangerKubeconfig = '';
const kubectl = (args: string[], stdin?: string) => secure.kubectl(args, stdin);

/** A kubeconfig for the same server and CA, with a client certificate as the only credential. */
async function kubeconfigWithCert(name: string, cert: { cert: string; key: string }): Promise<string> {
  const admin = await readFile(secure.kubeconfig, 'utf8');
  const server = JSON.parse(/server: (".*")/.exec(admin)![1]) as string;
  const caCertPem = await readFile(join(secure.dir, 'data', 'ca.crt'), 'utf8');
  const path = join(secure.dir, `${name}.kubeconfig`);
  await writeFile(path, renderKubeconfig(server, { caCertPem, clientCert: cert }), { mode: 0o600 });
  return path;
}

beforeAll(async () => {
  secure = await startSecureServer('');
  carolKubeconfig = await kubeconfigWithCert('carol', await issueClientCertificate(join(secure.dir, 'data'), { user: 'carol', groups: ['devs'] }));
  const otherCa = join(secure.dir, 'other-ca');
  await ensureServingCerts(otherCa, '127.0.0.1');
  strangerKubeconfig = await kubeconfigWithCert('stranger', await issueClientCertificate(otherCa, { user: 'mallory', groups: ['system:masters'] }));
}, 60_000);

afterAll(async () => {
  await secure?.stop();
});

describe('client certificates with kubectl', () => {
  it('the written kubeconfig authenticates as kubernetes-admin in system:masters', async () => {
    const kc = await readFile(secure.kubeconfig, 'utf8');
    expect(kc).toMatch(/client-certificate-data: /);
    expect(kc).not.toMatch(/token:/);
    const r = await kubectl(['auth', 'whoami']);
    expect(r.stdout.split('\n').map((l) => l.trim())).toEqual(['ATTRIBUTE   VALUE', 'Username    kubernetes-admin', 'Groups      [system:masters system:authenticated]', '']);
  });

  it('CN is the user and O the groups', async () => {
    // v1.23's bootstrap policy has no rule for selfsubjectreviews (kubectl auth whoami): grant it to the group.
    expect((await kubectl(['create', 'clusterrole', 'whoami', '--verb=create', '--resource=selfsubjectreviews.authentication.k8s.io'])).code).toBe(0);
    expect((await kubectl(['create', 'clusterrolebinding', 'devs-whoami', '--clusterrole=whoami', '--group=devs'])).code).toBe(0);
    const r = await secure.kubectl(['auth', 'whoami'], undefined, carolKubeconfig);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Username    carol');
    expect(r.stdout).toContain('Groups      [devs system:authenticated]');
  });

  it('carol without bindings is Forbidden; a RoleBinding of her group to view lets her list but not create', async () => {
    const denied = await secure.kubectl(['get', 'configmaps'], undefined, carolKubeconfig);
    expect(denied.code).not.toBe(0);
    expect(denied.stderr.trim()).toBe('Error from server (Forbidden): configmaps is forbidden: User "carol" cannot list resource "configmaps" in API group "" in the namespace "default"');

    expect((await kubectl(['create', 'configmap', 'settings', '--from-literal=a=1'])).code).toBe(0);
    expect((await kubectl(['create', 'rolebinding', 'devs-view', '--clusterrole=view', '--group=devs'])).code).toBe(0);
    const list = await secure.kubectl(['get', 'configmaps', '-o', 'name'], undefined, carolKubeconfig);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('configmap/settings');
    const create = await secure.kubectl(['create', 'configmap', 'c1', '--from-literal=a=1'], undefined, carolKubeconfig);
    expect(create.code).not.toBe(0);
    expect(create.stderr.trim()).toBe('error: failed to create configmap: configmaps is forbidden: User "carol" cannot create resource "configmaps" in API group "" in the namespace "default"');
  });

  it('a certificate signed by another CA is Unauthorized', async () => {
    const r = await secure.kubectl(['get', 'configmaps'], undefined, strangerKubeconfig);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('error: You must be logged in to the server (Unauthorized)');
  });
});
