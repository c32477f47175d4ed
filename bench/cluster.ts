// The simulated cluster's cost (issue 25, decision 0033). Prints numbers; asserts nothing.
//   - Idle controllers: create and GET latency of the Node host with `--controllers '*'` (three
//     simulated nodes renewing Leases, every controller watching) against the same host with
//     none, measured in alternating blocks in one process (target <= 1.05x).
//   - Rollout: a 1,000-replica Deployment with zero kubelet delay, from the create until
//     status.availableReplicas is 1,000, against the floor: the same number of API writes of the
//     same kinds (counted from the server's metrics: pod creates, bindings, pod status writes,
//     events, ReplicaSet and Deployment status updates) with the same identities and bodies,
//     issued by a bare sequential loop against an API with no controllers (target <= 1.5x).
// Both sides run in this process, straight through the API's handle() for the rollout (as the
// controllers do), over HTTP for the idle latencies (as a client sees them).
import { createApiServer, type ApiServer } from '../src/core/api';
import type { ApiRequest } from '../src/core/meta/types';
import { startNodeHost } from '../src/hosts/node/server';
import { hit, makeAgent, quantile, sequential } from './http-client';
import { replayWrites } from './cluster-floor';

export { replayWrites };

export const IDLE_TARGET = 1.05;
export const ROLLOUT_TARGET = 1.5;

export interface ClusterIdleResult {
  getP50: number;
  getIdleP50: number;
  createP50: number;
  createIdleP50: number;
}

export interface RolloutResult {
  replicas: number;
  nodes: number;
  controllersMs: number;
  floorMs: number;
  floorWrites: number;
  /** CPU time (user + system) of each side: on a shared machine, where wall time swings with the neighbours' load, the steadier ratio. */
  controllersCpuMs: number;
  floorCpuMs: number;
  /** The controllers' writes by verb and resource during the rollout. */
  writes: Record<string, number>;
  /** Wall and CPU ratios of every measured round (the fields above are the median round's). */
  rounds: Array<{ wall: number; cpu: number }>;
}

const utf8 = new TextEncoder();
const CM = '/api/v1/namespaces/default/configmaps';

function configMap(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data: { greeting: 'hello' } });
}

export async function runClusterIdleBench(samples = 2000, blocks = 10): Promise<ClusterIdleResult> {
  const plain = await createApiServer({ controllers: '' });
  const living = await createApiServer({ controllers: '*' });
  await living.controllers!.runUntilIdle();
  const hosts = [await startNodeHost({ port: 0, host: '127.0.0.1', api: plain }), await startNodeHost({ port: 0, host: '127.0.0.1', api: living })];
  const agent = makeAgent(1);
  try {
    for (const h of hosts) await hit(agent, h.url, 'POST', CM, configMap('bench-get'));
    const series: number[][] = [[], [], [], []];
    const per = Math.ceil(samples / blocks);
    for (const [i, h] of hosts.entries()) await sequential(300, () => hit(agent, h.url, 'GET', `${CM}/bench-get`));
    for (let k = 0; k < blocks; k++) {
      for (const [i, h] of hosts.entries()) {
        series[i].push(...(await sequential(per, () => hit(agent, h.url, 'GET', `${CM}/bench-get`))));
        series[2 + i].push(...(await sequential(per, (n) => hit(agent, h.url, 'POST', CM, configMap(`c-${k}-${n}`)))));
      }
    }
    return { getIdleP50: quantile(series[0], 0.5), getP50: quantile(series[1], 0.5), createIdleP50: quantile(series[2], 0.5), createP50: quantile(series[3], 0.5) };
  } finally {
    agent.destroy();
    for (const h of hosts) await h.close();
    await plain.close();
    await living.close();
  }
}

async function call(api: ApiServer, method: string, url: string, body: unknown, contentType = 'application/json'): Promise<Record<string, any>> {
  const req: ApiRequest = { method, url, headers: { 'content-type': contentType, accept: 'application/json' }, body: utf8.encode(JSON.stringify(body)) };
  const res = await api.handle(req);
  const text = typeof res.body === 'string' ? res.body : '';
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : {};
}

export function deployment(replicas: number): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'big' },
    spec: { replicas, selector: { matchLabels: { app: 'big' } }, template: { metadata: { labels: { app: 'big' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
  };
}

/** A Running, Ready pod status as the kubelet reports it. */
export function runningStatus(node: number, host: number): Record<string, unknown> {
  const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const ip = `10.244.${node}.${host}`;
  const cond = (type: string) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: at });
  return {
    phase: 'Running',
    conditions: [cond('Initialized'), cond('Ready'), cond('ContainersReady'), cond('PodScheduled')],
    hostIP: `172.18.0.${node + 2}`,
    podIP: ip,
    podIPs: [{ ip }],
    startTime: at,
    containerStatuses: [{ name: 'web', state: { running: { startedAt: at } }, lastState: {}, ready: true, restartCount: 0, image: 'docker.io/library/nginx:latest', imageID: 'docker.io/library/nginx@sha256:0', containerID: `containerd://${node}-${host}`, started: true }],
  };
}

/** Writes by (verb, resource, subresource), from the server's apiserver_request_total. */
export async function writeCounts(api: ApiServer): Promise<Map<string, number>> {
  const res = await api.handle({ method: 'GET', url: '/metrics', headers: {} });
  return writeCountsOf(String(res.body));
}

