// Where the wall time of one sequential create goes inside the Node host (decision 0053), and
// whether any of it is waiting: for each leg of a create, its wall time next to the CPU time the
// host process spent in it. A leg whose wall time exceeds its CPU time waited (an event-loop hop, a
// timer, a commit held back); a leg where the two match was work.
//   npx tsx bench/create-timeline.ts [memory|lmdb] [ConfigMap|Deployment] [gap ms] [samples]
// The host (startNodeHost, all controllers) runs in a child process, as `npm run serve` does. The
// legs are cut by Node's own http diagnostics channels and by wrapping the API's handle and the
// backend's commit, so nothing in src/ carries timing code:
//   read   request head parsed → api.handle called (body read, ApiRequest built)
//   api    handle → backend commit (the API's create work before storage, group commit's turn)
//   commit the backend's commit (memory: applying the batch; lmdb: the fsync'd transaction)
//   after  commit settled → api.handle resolved (index, watch fan-out, answer encoding, filters)
//   write  → the response's 'finish' (the bytes leave during this leg; the client sees them then)
// Between samples the bench waits `gap` ms, as a client that does other work between requests
// does (the durable bench's host meets its next create after four other requests): the host
// process sleeps and meets the create with cold caches. gap 0 measures a back-to-back loop.
// For lmdb it also times, in the host process right after each create, a raw durable put of the
// same stored bytes (the relay floor's storage call) for the commit leg to be read against.
import { fork } from 'node:child_process';
import dc from 'node:diagnostics_channel';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { open } from 'lmdb';
import { createApiServer } from '../src/core/api';
import { createLmdbBackend } from '../src/backends/lmdb/lmdb-backend';
import { createMemoryBackend } from '../src/core/storage/memory-backend';
import { startNodeHost } from '../src/hosts/node/server';
import { hit, makeAgent, quantile } from './http-client';

const LEGS = ['read', 'api', 'commit', 'after', 'write'] as const;
type Leg = (typeof LEGS)[number];
/** Per leg: wall ms and CPU ms of the host process. */
type Timeline = Record<Leg, [number, number]>;

type ChildMessage = { op: 'timeline' } | { op: 'put' } | { op: 'close' };

const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

async function child(mode: string, dir: string): Promise<void> {
  // Marks of the current request, in order: [name, wall ms, cpu ms].
  let marks: Array<[string, number, number]> = [];
  const mark = (name: string) => marks.push([name, performance.now(), cpuMs()]);
  dc.subscribe('http.server.request.start', () => {
    marks = [];
    mark('start');
  });
  dc.subscribe('http.server.response.finish', () => mark('finish'));
  const inner = mode === 'lmdb' ? createLmdbBackend({ path: join(dir, 'host') }) : createMemoryBackend();
  // The stored text of the last commit: the raw put writes the same bytes.
  let lastStored = '';
  const backend = Object.create(inner) as typeof inner;
  backend.commit = (batch) => {
    mark('commit');
    lastStored = batch.puts[0]?.value ?? lastStored;
    const done = inner.commit(batch);
    if (!done) {
      mark('committed');
      return done;
    }
    return done.then(() => void mark('committed'));
  };
  const api = await createApiServer({ backend });
  const timed = Object.create(api) as typeof api;
  timed.handle = (req) => {
    mark('handle');
    return api.handle(req).then((res) => {
      mark('handled');
      return res;
    });
  };
  const host = await startNodeHost({ port: 0, host: '127.0.0.1', api: timed });
  let rawPut: (() => Promise<number>) | undefined;
  if (mode === 'lmdb') {
    // The relay floor's call (bench/relay-server.ts): one durable put, the backend's options.
    const env = open({ path: join(dir, 'raw'), overlappingSync: false, noSync: false, maxDbs: 4 });
    const objects = env.openDB<{ v: string; c: number; m: number }, string>({ name: 'objects' });
    let n = 0;
    rawPut = async () => {
      const t0 = performance.now();
      await objects.put(`/registry/configmaps/default/raw-${n}`, { v: lastStored, c: ++n, m: n });
      return performance.now() - t0;
    };
  }
  process.on('message', (m: ChildMessage & { id: number }) => {
    if (m.op === 'timeline') process.send!({ id: m.id, timeline: toTimeline(marks) });
    else if (m.op === 'put') void rawPut!().then((ms) => process.send!({ id: m.id, ms }));
    else void host.close().then(() => api.close()).then(() => process.send!({ id: m.id }, () => process.exit(0)));
  });
  process.send!({ url: host.url });
}

