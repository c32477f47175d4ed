// RBAC end to end with the real kubectl over HTTPS: the server is started with --secure-port,
// a static token file and --authorization-mode=RBAC; kubectl trusts the CA from the kubeconfig.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecureServer, type SecureServer } from './secure-server';

let secure: SecureServer;
let kubeconfig = '';
const kubectl = (args: string[], stdin?: string) => secure.kubectl(args, stdin);

beforeAll(async () => {
  secure = await startSecureServer('admin-token,admin,1,"system:masters"\nbob-token,bob,2\n');
  kubeconfig = secure.kubeconfig;
}, 60_000);

afterAll(async () => {
  await secure?.stop();
});

describe('RBAC over HTTPS with kubectl', () => {
  it('writes a kubeconfig with the CA and the admin token', async () => {
    const kc = await readFile(kubeconfig, 'utf8');
    expect(kc).toMatch(/certificate-authority-data: /);
    expect(kc).toContain('token: "admin-token"');
    const r = await kubectl(['get', 'ns', 'default', '-o', 'name']);
    expect(r.stdout.trim()).toBe('namespace/default');
  });

  it('refuses an unknown token with 401', async () => {
    const r = await kubectl(['--token', 'nope', 'get', 'configmaps']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('error: You must be logged in to the server (Unauthorized)');
  });

  it('a token user without bindings is Forbidden with the exact message', async () => {
    const r = await kubectl(['--token', 'bob-token', 'get', 'configmaps']);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe('Error from server (Forbidden): configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "default"');
  });

  it('a RoleBinding to view allows list but not create, and auth can-i agrees', async () => {
    expect((await kubectl(['create', 'rolebinding', 'bob-view', '--clusterrole=view', '--user=bob'])).code).toBe(0);
    const list = await kubectl(['--token', 'bob-token', 'get', 'configmaps']);
    expect(list.code).toBe(0);
    const create = await kubectl(['--token', 'bob-token', 'create', 'configmap', 'c1', '--from-literal=a=1']);
    expect(create.stderr.trim()).toBe('error: failed to create configmap: configmaps is forbidden: User "bob" cannot create resource "configmaps" in API group "" in the namespace "default"');
    expect((await kubectl(['auth', 'can-i', 'list', 'configmaps', '--as', 'bob'])).stdout.trim()).toBe('yes');
    expect((await kubectl(['auth', 'can-i', 'create', 'configmaps', '--as', 'bob'])).stdout.trim()).toBe('no');
    expect((await kubectl(['--token', 'bob-token', 'auth', 'can-i', 'list', 'configmaps'])).stdout.trim()).toBe('yes');
    const rules = await kubectl(['auth', 'can-i', '--list', '--as', 'bob']);
    expect(rules.code).toBe(0);
    const configmaps = rules.stdout.split('\n').find((l) => l.startsWith('configmaps '));
    expect(configmaps).toMatch(/\[get list watch\]/);
  });
});
