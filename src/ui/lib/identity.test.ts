import { describe, expect, it } from 'vitest';
import { describeIdentity, identityFrom, impersonationFlags, impersonationHeaders, loadIdentity, parseGroups, saveIdentity } from './identity';
import { createApiClient } from './api';
import { curlCommand, kubectlCommand } from './commands';

function memoryStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k), size: () => m.size };
}

describe('identity', () => {
  it('parses the form: trimmed comma-separated groups, no user means the admin', () => {
    expect(parseGroups(' dev, ops ,,dev')).toEqual(['dev', 'ops']);
    expect(identityFrom(' alice ', 'dev, ops')).toEqual({ user: 'alice', groups: ['dev', 'ops'] });
    expect(identityFrom('  ', 'dev')).toBeUndefined();
    expect(describeIdentity(undefined)).toBe('admin (system:masters)');
    expect(describeIdentity({ user: 'alice', groups: ['dev'] })).toBe('alice (groups: dev)');
    expect(describeIdentity({ user: 'alice', groups: [] })).toBe('alice');
  });

  it('turns into impersonation headers and the matching kubectl flags', () => {
    expect(impersonationHeaders(undefined)).toEqual({});
    expect(impersonationHeaders({ user: 'alice', groups: [] })).toEqual({ 'Impersonate-User': 'alice' });
    const headers = impersonationHeaders({ user: 'alice', groups: ['dev', 'ops'] });
    expect(headers).toEqual({ 'Impersonate-User': 'alice', 'Impersonate-Group': 'dev, ops' });
    expect(impersonationFlags(headers)).toEqual(['--as=alice', '--as-group=dev', '--as-group=ops']);
    expect(impersonationFlags({ 'impersonate-user': 'system:serviceaccount:default:x' })).toEqual(['--as=system:serviceaccount:default:x']);
    expect(impersonationFlags({ Accept: 'application/json' })).toEqual([]);
  });

  it('shows up in the request console commands', () => {
    const req = { method: 'GET', path: '/api/v1/namespaces/default/configmaps', headers: { Accept: 'application/json', ...impersonationHeaders({ user: 'alice', groups: ['dev team'] }) } };
    expect(kubectlCommand(req).command).toBe("kubectl --as=alice '--as-group=dev team' get --raw /api/v1/namespaces/default/configmaps");
    expect(curlCommand(req, 'http://h')).toBe("curl -sS -H 'Accept: application/json' -H 'Impersonate-User: alice' -H 'Impersonate-Group: dev team' http://h/api/v1/namespaces/default/configmaps");
    expect(kubectlCommand({ method: 'GET', path: '/api' }).command).toBe('kubectl get --raw /api');
  });

  it('is kept for the tab and forgotten on "back to admin"', () => {
    const storage = memoryStorage();
    expect(loadIdentity(storage)).toBeUndefined();
    saveIdentity(storage, { user: 'alice', groups: ['dev'] });
    expect(loadIdentity(storage)).toEqual({ user: 'alice', groups: ['dev'] });
    saveIdentity(storage, undefined);
    expect(loadIdentity(storage)).toBeUndefined();
    expect(storage.size()).toBe(0);
    storage.setItem('kube-playground.identity', '{not json');
    expect(loadIdentity(storage)).toBeUndefined();
  });

  it('rides on every request of an API client made with it', async () => {
    const seen: Array<Record<string, string>> = [];
    const client = createApiClient({
      apiBase: '/',
      headers: impersonationHeaders({ user: 'alice', groups: ['dev'] }),
      fetch: (async (_: RequestInfo | URL, init: RequestInit = {}) => {
        seen.push(init.headers as Record<string, string>);
        return new Response('{"kind":"ConfigMap"}', { headers: { 'Content-Type': 'application/json' } });
      }) as typeof fetch,
    });
    const cms = { group: '', version: 'v1', resource: 'configmaps', namespaced: true };
    await client.get(cms, 'default', 'x');
    await client.create(cms, 'default', { metadata: { name: 'y' } });
    await client.health('readyz');
    expect(seen).toHaveLength(3);
    for (const h of seen) expect(h).toMatchObject({ 'Impersonate-User': 'alice', 'Impersonate-Group': 'dev' });
    expect(seen[1]).toMatchObject({ 'Content-Type': 'application/json', Accept: 'application/json' });
  });
});
