// A/B of the API's CPU per create in ONE process (decision 0056): this checkout's in-memory API
// and another checkout's (`--base DIR`, e.g. a worktree of the base commit), both loaded here,
// rounds alternating between the two servers (which goes first alternates too) so both meet the
// same load. Per round and kind: CPU µs per create on each side (process.cpuUsage) and the ratio
// new ÷ old; printed are the medians of those over the rounds, with the load average.
//   npx tsx bench/create-cpu-ab.ts --base ../base [--rounds 30] [--per 300] [--only Deployment] [--new-first]
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ApiRequest } from '../src/core/meta/types';
import { cpuBenchDeployment } from './fixtures';

interface Api {
  handle(r: ApiRequest): Promise<{ status: number }>;
  close(): Promise<void>;
}
type Make = (opts: { namespaceDeletionGracePeriodMs: number }) => Promise<Api>;

const enc = new TextEncoder();
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data: { 'settings.json': '{"mode":"bench","retries":3}', greeting: 'hello' } });
const deployment = cpuBenchDeployment;
const post = (url: string, body: unknown): ApiRequest => ({ method: 'POST', url, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: enc.encode(JSON.stringify(body)) });

let seq = 0;
const kinds: Array<{ name: string; inFlight: number; make: () => ApiRequest }> = [
  { name: 'ConfigMap x16', inFlight: 16, make: () => post('/api/v1/namespaces/default/configmaps', configMap(`cm-${seq++}`)) },
  { name: 'Deployment x16', inFlight: 16, make: () => post('/apis/apps/v1/namespaces/default/deployments', deployment(`d-${seq++}`)) },
  { name: 'ConfigMap x1', inFlight: 1, make: () => post('/api/v1/namespaces/default/configmaps', configMap(`cm-${seq++}`)) },
  { name: 'Deployment x1', inFlight: 1, make: () => post('/apis/apps/v1/namespaces/default/deployments', deployment(`d-${seq++}`)) },
];

/** CPU µs per create for n creates, inFlight at a time (requests built before the clock starts: the API's CPU only). */
async function run(api: Api, n: number, inFlight: number, make: () => ApiRequest): Promise<number> {
  const requests = Array.from({ length: n }, make);
  let next = 0;
  const start = process.cpuUsage();
  const worker = async () => {
    while (next < n) {
      const res = await api.handle(requests[next++]!);
      if (res.status !== 201) throw new Error(`status ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function load(root: string): Promise<Make> {
  const mod = (await import(pathToFileURL(join(root, 'src/core/api.ts')).href)) as { createApiServer: Make };
  return mod.createApiServer;
}

async function main(): Promise<void> {
  const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const base = arg('base');
  if (!base) throw new Error('--base DIR (a checkout of the old code) is required');
  const rounds = Number(arg('rounds') ?? 30);
  const per = Number(arg('per') ?? 300);
  const only = arg('only');
  // `--new-first`: this checkout's code loaded (and compiled) first, to rule out load order.
  const newFirst = process.argv.includes('--new-first');
  const roots = newFirst ? [here, resolve(base)] : [resolve(base), here];
  const loaded = [];
  for (const root of roots) loaded.push(await (await load(root))({ namespaceDeletionGracePeriodMs: 0 }));
  const sides = [
    { name: 'old', api: newFirst ? loaded[1]! : loaded[0]! },
    { name: 'new', api: newFirst ? loaded[0]! : loaded[1]! },
  ];
  const chosen = only ? kinds.filter((k) => k.name.includes(only)) : kinds;
  const load0 = loadavg()[0]!;
  // Warm-up: the first thousands of requests are mostly compilation.
  for (let w = 0; w < 3; w++) for (const k of chosen) for (const s of sides) await run(s.api, per, k.inFlight, k.make);
  const us: Record<string, { old: number[]; new: number[]; ratio: number[] }> = {};
  for (const k of chosen) us[k.name] = { old: [], new: [], ratio: [] };
  for (let r = 0; r < rounds; r++) {
    for (const k of chosen) {
      const order = r % 2 === 0 ? sides : [sides[1]!, sides[0]!];
      const got: Record<string, number> = {};
      for (const s of order) got[s.name] = await run(s.api, per, k.inFlight, k.make);
      us[k.name]!.old.push(got.old!);
      us[k.name]!.new.push(got.new!);
      us[k.name]!.ratio.push(got.new! / got.old!);
    }
  }
  const load1 = loadavg()[0]!;
  console.log(`rounds ${rounds} × ${per}${newFirst ? ', new loaded first' : ''}, load ${load0.toFixed(2)} → ${load1.toFixed(2)}`);
  for (const [name, x] of Object.entries(us)) {
    console.log(`${name.padEnd(15)} new÷old ${median(x.ratio).toFixed(3)}  (${median(x.old).toFixed(1)} → ${median(x.new).toFixed(1)} µs CPU)`);
  }
  for (const s of sides) await s.api.close();
}

void main();
