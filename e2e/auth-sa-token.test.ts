// Service-account tokens end to end with the real kubectl over HTTPS: `kubectl create token`
// issues a token signed by the server, and the token then works as `--token`, authorized by RBAC
// as the service account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecureServer, type SecureServer } from './secure-server';

let secure: SecureServer;
const kubectl = (args: string[], stdin?: string) => secure.kubectl(args, stdin);

beforeAll(async () => {
  secure = await startSecureServer('admin-token,admin,1,"system:masters"\n');
}, 60_000);

afterAll(async () => {
  await secure?.stop();
});

describe('service account tokens with kubectl', () => {
  it('kubectl create token issues a token that authenticates as the service account', async () => {
    expect((await kubectl(['create', 'serviceaccount', 'robot'])).code).toBe(0);
    const created = await kubectl(['create', 'token', 'robot', '--duration', '20m']);
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    expect(token.split('.')).toHaveLength(3);

    const denied = await kubectl(['--token', token, 'get', 'configmaps']);
    expect(denied.code).not.toBe(0);
    expect(denied.stderr.trim()).toBe('Error from server (Forbidden): configmaps is forbidden: User "system:serviceaccount:default:robot" cannot list resource "configmaps" in API group "" in the namespace "default"');

    expect((await kubectl(['create', 'configmap', 'settings', '--from-literal=a=1'])).code).toBe(0);
    expect((await kubectl(['create', 'rolebinding', 'robot-view', '--clusterrole=view', '--serviceaccount=default:robot'])).code).toBe(0);
    const allowed = await kubectl(['--token', token, 'get', 'configmaps', '-o', 'name']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('configmap/settings');
  });

  it('a token of a deleted service account is Unauthorized', async () => {
    expect((await kubectl(['create', 'serviceaccount', 'temp'])).code).toBe(0);
    const token = (await kubectl(['create', 'token', 'temp'])).stdout.trim();
    expect((await kubectl(['delete', 'serviceaccount', 'temp'])).code).toBe(0);
    const r = await kubectl(['--token', token, 'get', 'configmaps']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('error: You must be logged in to the server (Unauthorized)');
  });
});
