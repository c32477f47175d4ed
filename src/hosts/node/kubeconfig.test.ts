import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { renderKubeconfig, writeKubeconfig } from './kubeconfig';

describe('kubeconfig', () => {
  it('names cluster, context and user playground and selects the context', () => {
    const kc = parse(renderKubeconfig('http://127.0.0.1:8080'));
    expect(kc).toMatchObject({ apiVersion: 'v1', kind: 'Config', 'current-context': 'playground' });
    expect(kc.clusters).toEqual([{ name: 'playground', cluster: { server: 'http://127.0.0.1:8080' } }]);
    expect(kc.contexts).toEqual([{ name: 'playground', context: { cluster: 'playground', user: 'playground', namespace: 'default' } }]);
    expect(kc.users).toEqual([{ name: 'playground', user: {} }]);
  });

  it('writes the file, creating its directory, readable by the owner only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kc-'));
    try {
      const path = join(dir, 'sub', 'config');
      await writeKubeconfig(path, 'http://[::1]:9');
      expect(parse(await readFile(path, 'utf8')).clusters[0].cluster.server).toBe('http://[::1]:9');
      expect((await stat(path)).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('carries the CA and a bearer token for an HTTPS server', () => {
    const kc = parse(renderKubeconfig('https://127.0.0.1:6443', { caCertPem: 'PEM', token: 't1' }));
    expect(kc.clusters[0].cluster).toEqual({ server: 'https://127.0.0.1:6443', 'certificate-authority-data': Buffer.from('PEM').toString('base64') });
    expect(kc.users).toEqual([{ name: 'playground', user: { token: 't1' } }]);
  });
});
