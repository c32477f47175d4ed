// CPU per create through `api.handle` in one process (no HTTP, in-memory store), 16 in flight:
// ConfigMap and Deployment creates, an update and a GET, each measured with process.cpuUsage over
// rounds interleaved kind by kind (the machine is shared; CPU time, not wall time). Decision 0048.
//   npx tsx bench/create-cpu.ts [rounds] [per-round]
import { createApiServer } from '../src/core/api';
import type { ApiRequest } from '../src/core/meta/types';
import { cpuBenchDeployment } from './fixtures';

const rounds = Number(process.argv[2] ?? 8);
const perRound = Number(process.argv[3] ?? 500);
const IN_FLIGHT = 16;
const enc = new TextEncoder();

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data: { key: 'value', other: 'x'.repeat(200) } });
const deployment = cpuBenchDeployment;

function post(url: string, body: unknown): ApiRequest {
  return { method: 'POST', url, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: enc.encode(JSON.stringify(body)) };
}

async function run(n: number, make: (i: number) => ApiRequest, handle: (r: ApiRequest) => Promise<{ status: number }>, expect: number): Promise<number> {
  let next = 0;
  const start = process.cpuUsage();
  const worker = async () => {
    while (next < n) {
      const res = await handle(make(next++));
      if (res.status !== expect) throw new Error(`status ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const api = await createApiServer({ namespaceDeletionGracePeriodMs: 0 });
  const h = (r: ApiRequest) => api.handle(r);
  let seq = 0;
  const kinds: Record<string, (round: number) => Promise<number>> = {
    'create ConfigMap': () => run(perRound, () => post('/api/v1/namespaces/default/configmaps', configMap(`cm-${seq++}`)), h, 201),
    'create Deployment': () => run(perRound, () => post('/apis/apps/v1/namespaces/default/deployments', deployment(`d-${seq++}`)), h, 201),
    'update ConfigMap': async () => {
      const name = `upd-${seq++}`;
      await h(post('/api/v1/namespaces/default/configmaps', configMap(name)));
      let i = 0;
      return run(perRound, () => ({ method: 'PUT', url: `/api/v1/namespaces/default/configmaps/${name}`, headers: { 'content-type': 'application/json' }, body: enc.encode(JSON.stringify({ ...configMap(name), data: { key: `v${i++}` } })) }), h, 200);
    },
    'get ConfigMap': async () => {
      const name = `get-${seq++}`;
      await h(post('/api/v1/namespaces/default/configmaps', configMap(name)));
      return run(perRound, () => ({ method: 'GET', url: `/api/v1/namespaces/default/configmaps/${name}`, headers: { accept: 'application/json' } }), h, 200);
    },
  };
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  // Warm-up: the first thousands of requests are mostly compilation (300-400 µs each).
  for (let w = 0; w < 4; w++) for (const k of Object.keys(kinds)) await kinds[k](0);
  for (let r = 0; r < rounds; r++) for (const k of Object.keys(kinds)) samples[k].push(await kinds[k](r));
  for (const [k, xs] of Object.entries(samples)) console.log(`${k.padEnd(18)} min ${Math.min(...xs).toFixed(1)}  median ${median(xs).toFixed(1)} µs CPU  (${xs.map((x) => x.toFixed(0)).join(' ')})`);
  await api.close();
}

void main();
