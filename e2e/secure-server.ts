// The Node host over HTTPS with RBAC and a static token file, for the access-control e2e tests,
// plus a kubectl runner bound to the kubeconfig it writes (CA + first system:masters token).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './harness';

const KUBECTL = join(REPO_ROOT, '.tools', 'bin', 'kubectl');

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface SecureServer {
  dir: string;
  kubeconfig: string;
  /** Runs kubectl with the server's kubeconfig, or with `otherKubeconfig` (another user's credentials). */
  kubectl(args: string[], stdin?: string, otherKubeconfig?: string): Promise<KubectlResult>;
  stop(): Promise<void>;
}

/** `extraArgs`: more `npm run serve` flags (e.g. `--client-ca-file`). */
export async function startSecureServer(tokensCsv: string, extraArgs: string[] = []): Promise<SecureServer> {
  const dir = await mkdtemp(join(tmpdir(), 'kube-playground-secure-'));
  await writeFile(join(dir, 'tokens.csv'), tokensCsv);
  const kubeconfig = join(dir, 'kubeconfig');
  const server: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/hosts/node/main.ts', '--secure-port', '0', '--data-dir', join(dir, 'data'), '--kubeconfig', kubeconfig, '--authorization-mode=RBAC', '--token-auth-file', join(dir, 'tokens.csv'), ...extraArgs],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no ready line: ${out}`)), 30_000);
    server.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      if (out.includes('listening on https://')) {
        clearTimeout(timer);
        resolve();
      }
    });
    server.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    dir,
    kubeconfig,
    kubectl: (args, stdin, otherKubeconfig) =>
      new Promise((resolve) => {
        const child = execFile(KUBECTL, ['--kubeconfig', otherKubeconfig ?? kubeconfig, '--cache-dir', join(dir, 'cache'), ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
          resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
        });
        child.stdin?.end(stdin ?? '');
      }),
    async stop() {
      server.kill('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
