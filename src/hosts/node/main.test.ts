// Runs the real entry point as a child process: the ready line, the kubeconfig it writes, and
// a clean exit on SIGTERM.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ENTRY = fileURLToPath(new URL('./main.ts', import.meta.url));
const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function startMain(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const ready = new Promise<string>((resolvePromise, reject) => {
    child.stdout.on('data', () => {
      if (stdout.includes('\n')) resolvePromise(stdout);
    });
    void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  // A test that expects the process to exit never awaits `ready`; keep its rejection handled.
  ready.catch(() => {});
  return { child, ready, exited, output: () => ({ stdout, stderr }) };
}

describe('main (npm run serve)', () => {
  it('prints one ready line, writes the kubeconfig, serves, and exits 0 on SIGTERM', async () => {
    dir = await mkdtemp(join(tmpdir(), 'main-'));
    const kubeconfig = join(dir, 'kc');
    const m = startMain(['--port', '0', '--kubeconfig', kubeconfig, '--history-window', '2m']);
    const line = await m.ready;
    const match = /^kube-playground API listening on (http:\/\/127\.0\.0\.1:(\d+)) \(kubeconfig: (.+)\)\n$/.exec(line);
    expect(match).not.toBeNull();
    const [, url, port, path] = match!;
    expect(Number(port)).toBeGreaterThan(0);
    expect(path).toBe(kubeconfig);
    expect(await readFile(kubeconfig, 'utf8')).toContain(`server: "${url}"`);
    const res = await fetch(`${url}/version`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { major: string }).major).toBe('1');

    const t0 = Date.now();
    m.child.kill('SIGTERM');
    expect(await m.exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(2500);
    expect(m.output().stdout).toBe(line);
  });

  it('exits 2 with a usage message on a bad flag', async () => {
    const m = startMain(['--port', 'nope']);
    expect(await m.exited).toBe(2);
    expect(m.output().stderr).toContain('error: invalid --port "nope"');
    expect(m.output().stdout).toBe('');
  });
});