/** The legs between consecutive marks; a request whose marks are not the expected ones is dropped. */
function toTimeline(marks: Array<[string, number, number]>): Timeline | undefined {
  const names = marks.map(([n]) => n).join(' ');
  if (names !== 'start handle commit committed handled finish') return undefined;
  const out = {} as Timeline;
  LEGS.forEach((leg, i) => (out[leg] = [marks[i + 1]![1] - marks[i]![1], marks[i + 1]![2] - marks[i]![2]]));
  return out;
}

function body(kind: string, name: string): [string, string] {
  if (kind === 'Deployment') {
    const labels = { app: name };
    const spec = { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }] } } };
    return ['/apis/apps/v1/namespaces/default/deployments', JSON.stringify({ apiVersion: 'apps/v1', kind, metadata: { name, labels }, spec })];
  }
  const data = { 'settings.json': '{"mode":"bench","retries":3}', greeting: 'hello' };
  return ['/api/v1/namespaces/default/configmaps', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data })];
}

async function main(mode: string, kind: string, gapMs: number, samples: number): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-timeline-'));
  const proc = fork(fileURLToPath(import.meta.url), ['--child', mode, dir], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map<number, (m: Record<string, unknown>) => void>();
  let ids = 0;
  const ready = new Promise<string>((resolve) => proc.once('message', (m) => resolve((m as { url: string }).url)));
  const url = await ready;
  proc.on('message', (m: { id: number }) => waiting.get(m.id)?.(m));
  const call = (m: ChildMessage) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = ++ids;
      waiting.set(id, resolve);
      proc.send({ ...m, id });
    });
  const agent = makeAgent(1);
  const legs: Record<Leg, [number[], number[]]> = { read: [[], []], api: [[], []], commit: [[], []], after: [[], []], write: [[], []] };
  const client: number[] = [];
  const puts: number[] = [];
  let mixed = 0;
  const pairs: number[] = [];
  try {
    const warmup = 300;
    for (let i = -warmup; i < samples; i++) {
      if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
      const [path, text] = body(kind, `t${i + warmup}`);
      const t0 = performance.now();
      const res = await hit(agent, url, 'POST', path, text, 200);
      const wall = performance.now() - t0;
      if (res.status !== 201) throw new Error(`create: HTTP ${res.status} ${res.body.slice(0, 200)}`);
      const { timeline } = (await call({ op: 'timeline' })) as { timeline?: Timeline };
      if (mode === 'lmdb') {
        const { ms } = (await call({ op: 'put' })) as { ms: number };
        if (i >= 0) puts.push(ms);
        // Paired with the create just before it: the disk's fsync moves from minute to minute.
        if (i >= 0 && timeline) pairs.push(timeline.commit[0] - ms);
      }
      if (i < 0) continue;
      if (!timeline) {
        // Another writer's commit (a controller's) ran during this create: its legs are not the five.
        mixed++;
        continue;
      }
      client.push(wall);
      for (const leg of LEGS) {
        legs[leg][0].push(timeline[leg][0]);
        legs[leg][1].push(timeline[leg][1]);
      }
    }
  } finally {
    agent.destroy();
    await call({ op: 'close' });
    await rm(dir, { recursive: true, force: true });
  }
  const f = (v: number) => (v * 1000).toFixed(0).padStart(5);
  console.log(`${mode} host, create ${kind}, one at a time, ${gapMs} ms between creates, ${client.length} samples, ${mixed} more left out: another commit ran inside them (load ${loadavg()[0].toFixed(2)})`);
  console.log('  leg      wall p50 µs   host CPU p50 µs');
  for (const leg of LEGS) console.log(`  ${leg.padEnd(7)}  ${f(quantile(legs[leg][0], 0.5))}         ${f(quantile(legs[leg][1], 0.5))}`);
  console.log(`  client-side create p50 ${quantile(client, 0.5).toFixed(3)} ms${puts.length ? `; raw durable put of the same bytes in the host process p50 ${quantile(puts, 0.5).toFixed(3)} ms, commit leg − that put p50 of pairs ${quantile(pairs, 0.5).toFixed(3)} ms` : ''}`);
}

const failed = (error: unknown) => {
  console.error(error);
  process.exit(1);
};
if (process.argv[2] === '--child') child(process.argv[3]!, process.argv[4]!).catch(failed);
else main(process.argv[2] ?? 'memory', process.argv[3] ?? 'ConfigMap', Number(process.argv[4] ?? 2), Number(process.argv[5] ?? 500)).catch(failed);
