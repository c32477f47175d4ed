// Starts the Node host the way `npm run serve` does (a child process on a free port) and runs
// the real kubectl/helm binaries from .tools/bin against it with a throwaway kubeconfig, cache
// dir and HOME, so the tests never touch the developer's own cluster config.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURES = join(REPO_ROOT, 'e2e', 'fixtures');
const BIN = join(REPO_ROOT, '.tools', 'bin');
const READY_LINE = /^kube-playground API listening on (http:\/\/\S+) \(kubeconfig: (.+)\)$/m;

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  stdin?: string;
  /** Kill the client after this long (default 60 s) so a server bug cannot hang the suite. */
  timeoutMs?: number;
}

export interface Cluster {
  url: string;
  kubeconfig: string;
  dir: string;
  kubectl(args: string[], opts?: RunOptions): Promise<RunResult>;
  helm(args: string[], opts?: RunOptions): Promise<RunResult>;
  /** Path of a file in e2e/fixtures. */
  fixture(name: string): string;
  stop(): Promise<void>;
}

export function run(bin: string, args: string[], env: NodeJS.ProcessEnv, opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(bin, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => {
      stderr += `\n[harness] killed after ${opts.timeoutMs ?? 60_000} ms`;
      child.kill('SIGKILL');
    }, opts.timeoutMs ?? 60_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
    // A client that exits without reading its input (most kubectl commands) closes the pipe
    // first: EPIPE on stdin is its business, not a failure of the run.
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.stdin ?? '');
  });
}

function waitForReadyLine(child: ChildProcess): Promise<{ url: string; kubeconfig: string }> {
  return new Promise((resolvePromise, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error('server did not print its ready line within 30 s')), 30_000);
    const fail = (e: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${e.message}\nstdout: ${out}\nstderr: ${err}`));
    };
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = READY_LINE.exec(out);
      if (m) {
        clearTimeout(timer);
        resolvePromise({ url: m[1], kubeconfig: m[2] });
      }
    });
    child.once('exit', (code) => fail(new Error(`server exited early with code ${code}`)));
  });
}

/** Starts a fresh server (empty store) and returns client runners bound to it. */
/**
 * Runs another client binary of .tools/bin (`kubectl-1.23`) against the cluster, with the same
 * throwaway HOME and kubeconfig and a cache dir of its own; `env` adds variables (EDITOR, say).
 */
export function runTool(c: Cluster, tool: string, args: string[], opts: RunOptions & { env?: NodeJS.ProcessEnv } = {}): Promise<RunResult> {
  const bin = join(BIN, tool);
  if (!existsSync(bin)) throw new Error(`.tools/bin/${tool} is missing: run node scripts/tools.mjs`);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: c.dir, KUBECONFIG: c.kubeconfig, ...opts.env };
  return run(bin, ['--cache-dir', join(c.dir, `kube-cache-${tool}`), ...args], env, opts);
}

/** Runs kubectl and fails with its output when the exit code is not 0. */
export async function kubectlOk(c: Cluster, args: string[], stdin?: string): Promise<RunResult> {
  const r = await c.kubectl(args, { stdin });
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}

/** Retries `check` until it passes (for state that settles asynchronously, like a new CRD). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 15_000, stepMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, stepMs));
    }
  }
}

/** `serverArgs`: more flags for the server (`--feature-gates OpenAPIV3=false`). */
export async function startCluster(serverArgs: string[] = []): Promise<Cluster> {
  for (const tool of ['kubectl', 'helm']) {
    if (!existsSync(join(BIN, tool))) throw new Error(`.tools/bin/${tool} is missing: run node scripts/tools.mjs`);
  }
  const dir = await mkdtemp(join(tmpdir(), 'kube-playground-e2e-'));
  // KP_SERVE_FLAGS runs the suite against another storage, e.g. `--etcd-servers http://127.0.0.1:2379
  // --etcd-prefix /e2e-{unique}` ({unique}: a fresh value per server, so each starts empty).
  const extra = (process.env.KP_SERVE_FLAGS ?? '').replaceAll('{unique}', `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`).split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/hosts/node/main.ts', '--port', '0', '--kubeconfig', join(dir, 'kubeconfig'), ...extra, ...serverArgs], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { url, kubeconfig } = await waitForReadyLine(child);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dir,
    KUBECONFIG: kubeconfig,
    HELM_CACHE_HOME: join(dir, 'helm-cache'),
    HELM_CONFIG_HOME: join(dir, 'helm-config'),
    HELM_DATA_HOME: join(dir, 'helm-data'),
  };
  const cacheDir = join(dir, 'kube-cache');
  return {
    url,
    kubeconfig,
    dir,
    kubectl: (args, opts) => run(join(BIN, 'kubectl'), ['--cache-dir', cacheDir, ...args], env, opts),
    helm: (args, opts) => run(join(BIN, 'helm'), args, env, opts),
    fixture: (name) => join(FIXTURES, name),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const forced = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(forced);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
