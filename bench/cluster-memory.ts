// Memory of the simulated cluster (issue 25, decision 0033): 10,000 running pods on 100 simulated
// nodes (ten 1,000-replica Deployments, zero kubelet delay), heap with the controllers running,
// against the heap of a server without controllers into which the same writes (counted from the
// first server's metrics: pods created, bound and given the same status writes, as many events
// and status updates) were replayed — the stored objects alone, with a comparable history.
// Target <= 1.5x. Each side runs in a child `node --expose-gc` so the heap can be measured after
// a full GC. Prints numbers; asserts nothing.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createApiServer } from '../src/core/api';
import { bodyBytes, isStream } from '../src/core/meta/types';
import { replayWrites, writeCounts } from './cluster';

export const CLUSTER_MEMORY_TARGET = 1.5;
/** KP_BENCH_HISTORY_MS: the watch history window of both servers (default: the server's), to see how much of the heap is history. */
const HISTORY_MS = process.env.KP_BENCH_HISTORY_MS ? Number(process.env.KP_BENCH_HISTORY_MS) : undefined;

export interface ClusterMemoryResult {
  pods: number;
  nodes: number;
  /** Heap over the empty server's, with the controllers running. */
  withControllersBytes: number;
  /** Heap over the empty server's after the same writes were replayed without controllers. */
  storedOnlyBytes: number;
  /** Bytes of the pods' stored JSON (a sanity check on the store's own size). */
  podJsonBytes: number;
}

async function measureInChild(deployments: number, replicas: number, nodes: number): Promise<ClusterMemoryResult> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const enc = new TextEncoder();
  await settle();
  const base = process.memoryUsage().heapUsed;
  const api = await createApiServer({ controllers: '*', cluster: { nodes, kubeletDelayMs: 0 }, historyWindowMs: HISTORY_MS });
  const controllers = api.controllers!;
  await controllers.runUntilIdle();
  for (let d = 0; d < deployments; d++) {
    const body = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: `d${d}` }, spec: { replicas, selector: { matchLabels: { app: `d${d}` } }, template: { metadata: { labels: { app: `d${d}` } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } } };
    const res = await api.handle({ method: 'POST', url: '/apis/apps/v1/namespaces/default/deployments', headers: { 'content-type': 'application/json' }, body: enc.encode(JSON.stringify(body)) });
    if (res.status !== 201) throw new Error(`create deployment: HTTP ${res.status}`);
    await controllers.runUntilIdle(10_000_000);
  }
  const listPods = async () => {
    const list = await api.handle({ method: 'GET', url: '/api/v1/pods', headers: { accept: 'application/json' } });
    if (list.body === undefined || isStream(list.body)) throw new Error('list pods: no body');
    const text = typeof list.body === 'string' ? list.body : new TextDecoder().decode(bodyBytes(list.body));
    return (JSON.parse(text).items ?? []) as { status?: { phase?: string } }[];
  };
  // A create that failed (a generated name that collided) is retried after a back-off on the
  // cluster clock, which runUntilIdle does not wait for: look again until every pod runs.
  let items = await listPods();
  let running = 0;
  for (let tries = 0; ; tries++) {
    running = items.filter((p) => p.status?.phase === 'Running').length;
    if (running === deployments * replicas || tries === 50) break;
    await new Promise((r) => setTimeout(r, 200));
    await controllers.runUntilIdle(10_000_000);
    items = await listPods();
  }
  if (running !== deployments * replicas) throw new Error(`${running} pods running, want ${deployments * replicas}`);
  const podJsonBytes = items.reduce((n, p) => n + JSON.stringify(p).length, 0);
  // The bench's own parsed list is no part of the cluster: the suspended function would keep it
  // alive through the measurement (a parsed copy of every pod, counted on the controllers' side).
  items = [];
  await settle();
  const withControllersBytes = process.memoryUsage().heapUsed - base;
  const writes = Object.fromEntries(await writeCounts(api));
  await api.close();
  return { pods: running, nodes, withControllersBytes, storedOnlyBytes: 0, podJsonBytes, writes } as ClusterMemoryResult & { writes: Record<string, number> };
}

async function measureFloorInChild(writes: Record<string, number>, pods: number, nodes: number): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await settle();
  const base = process.memoryUsage().heapUsed;
  const api = await createApiServer({ controllers: '', historyWindowMs: HISTORY_MS });
  await replayWrites(api, new Map(Object.entries(writes)), pods, nodes);
  await settle();
  const bytes = process.memoryUsage().heapUsed - base;
  await api.close();
  return bytes;
}

function child(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const self = fileURLToPath(import.meta.url);
    const proc = spawn(process.execPath, ['--expose-gc', '--max-old-space-size=4096', '--import', 'tsx', self, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.on('error', reject);
    proc.on('exit', (code) => (code === 0 ? resolve(out.trim().split('\n').pop()!) : reject(new Error(`cluster memory child exited ${code}: ${out}`))));
  });
}

export async function runClusterMemoryBench(deployments = 10, replicas = 1000, nodes = 100): Promise<ClusterMemoryResult> {
  const living = JSON.parse(await child(['--child', String(deployments), String(replicas), String(nodes)])) as ClusterMemoryResult & { writes: Record<string, number> };
  const storedOnlyBytes = Number(await child(['--floor', JSON.stringify(living.writes), String(living.pods), String(nodes)]));
  return { pods: living.pods, nodes, withControllersBytes: living.withControllersBytes, storedOnlyBytes, podJsonBytes: living.podJsonBytes };
}

export function formatClusterMemory(r: ClusterMemoryResult): string {
  const ratio = r.withControllersBytes / r.storedOnlyBytes;
  const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
  return `cluster memory: ${r.pods} pods on ${r.nodes} nodes: ${mb(r.withControllersBytes)} with the controllers, ${mb(r.storedOnlyBytes)} stored objects alone (pods' JSON ${mb(r.podJsonBytes)}); ${ratio.toFixed(2)}x (target <= ${CLUSTER_MEMORY_TARGET}x ${ratio <= CLUSTER_MEMORY_TARGET ? 'ok' : 'MISSED'})`;
}

if (process.argv[2] === '--floor') {
  void measureFloorInChild(JSON.parse(process.argv[3]) as Record<string, number>, Number(process.argv[4]), Number(process.argv[5])).then(
    (bytes) => {
      process.stdout.write(`${bytes}\n`);
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
} else if (process.argv[2] === '--child') {
  void measureInChild(Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5])).then(
    (r) => {
      process.stdout.write(`${JSON.stringify(r)}\n`);
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
} else if (import.meta.url === `file://${process.argv[1]}`) {
  void runClusterMemoryBench().then((r) => console.log(formatClusterMemory(r)));
}
