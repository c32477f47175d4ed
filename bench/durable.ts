// `--data-dir` (LMDB) create latency against LMDB's own durable put of the same bytes. The host
// runs as `npm run serve -- --data-dir` does, in a child process; the floor is a raw put, awaited
// until LMDB's fsync'd commit, in this process into an environment opened with the same options
// on the same file system. Sequential, in alternating blocks (the VM is shared), p50 of each.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { open } from 'lmdb';
import { hit, makeAgent, quantile, sequential } from './http-client';
import { startRemoteServer } from './remote-server';

export interface DurableResult {
  createBytes: number;
  createP50: number;
  rawPutP50: number;
  /** The same create against the in-memory host, and the transport floor answering the same bytes (context). */
  memoryCreateP50: number;
  floorP50: number;
}

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NS_PATH = '/api/v1/namespaces/default/configmaps';
export const DURABLE_TARGET = 1.5;

function configMap(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data: { 'settings.json': '{"mode":"bench","retries":3}', greeting: 'hello' } });
}

/** `npm run serve` with these flags in a child process; its kubeconfig goes into `dir`. */
export async function startHostProcess(dir: string, flags: string[]): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/hosts/node/main.ts', '--port', '0', '--kubeconfig', join(dir, 'kubeconfig'), ...flags], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolvePromise, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`host exited with code ${code}`)));
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolvePromise(m[1]!);
    });
  });
  child.removeAllListeners('exit');
  return {
    url,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function runDurableBench(opts: { samples?: number; warmup?: number } = {}): Promise<DurableResult> {
  const samples = opts.samples ?? 600;
  const warmup = opts.warmup ?? 100;
  const dir = await mkdtemp(join(tmpdir(), 'bench-durable-'));
  const host = await startHostProcess(dir, ['--data-dir', join(dir, 'host')]);
  // Same options as the backend (src/backends/lmdb/lmdb-backend.ts): commits include the fsync.
  const raw = open({ path: join(dir, 'raw'), overlappingSync: false, noSync: false, maxDbs: 4 });
  const objects = raw.openDB<{ v: string; c: number; m: number }, string>({ name: 'objects' });
  const remote = await startRemoteServer();
  const agent = makeAgent(1);
  try {
    const created = await hit(agent, host.url, 'POST', NS_PATH, configMap('bench-size'), true);
    if (created.status !== 201) throw new Error(`create: HTTP ${created.status} ${created.body.slice(0, 200)}`);
    // The stored text is the answer without kind/apiVersion; the answer's bytes are close enough
    // and slightly more.
    const stored = created.body;
    const createHost = (prefix: string) => (i: number) => hit(agent, host.url, 'POST', NS_PATH, configMap(`${prefix}-${i}`));
    const putRaw = (prefix: string) => (i: number) => objects.put(`/registry/configmaps/default/${prefix}-${i}`, { v: stored, c: i, m: i });
    const createMemory = (i: number) => hit(agent, remote.apiUrl, 'POST', NS_PATH, configMap(`seq-${i}`));
    const floor = (i: number) => hit(agent, remote.floorUrl, 'POST', NS_PATH, configMap(`seq-${i}`));
    await remote.setFloorBody(created.bytes, 201);
    await sequential(warmup, createHost('warm'));
    await sequential(warmup, putRaw('warm'));
    await sequential(warmup, (i) => createMemory(-1 - i));
    await sequential(warmup, floor);
    const creates: number[] = [];
    const puts: number[] = [];
    const memory: number[] = [];
    const floors: number[] = [];
    const blocks = 10;
    const per = Math.ceil(samples / blocks);
    for (let k = 0; k < blocks; k++) {
      creates.push(...(await sequential(per, (i) => createHost('seq')(k * per + i))));
      puts.push(...(await sequential(per, (i) => putRaw('seq')(k * per + i))));
      memory.push(...(await sequential(per, (i) => createMemory(k * per + i))));
      floors.push(...(await sequential(per, floor)));
    }
    return {
      createBytes: created.bytes,
      createP50: quantile(creates, 0.5),
      rawPutP50: quantile(puts, 0.5),
      memoryCreateP50: quantile(memory, 0.5),
      floorP50: quantile(floors, 0.5),
    };
  } finally {
    agent.destroy();
    await remote.close();
    await raw.close();
    await host.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export function formatDurable(r: DurableResult): string {
  const ratio = r.createP50 / r.rawPutP50;
  return [
    `--data-dir (LMDB, fsync per commit): create ConfigMap p50 (${r.createBytes} B) ${r.createP50.toFixed(3)} ms`,
    `  raw durable LMDB put of the same bytes p50 ${r.rawPutP50.toFixed(3)} ms; ratio ${ratio.toFixed(2)}x (target <= ${DURABLE_TARGET}x ${ratio <= DURABLE_TARGET ? 'ok' : 'MISSED'})`,
    // Context: what the create costs without durability, and the HTTP round trip alone (T). On a
    // disk whose fsync is cheaper than the round trip, create / (T + P) says more than create / P.
    `  in-memory host create p50 ${r.memoryCreateP50.toFixed(3)} ms; transport floor T p50 ${r.floorP50.toFixed(3)} ms; create / (T + P) ${(r.createP50 / (r.floorP50 + r.rawPutP50)).toFixed(2)}x; create - memory create ${(r.createP50 - r.memoryCreateP50).toFixed(3)} ms`,
  ].join('\n');
}

// `npx tsx bench/durable.ts`: this row alone.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runDurableBench().then(
    (r) => console.log(formatDurable(r)),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