/** writeCounts from the text of /metrics (the browser bench reads it through the worker). */
export function writeCountsOf(metrics: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of metrics.split('\n')) {
    const m = /^apiserver_request_total\{(.*)\} (\d+)$/.exec(line);
    if (!m) continue;
    const label = (k: string) => new RegExp(`${k}="([^"]*)"`).exec(m[1])?.[1] ?? '';
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(label('verb'))) continue;
    const key = `${label('verb')} ${label('resource')}${label('subresource') ? '/' + label('subresource') : ''}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(m[2]));
  }
  return counts;
}

export function minus(a: Map<string, number>, b: Map<string, number>): Map<string, number> {
  return new Map([...a].map(([k, v]) => [k, v - (b.get(k) ?? 0)] as [string, number]).filter(([, v]) => v > 0));
}

/**
 * The floor: the writes the controllers made, issued by a bare sequential loop against an API
 * with no controllers, with the controllers' identities and bodies (cluster-floor.ts).
 */
async function floorRun(writes: Map<string, number>, replicas: number, nodes: number): Promise<{ ms: number; total: number; cpuMs: number }> {
  const api = await createApiServer({ controllers: '' });
  try {
    const cpu0 = process.cpuUsage();
    const r = await replayWrites(api, writes, replicas, nodes);
    return { ...r, cpuMs: cpuMs(process.cpuUsage(cpu0)) };
  } finally {
    await api.close();
  }
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

/**
 * The rollout row. Both sides share the API's code, and the controllers' run comes first (the
 * floor needs its write counts), so a cold process would make the controllers pay the JIT's
 * warm-up alone: a rollout a tenth the size, with its own floor, runs first and is not counted.
 * Then `rounds` pairs, each side right after the other; this VM's speed moves by a third from
 * one minute to the next, so the round with the median wall ratio is the answer.
 */
export async function runRolloutBench(replicas = 1000, nodes = 10, rounds = 3): Promise<RolloutResult> {
  await rolloutOnce(Math.max(10, Math.round(replicas / 10)), nodes);
  const results: RolloutResult[] = [];
  for (let k = 0; k < rounds; k++) results.push(await rolloutOnce(replicas, nodes));
  const wall = (r: RolloutResult) => r.controllersMs / r.floorMs;
  const median = [...results].sort((a, b) => wall(a) - wall(b))[Math.floor(results.length / 2)]!;
  return { ...median, rounds: results.map((r) => ({ wall: wall(r), cpu: r.controllersCpuMs / r.floorCpuMs })) };
}

async function rolloutOnce(replicas: number, nodes: number): Promise<RolloutResult> {
  // The controllers' run: the Deployment's create until every replica is available.
  const living = await createApiServer({ controllers: '*', cluster: { nodes, kubeletDelayMs: 0 } });
  let controllersMs: number;
  let controllersCpuMs: number;
  let writes: Map<string, number>;
  try {
    await living.controllers!.runUntilIdle();
    const before = await writeCounts(living);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await call(living, 'POST', '/apis/apps/v1/namespaces/default/deployments', deployment(replicas));
    for (;;) {
      await living.controllers!.runUntilIdle(1_000_000);
      const d = await call(living, 'GET', '/apis/apps/v1/namespaces/default/deployments/big', undefined);
      if (d.status?.availableReplicas === replicas) break;
    }
    controllersMs = performance.now() - t0;
    controllersCpuMs = cpuMs(process.cpuUsage(cpu0));
    writes = minus(await writeCounts(living), before);
  } finally {
    await living.close();
  }
  const floor = await floorRun(writes, replicas, nodes);
  return { replicas, nodes, controllersMs, floorMs: floor.ms, floorWrites: floor.total, controllersCpuMs, floorCpuMs: floor.cpuMs, writes: Object.fromEntries(writes), rounds: [] };
}

const ms = (v: number, digits = 3) => `${v.toFixed(digits)} ms`;

export function formatClusterIdle(r: ClusterIdleResult): string {
  const g = r.getP50 / r.getIdleP50;
  const c = r.createP50 / r.createIdleP50;
  return [
    `idle controllers (--controllers '*' vs none, Node host, HTTP):`,
    `  GET ConfigMap p50    ${ms(r.getP50)} vs ${ms(r.getIdleP50)}  ${g.toFixed(3)}x (target <= ${IDLE_TARGET}x ${g <= IDLE_TARGET ? 'ok' : 'MISSED'})`,
    `  create ConfigMap p50 ${ms(r.createP50)} vs ${ms(r.createIdleP50)}  ${c.toFixed(3)}x (target <= ${IDLE_TARGET}x ${c <= IDLE_TARGET ? 'ok' : 'MISSED'})`,
  ].join('\n');
}

export function formatRollout(r: RolloutResult): string {
  const ratio = r.controllersMs / r.floorMs;
  const writes = Object.entries(r.writes).map(([k, v]) => `${k} ${v}`).join(', ');
  return [
    `rollout: ${r.replicas}-replica Deployment available on ${r.nodes} nodes in ${ms(r.controllersMs, 0)}; the same ${r.floorWrites} writes by a bare loop ${ms(r.floorMs, 0)}; ${ratio.toFixed(2)}x (target <= ${ROLLOUT_TARGET}x ${ratio <= ROLLOUT_TARGET ? 'ok' : 'MISSED'})`,
    `  CPU time: ${ms(r.controllersCpuMs, 0)} vs ${ms(r.floorCpuMs, 0)}; ${(r.controllersCpuMs / r.floorCpuMs).toFixed(2)}x`,
    `  every round (wall, CPU): ${r.rounds.map((k) => `${k.wall.toFixed(2)}x ${k.cpu.toFixed(2)}x`).join('; ')}`,
    `  the controllers' writes: ${writes}`,
  ].join('\n');
}

// `npx tsx bench/cluster.ts` runs these alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  void (async () => {
    console.log(formatClusterIdle(await runClusterIdleBench()));
    console.log(formatRollout(await runRolloutBench()));
  })();
}
