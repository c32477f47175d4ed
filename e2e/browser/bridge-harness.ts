// `npm run bridge` as a child process for the browser tests: start it on a free port for the
// test site's origin, follow what it prints (its pairing codes, pairings, disconnections), pair
// a page through the "Connect kubectl" panel, and run kubectl/helm with the kubeconfig it writes.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { FIXTURES, REPO_ROOT, run, type RunOptions, type RunResult } from '../harness';

const BIN = join(REPO_ROOT, '.tools', 'bin');
const LISTENING = /^kube-playground bridge listening on (https:\/\/\S+) /m;

export interface BridgeProcess {
  url: string;
  /** `host:port`, as typed into the panel. */
  address: string;
  kubeconfig: string;
  dir: string;
  /** Everything printed so far. */
  output(): string;
  /** The code printed last (the one the next pairing must use). */
  code(): string;
  /** Resolves when the output has a line matching `pattern` after `from` characters. */
  waitFor(pattern: RegExp, from?: number, timeoutMs?: number): Promise<string>;
  kubectl(args: string[], opts?: RunOptions): Promise<RunResult>;
  helm(args: string[], opts?: RunOptions): Promise<RunResult>;
  /** kubectl as a running child (for `get -w`), with its output so far. */
  spawnKubectl(args: string[]): RunningKubectl;
  stop(): Promise<void>;
}

export interface RunningKubectl {
  child: ChildProcess;
  out(): string;
  err(): string;
  exited: Promise<number>;
}

/** kubectl as a running child (for `get -w`) with the given kubeconfig, HOME and cache in `dir`. */
export function spawnKubectl(dir: string, kubeconfig: string, args: string[]): RunningKubectl {
  const child = spawn(join(BIN, 'kubectl'), ['--cache-dir', join(dir, 'kube-cache'), ...args], { env: clientEnv(dir, kubeconfig), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
  return { child, out: () => out, err: () => err, exited: new Promise((r) => child.on('close', (code) => r(code ?? 128))) };
}

export function clientEnv(dir: string, kubeconfig: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: dir, KUBECONFIG: kubeconfig, HELM_CACHE_HOME: join(dir, 'helm-cache'), HELM_CONFIG_HOME: join(dir, 'helm-config'), HELM_DATA_HOME: join(dir, 'helm-data') };
}

export async function startBridgeProcess(pageOrigin: string): Promise<BridgeProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'kube-playground-bridge-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/hosts/node/bridge/main.ts', '--port', '0', '--kubeconfig', kubeconfig, '--data-dir', join(dir, 'data'), '--allowed-origin', pageOrigin], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (c: string) => {
    out += c;
    for (const w of [...waiters]) w();
  });
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const waitFor = (pattern: RegExp, from = 0, timeoutMs = 30_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const m = pattern.exec(out.slice(from));
        if (!m) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(m[0]);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`bridge did not print ${pattern} in ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  await waitFor(/^pairing code: \d{4}-\d{4}$/m);
  const url = LISTENING.exec(out)![1]!;
  const env = clientEnv(dir, kubeconfig);
  const cacheDir = join(dir, 'kube-cache');
  return {
    url,
    address: new URL(url).host,
    kubeconfig,
    dir,
    output: () => out,
    code: () => [...out.matchAll(/^pairing code: (\d{4}-\d{4})$/gm)].at(-1)![1]!,
    waitFor,
    kubectl: (args, opts) => run(join(BIN, 'kubectl'), ['--cache-dir', cacheDir, ...args], env, opts),
    helm: (args, opts) => run(join(BIN, 'helm'), args, env, opts),
    spawnKubectl: (args) => spawnKubectl(dir, kubeconfig, args),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const force = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(force);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Pairs `page` (already showing the playground) through the panel, as a person would. */
export async function pairPage(page: Page, bridge: BridgeProcess): Promise<void> {
  const from = bridge.output().length;
  await page.goto(new URL('#/kubectl', page.url()).href);
  const panel = page.getByRole('region', { name: 'Connect kubectl' });
  await panel.getByLabel('Bridge address').fill(bridge.address);
  await panel.getByLabel('Pairing code').fill(bridge.code());
  await panel.getByRole('button', { name: /Connect|Pair again/ }).click();
  await panel.getByTestId('bridge-status').getByText('Connected.').waitFor({ timeout: 15_000 });
  await bridge.waitFor(/paired with a tab at/, from);
}

export const fixture = (name: string) => join(FIXTURES, name);
