// Client certificates from the data dir's CA, and what the HTTPS host hands the core for them.
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { connect } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '../../core/api';
import type { ClientCertificate } from '../../core/meta/types';
import { ensureAdminClientCertificate, issueClientCertificate, loadClientCaFile, subjectOf } from './client-cert';
import { startNodeHost, type NodeHost } from './server';
import { ensureServingCerts, type ServingCerts } from './tls';

let dir = '';
let otherDir = '';
let serving: ServingCerts;
let host: NodeHost;

/** A fake core that answers with the clientCertificate the host attached (or `null`). */
const echoApi: ApiServer = {
  handle: async (req) => ({ status: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(req.clientCertificate ?? null) }),
  beginShutdown() {},
  async close() {},
};

function fetchPeer(cert?: { cert: string; key: string }): Promise<ClientCertificate | null> {
  return new Promise((resolve, reject) => {
    const req = request(`${host.url}/`, { ca: serving.caCert, agent: false, ...(cert ?? {}) }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve(JSON.parse(body) as ClientCertificate | null));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kp-client-cert-test-'));
  otherDir = join(dir, 'other');
  serving = await ensureServingCerts(join(dir, 'data'), '127.0.0.1');
  await ensureServingCerts(otherDir, '127.0.0.1');
  host = await startNodeHost({ port: 0, host: '127.0.0.1', api: echoApi, tls: { key: serving.key, cert: serving.cert, ca: serving.caCert } });
}, 30_000);

afterAll(async () => {
  await host?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('subjectOf', () => {
  it('writes one O per group and escapes the separator', () => {
    expect(subjectOf({ user: 'carol', groups: ['devs', 'ops'] })).toBe('/CN=carol/O=devs/O=ops');
    expect(subjectOf({ user: 'a/b', groups: [''] })).toBe('/CN=a\\/b');
  });
});

describe('issueClientCertificate', () => {
  it('signs CN = user, O = groups with clientAuth usage by the data dir CA', async () => {
    const issued = await issueClientCertificate(join(dir, 'data'), { user: 'carol', groups: ['devs', 'ops'] });
    const cert = new X509Certificate(issued.cert);
    expect(cert.subject).toBe('CN=carol\nO=devs\nO=ops');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(cert.verify(new X509Certificate(serving.caCert).publicKey)).toBe(true);
    expect(issued.key).toContain('PRIVATE KEY');
  });
});

describe('ensureAdminClientCertificate', () => {
  it('creates kubernetes-admin in system:masters once and keeps it in the data dir', async () => {
    const first = await ensureAdminClientCertificate(join(dir, 'data'));
    expect(new X509Certificate(first.cert).subject).toBe('CN=kubernetes-admin\nO=system:masters');
    expect((await stat(join(dir, 'data', 'admin.key'))).mode & 0o777).toBe(0o600);
    const again = await ensureAdminClientCertificate(join(dir, 'data'));
    expect(again).toEqual(first);
    expect(await readFile(join(dir, 'data', 'admin.crt'), 'utf8')).toBe(first.cert);
  });
});

describe('the HTTPS host with a client CA', () => {
  it('passes a verified certificate with its subject to the core', async () => {
    const issued = await issueClientCertificate(join(dir, 'data'), { user: 'carol', groups: ['devs', 'ops'] });
    expect(await fetchPeer(issued)).toEqual({ verified: true, commonName: 'carol', organizations: ['devs', 'ops'] });
  });
  it('lets clients without a certificate through without one', async () => {
    expect(await fetchPeer()).toBeNull();
  });
  it('marks a certificate of another CA as not verified', async () => {
    const stranger = await issueClientCertificate(otherDir, { user: 'mallory', groups: ['system:masters'] });
    expect(await fetchPeer(stranger)).toEqual({ verified: false, commonName: 'mallory', organizations: ['system:masters'] });
  });
  it('marks a certificate of our CA that is not for client auth as not verified', async () => {
    // The serving certificate: signed by the same CA, extendedKeyUsage serverAuth only.
    expect(await fetchPeer({ cert: serving.cert, key: serving.key })).toEqual({ verified: false, commonName: 'kube-apiserver', organizations: [] });
  });
  it('passes the certificate with a request whose method Node\'s parser refused (served by the core as it stands)', async () => {
    const issued = await issueClientCertificate(join(dir, 'data'), { user: 'carol', groups: ['devs'] });
    const reply = await new Promise<string>((resolve, reject) => {
      let got = '';
      const socket = connect({ host: '127.0.0.1', port: host.port, ca: serving.caCert, cert: issued.cert, key: issued.key, servername: '127.0.0.1' }, () => socket.write('FOO / HTTP/1.1\r\nHost: x\r\n\r\n'));
      socket.setEncoding('utf8').on('data', (c: string) => (got += c));
      socket.on('end', () => resolve(got));
      socket.on('error', reject);
    });
    expect(reply.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({ verified: true, commonName: 'carol', organizations: ['devs'] });
  });
});

describe('--client-ca-file bundle', () => {
  it('keeps the certificates of a PEM bundle and refuses a file without any', async () => {
    const caPem = serving.caCert;
    const bundle = join(dir, 'bundle.pem');
    await writeFile(bundle, `# comment\n${caPem}`);
    expect(await loadClientCaFile(bundle)).toBe(`${caPem.trim()}\n`);
    const empty = join(dir, 'empty.pem');
    await writeFile(empty, 'nothing here\n');
    await expect(loadClientCaFile(empty)).rejects.toThrow(`unable to load client CA file "${empty}": data does not contain any valid RSA or ECDSA certificates`);
    await expect(loadClientCaFile(join(dir, 'missing.pem'))).rejects.toThrow(`unable to load client CA file "${join(dir, 'missing.pem')}": ENOENT`);
  });
});
