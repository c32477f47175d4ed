// Service-account tokens end to end with the real kubectl over HTTPS: `kubectl create token`
// issues a token signed by the server, and the token then works as `--token`, authorized by RBAC
// as the service account.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './harness';

const KUBECTL = join(REPO_ROOT, '.tools', 'bin', 'kubectl');
let dir = '';
let server: ChildProcess | undefined;
let kubeconfig = '';

function kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(KUBECTL, ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kube-playground-sa-token-'));
  await writeFile(join(dir, 'tokens.csv'), 'admin-token,admin,1,"system:masters"\n');
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
