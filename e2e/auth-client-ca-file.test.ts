// --client-ca-file with the real kubectl: client certificates signed by the given CA bundle are
// trusted on the secure port (besides the data dir's own CA); without the flag the same
// certificate is Unauthorized.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueClientCertificate } from '../src/hosts/node/client-cert';
import { renderKubeconfig } from '../src/hosts/node/kubeconfig';
import { caFiles, ensureServingCerts } from '../src/hosts/node/tls';
import { startSecureServer, type SecureServer } from './secure-server';

let work = '';
let otherCa = '';
const servers: SecureServer[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'kube-playground-client-ca-'));
  otherCa = join(work, 'other-ca');
  await ensureServingCerts(otherCa, '127.0.0.1');
}, 60_000);

afterAll(async () => {
  for (const s of servers) await s.stop();
  await rm(work, { recursive: true, force: true });
});

/** A kubeconfig for `secure` whose only credential is a certificate for mallory (system:masters) from the other CA. */
async function strangerKubeconfig(secure: SecureServer): Promise<string> {
  const admin = await readFile(secure.kubeconfig, 'utf8');
  const server = JSON.parse(/server: (".*")/.exec(admin)![1]) as string;
  const caCertPem = await readFile(join(secure.dir, 'data', 'ca.crt'), 'utf8');
  const cert = await issueClientCertificate(otherCa, { user: 'mallory', groups: ['system:masters'] });
  const path = join(secure.dir, 'stranger.kubeconfig');
  await writeFile(path, renderKubeconfig(server, { caCertPem, clientCert: cert }), { mode: 0o600 });
  return path;
}

describe('--client-ca-file', () => {
  it('trusts client certificates of the given CA; the data dir CA stays trusted', async () => {
    const secure = await startSecureServer('', ['--client-ca-file', caFiles(otherCa).cert]);
    servers.push(secure);
    const r = await secure.kubectl(['get', 'configmaps', '-n', 'kube-system', '-o', 'name'], undefined, await strangerKubeconfig(secure));
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('configmap/kube-root-ca.crt');
    // The written kubeconfig's kubernetes-admin certificate (data dir CA) still works.
    expect((await secure.kubectl(['get', 'ns', 'default', '-o', 'name'])).stdout).toBe('namespace/default\n');
  }, 60_000);

  it('without it the same certificate is Unauthorized', async () => {
    const secure = await startSecureServer('');
    servers.push(secure);
    const r = await secure.kubectl(['get', 'configmaps'], undefined, await strangerKubeconfig(secure));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('the server has asked for the client to provide credentials');
  }, 60_000);
});
