// --controllers as kube-controller-manager reads it, and what switching a controller off changes.
import { describe, expect, it } from 'vitest';
import { parseControllers } from './controllers-flag';
import { StartupError } from '../server/runtime-config';
import { configMap, startTestServer } from '../testing/api-server';

describe('parseControllers', () => {
  it('`*` runs every controller on by default; -name switches one off; the first mention wins', () => {
    const all = parseControllers();
    expect(all('serviceaccount-token')).toBe(true);
    expect(all('tokencleaner')).toBe(false);
    const some = parseControllers('*,-serviceaccount-token,tokencleaner');
    expect(some('serviceaccount-token')).toBe(false);
    expect(some('namespace')).toBe(true);
    expect(some('tokencleaner')).toBe(true);
    expect(parseControllers('-namespace,namespace')('namespace')).toBe(false);
    // Without `*` only the named ones run.
    const only = parseControllers('namespace');
    expect([only('namespace'), only('garbagecollector')]).toEqual([true, false]);
  });

  it('an unknown name fails start-up as kube-controller-manager validation words it', () => {
    expect(() => parseControllers('*,-nope,bogus')).toThrow(new StartupError('"nope" is not in the list of known controllers, "bogus" is not in the list of known controllers'));
  });
});

describe('controllers switched off', () => {
  const tokenSecrets = async (c: Awaited<ReturnType<typeof startTestServer>>) =>
    ((await c.get('/api/v1/namespaces/default/secrets')).json.items as any[]).filter((s) => s.type === 'kubernetes.io/service-account-token').map((s) => s.metadata.name);

  it('-serviceaccount-token: no default-token Secrets', async () => {
    const on = await startTestServer();
    const off = await startTestServer({ controllers: '*,-serviceaccount-token' });
    try {
      expect((await tokenSecrets(on)).some((n) => n.startsWith('default-token-'))).toBe(true);
      expect(await tokenSecrets(off)).toEqual([]);
    } finally {
      await on.close();
      await off.close();
    }
  });

  it('-root-ca-cert-publisher: no kube-root-ca.crt; -namespace: a deleted namespace stays Terminating', async () => {
    const c = await startTestServer({ controllers: '*,-root-ca-cert-publisher,-namespace' });
    try {
      expect((await c.get('/api/v1/namespaces/default/configmaps/kube-root-ca.crt')).status).toBe(404);
      await c.post('/api/v1/namespaces', { metadata: { name: 'stays' } });
      await c.post('/api/v1/namespaces/stays/configmaps', configMap('kept'));
      await c.del('/api/v1/namespaces/stays');
      await c.api.namespacesSettled!();
      expect((await c.get('/api/v1/namespaces/stays')).json.status.phase).toBe('Terminating');
      expect((await c.get('/api/v1/namespaces/stays/configmaps/kept')).status).toBe(200);
    } finally {
      await c.close();
    }
  });

  it('an unknown controller fails start-up', async () => {
    await expect(startTestServer({ controllers: 'nope' })).rejects.toThrow('"nope" is not in the list of known controllers');
  });
});
