// `--data-dir` (LMDB) create latency against LMDB's own durable put of the same bytes. The host
// runs as `npm run serve -- --data-dir` does, in a child process; the floor is a raw put, awaited
// until LMDB's fsync'd commit, in this process into an environment opened with the same options
// on the same file system. Sequential and interleaved sample by sample, in a rotating order, so
// every kind sees the same fsync cost (this shared disk's fsync moves 0.3-8 ms within minutes,
// which made block-wise ratios swing 0.8-4.2x); p50 of each.
// Held to the target since decision 0047: the create against the relay floor (relay-server.ts),
// an HTTP server in its own process whose only work is the same durable put. The raw put has no
// HTTP hop, and the hop costs more than this disk's fsync when the disk is quiet.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { open } from 'lmdb';
import { hit, makeAgent, quantile, sequential } from './http-client';
import { startRemoteServer } from './remote-server';
import { startRelayServer, type RelayServer } from './relay-server';

export interface DurableResult {
  createBytes: number;
  createP50: number;
  rawPutP50: number;
  /** The same create against the in-memory host, and the transport floor answering the same bytes (context). */
  memoryCreateP50: number;
  floorP50: number;
  /** The relay floor: HTTP + the same durable put in its own process (relay-server.ts). */
  relayP50: number;
  /** Whether the floors put exactly the host's stored bytes (read back from its environment). */
  sameBytes: boolean;
}

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NS_PATH = '/api/v1/namespaces/default/configmaps';
export const DURABLE_TARGET = 1.5;

function configMap(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data: { 'settings.json': '{"mode":"bench","retries":3}', greeting: 'hello' } });
}

