// RBAC end to end with the real kubectl over HTTPS: the server is started with --secure-port,
// a static token file and --authorization-mode=RBAC; kubectl trusts the CA from the kubeconfig.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './harness';

const KUBECTL = join(REPO_ROOT, '.tools', 'bin', 'kubectl');
let dir = '';
let server: ChildProcess | undefined;
let kubeconfig = '';

function kubectl(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(KUBECTL, ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    child.stdin?.end(stdin ?? '');
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kube-playground-auth-'));
  await writeFile(join(dir, 'tokens.csv'), 'admin-token,admin,1,"system:masters"\nbob-token,bob,2\n');
  kubeconfig = join(dir, 'kubeconfig');
  server = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/hosts/node/main.ts', '--secure-port', '0', '--data-dir', join(dir, 'data'), '--kubeconfig', kubeconfig, '--authorization-mode=RBAC', '--token-auth-file', join(dir, 'tokens.csv')],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no ready line: ${out}`)), 30_000);
    server!.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      if (out.includes('listening on https://')) {
        clearTimeout(timer);
        resolve();
      }
    });
    server!.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}, 60_000);

afterAll(async () => {
  server?.kill('SIGTERM');
  if (dir) await rm(dir, { recursive: true, force: true });
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