/** `npm run serve` with these flags in a child process; its kubeconfig goes into `dir`. */
/** `root`: the checkout whose host runs (an A/B bench runs an older one); `nodeArgs`: e.g. --cpu-prof. */
export async function startHostProcess(dir: string, flags: string[], opts: { root?: string; nodeArgs?: string[] } = {}): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', 'src/hosts/node/main.ts', '--port', '0', '--kubeconfig', join(dir, 'kubeconfig'), ...flags], {
    cwd: opts.root ?? REPO_ROOT,
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
    pid: child.pid!,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function runDurableBench(opts: { samples?: number; warmup?: number } = {}): Promise<DurableResult> {
  const samples = opts.samples ?? 600;
  // Each side gets the same warm-up, long enough for the host's JIT to settle (decision 0055):
  // its compiler threads compete with the measured creates for the 2 cores for thousands of them.
  const warmup = opts.warmup ?? 3000;
  const dir = await mkdtemp(join(tmpdir(), 'bench-durable-'));
  const host = await startHostProcess(dir, ['--data-dir', join(dir, 'host')]);
  // Same options as the backend (src/backends/lmdb/lmdb-backend.ts): commits include the fsync.
  const raw = open({ path: join(dir, 'raw'), overlappingSync: false, noSync: false, maxDbs: 4 });
  const objects = raw.openDB<{ v: string; c: number; m: number }, string>({ name: 'objects' });
  const remote = await startRemoteServer();
  const agent = makeAgent(1);
  let relay: RelayServer | undefined;
  try {
    const created = await hit(agent, host.url, 'POST', NS_PATH, configMap('bench-size'), true);
    if (created.status !== 201) throw new Error(`create: HTTP ${created.status} ${created.body.slice(0, 200)}`);
    // The floors put the host's stored text itself, read back from its environment (LMDB allows
    // a reader in another process); the answer's bytes, slightly more, if that fails.
    const hostText = readStoredText(join(dir, 'host', 'storage'), 'bench-size');
    const stored = hostText ?? created.body;
    relay = await startRelayServer({ kind: 'lmdb', path: join(dir, 'relay'), putPrefix: '/registry/configmaps/default/relay-', stored });
    await relay.setAnswers(created.bytes, 0);
    const relayUrl = relay.url;
    const createHost = (prefix: string) => (i: number) => hit(agent, host.url, 'POST', NS_PATH, configMap(`${prefix}-${i}`));
    const putRaw = (prefix: string) => (i: number) => objects.put(`/registry/configmaps/default/${prefix}-${i}`, { v: stored, c: i, m: i });
    const createMemory = (i: number) => hit(agent, remote.apiUrl, 'POST', NS_PATH, configMap(`seq-${i}`));
    const floor = (i: number) => hit(agent, remote.floorUrl, 'POST', NS_PATH, configMap(`seq-${i}`));
    const relayCreate = (i: number) => hit(agent, relayUrl, 'POST', NS_PATH, configMap(`seq-${i}`));
    await remote.setFloorBody(created.bytes, 201);
    await sequential(warmup, createHost('warm'));
    await sequential(warmup, putRaw('warm'));
    await sequential(warmup, (i) => createMemory(-1 - i));
    await sequential(warmup, floor);
    await sequential(warmup, relayCreate);
    const kinds: Array<[number[], (i: number) => Promise<unknown>]> = [
      [[], createHost('seq')],
      [[], putRaw('seq')],
      [[], createMemory],
      [[], floor],
      [[], relayCreate],
    ];
    for (let i = 0; i < samples; i++) {
      for (let j = 0; j < kinds.length; j++) {
        const [out, op] = kinds[(i + j) % kinds.length]!;
        const t0 = performance.now();
        await op(i);
        out.push(performance.now() - t0);
      }
    }
    const [creates, puts, memory, floors, relays] = kinds.map(([out]) => out) as [number[], number[], number[], number[], number[]];
    return {
      createBytes: created.bytes,
      createP50: quantile(creates, 0.5),
      rawPutP50: quantile(puts, 0.5),
      memoryCreateP50: quantile(memory, 0.5),
      floorP50: quantile(floors, 0.5),
      relayP50: quantile(relays, 0.5),
      sameBytes: hostText !== undefined,
    };
  } finally {
    agent.destroy();
    await relay?.close();
    await remote.close();
    await raw.close();
    await host.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The stored text of the ConfigMap `name`, read from the host's LMDB environment without writing. */
function readStoredText(path: string, name: string): string | undefined {
  try {
    const env = open({ path, readOnly: true, maxDbs: 4 });
    try {
      const objects = env.openDB<{ v: string }, string>({ name: 'objects' });
      for (const { key, value } of objects.getRange()) if (key.endsWith(`/default/${name}`)) return value.v;
      return undefined;
    } finally {
      void env.close();
    }
  } catch {
    return undefined;
  }
}

export function formatDurable(r: DurableResult): string {
  const ratio = r.createP50 / r.relayP50;
  return [
    `--data-dir (LMDB, fsync per commit): create ConfigMap p50 (${r.createBytes} B) ${r.createP50.toFixed(3)} ms`,
    `  relay floor (HTTP + the same durable put, own process) p50 ${r.relayP50.toFixed(3)} ms; ratio ${ratio.toFixed(2)}x (target <= ${DURABLE_TARGET}x ${ratio <= DURABLE_TARGET ? 'ok' : 'MISSED'})`,
    `  raw durable LMDB put of the same bytes${r.sameBytes ? '' : ' (answer bytes: stored text not readable)'} p50 ${r.rawPutP50.toFixed(3)} ms; create ${(r.createP50 / r.rawPutP50).toFixed(2)}x it; storage's share (create - in-memory create) ${((r.createP50 - r.memoryCreateP50) / r.rawPutP50).toFixed(2)}x it`,
    // Context: what the create costs without durability, and the HTTP round trip alone (T). On a
    // disk whose fsync is cheaper than the round trip, create / (T + P) says more than create / P.
    `  in-memory host create p50 ${r.memoryCreateP50.toFixed(3)} ms; transport floor T p50 ${r.floorP50.toFixed(3)} ms; create / (T + P) ${(r.createP50 / (r.floorP50 + r.rawPutP50)).toFixed(2)}x; create - memory create ${(r.createP50 - r.memoryCreateP50).toFixed(3)} ms`,
  ].join('\n');
}

// `npx tsx bench/durable.ts`: this row alone.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runDurableBench({ warmup: process.env.WARMUP ? Number(process.env.WARMUP) : undefined }).then(
    (r) => console.log(formatDurable(r)),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
