// What serving an object at a non-storage version costs: GET of a converted object vs GET of the
// same object at its storage version, over HTTP against the Node host (in-process, memory
// backend, one keep-alive socket), alternating blocks so load changes hit both series.
// - HorizontalPodAutoscaler stored at autoscaling/v1, read at autoscaling/v2 (metrics rebuilt
//   from the v1 fields and annotations) and at v2beta2;
// - EndpointSlice stored at discovery.k8s.io/v1, read at v1beta1 (topology, nodeName);
// - CronJob batch/v1beta1 vs v1 (same fields: no converter at all, for reference);
// - HPA v2 again over 600 objects round-robin, each revision converted once (at its create);
// - HPA v2 over 600 objects where every GET (of both series) follows an untimed PATCH through
//   autoscaling/v1, so each GET is the first read of a new revision written at the storage
//   version: the write converts it for the versions clients read (decision 0012).
// Target: conversion adds <= 10% (ratio <= 1.10). Prints numbers only, asserts nothing.
// Run alone: npx tsx bench/conversion.ts
import type { Agent } from 'node:http';
import { createApiServer, type ApiServer } from '../src/core/api';
import { startNodeHost } from '../src/hosts/node/server';
import { hit, makeAgent, quantile, sequential } from './http-client';

export interface ConversionCase {
  name: string;
  bytes: number;
  storageP50: number;
  convertedP50: number;
}

export interface ConversionResult {
  cases: ConversionCase[];
}

export interface ConversionOptions {
  samples?: number;
  warmup?: number;
  api?: ApiServer;
}

export const CONVERSION_TARGET = 1.1;

const NS = 'namespaces/default';

const hpaV2 = JSON.stringify({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'bench-hpa', labels: { app: 'bench' } },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    minReplicas: 2,
    maxReplicas: 10,
    metrics: [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } },
      { type: 'Pods', pods: { metric: { name: 'requests_per_second' }, target: { type: 'AverageValue', averageValue: '100' } } },
    ],
  },
});

const endpointSlice = JSON.stringify({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name: 'bench-eps', labels: { 'kubernetes.io/service-name': 'web' } },
  addressType: 'IPv4',
  ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
  endpoints: Array.from({ length: 8 }, (_, i) => ({
    addresses: [`10.0.0.${i + 1}`],
    conditions: { ready: true },
    nodeName: `node-${i % 3}`,
    zone: `zone-${i % 2}`,
    deprecatedTopology: { 'topology.kubernetes.io/region': 'r1' },
  })),
});

const cronJob = JSON.stringify({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name: 'bench-cj' },
  spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } } } } },
});

interface Spec {
  name: string;
  create: [path: string, body: string];
  storage: string;
  converted: string;
  /** Round-robin over this many copies named `<name>-<i>`. */
  copies?: number;
  /** Name of the copies when not `bench-hpa` (copies of two cases must not collide). */
  copyName?: string;
  /** Before each GET, an untimed merge patch of the object through the storage path. */
  writeFirst?: boolean;
}

const SPECS: Spec[] = [
  {
    name: 'HPA autoscaling/v2 vs v1 (storage)',
    create: [`/apis/autoscaling/v2/${NS}/horizontalpodautoscalers`, hpaV2],
    storage: `/apis/autoscaling/v1/${NS}/horizontalpodautoscalers/bench-hpa`,
    converted: `/apis/autoscaling/v2/${NS}/horizontalpodautoscalers/bench-hpa`,
  },
  {
    name: 'HPA autoscaling/v2beta2 vs v1 (storage)',
    create: [`/apis/autoscaling/v2/${NS}/horizontalpodautoscalers`, ''],
    storage: `/apis/autoscaling/v1/${NS}/horizontalpodautoscalers/bench-hpa`,
    converted: `/apis/autoscaling/v2beta2/${NS}/horizontalpodautoscalers/bench-hpa`,
  },
  {
    name: 'EndpointSlice discovery v1beta1 vs v1 (storage)',
    create: [`/apis/discovery.k8s.io/v1/${NS}/endpointslices`, endpointSlice],
    storage: `/apis/discovery.k8s.io/v1/${NS}/endpointslices/bench-eps`,
    converted: `/apis/discovery.k8s.io/v1beta1/${NS}/endpointslices/bench-eps`,
  },
  {
    name: 'HPA autoscaling/v2 vs v1, 600 objects',
    create: [`/apis/autoscaling/v2/${NS}/horizontalpodautoscalers`, hpaV2],
    storage: `/apis/autoscaling/v1/${NS}/horizontalpodautoscalers/bench-hpa`,
    converted: `/apis/autoscaling/v2/${NS}/horizontalpodautoscalers/bench-hpa`,
    copies: 600,
  },
  {
    name: 'HPA autoscaling/v2 vs v1, 600 objects, each GET after a write through v1',
    create: [`/apis/autoscaling/v2/${NS}/horizontalpodautoscalers`, hpaV2],
    storage: `/apis/autoscaling/v1/${NS}/horizontalpodautoscalers/bench-hpw`,
    converted: `/apis/autoscaling/v2/${NS}/horizontalpodautoscalers/bench-hpw`,
    copies: 600,
    copyName: 'bench-hpw',
    writeFirst: true,
  },
  {
    name: 'CronJob batch/v1beta1 vs v1 (no converter)',
    create: [`/apis/batch/v1/${NS}/cronjobs`, cronJob],
    storage: `/apis/batch/v1/${NS}/cronjobs/bench-cj`,
    converted: `/apis/batch/v1beta1/${NS}/cronjobs/bench-cj`,
  },
];

async function getOk(agent: Agent, base: string, path: string): Promise<number> {
  const r = await hit(agent, base, 'GET', path, undefined, 64);
  if (r.status !== 200) throw new Error(`GET ${path}: HTTP ${r.status} ${r.body}`);
  return r.bytes;
}

/** Untimed steps run before each sample of one series (e.g. a write of the object it reads). */
interface Before {
  a: () => Promise<unknown>;
  b: () => Promise<unknown>;
}

/** `n` timed runs of `op`, each after an untimed `before` when given. */
async function timed(n: number, op: () => Promise<unknown>, before?: () => Promise<unknown>): Promise<number[]> {
  if (!before) return sequential(n, op);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    await before();
    const t0 = performance.now();
    await op();
    out.push(performance.now() - t0);
  }
  return out;
}

/** Two latency series in alternating blocks (this VM is shared). */
async function interleaved(samples: number, a: () => Promise<unknown>, b: () => Promise<unknown>, before?: Before, blocks = 10): Promise<[number[], number[]]> {
  const as: number[] = [];
  const bs: number[] = [];
  const per = Math.ceil(samples / blocks);
  for (let k = 0; k < blocks; k++) {
    as.push(...(await timed(per, a, before?.a)));
    bs.push(...(await timed(per, b, before?.b)));
  }
  return [as, bs];
}

export async function runConversionBench(opts: ConversionOptions = {}): Promise<ConversionResult> {
  const samples = opts.samples ?? 2000;
  const warmup = opts.warmup ?? 300;
  const api = opts.api ?? (await createApiServer());
  const host = await startNodeHost({ port: 0, host: '127.0.0.1', api });
  const agent = makeAgent(1);
  try {
    const cases: ConversionCase[] = [];
    for (const spec of SPECS) {
      const [path, body] = spec.create;
      const copies = spec.copies ?? 0;
      for (let i = 0; i < (body ? Math.max(copies, 1) : 0); i++) {
        const text = copies ? body.replace('"bench-hpa"', `"${spec.copyName ?? 'bench-hpa'}-${i}"`) : body;
        const created = await hit(agent, host.url, 'POST', path, text, true);
        if (created.status !== 201) throw new Error(`create for ${spec.name}: HTTP ${created.status} ${created.body.slice(0, 300)}`);
      }
      let si = 0;
      let ci = 0;
      let mark = 0;
      const write = async (i: number) => {
        const patch = JSON.stringify({ metadata: { labels: { mark: String(mark++) } } });
        const r = await hit(agent, host.url, 'PATCH', `${spec.storage}-${i}`, patch, 64, 'application/merge-patch+json');
        if (r.status !== 200) throw new Error(`PATCH for ${spec.name}: HTTP ${r.status} ${r.body}`);
      };
      const series = (path: string, next: () => number) =>
        copies ? () => getOk(agent, host.url, `${path}-${next() % copies}`) : () => getOk(agent, host.url, path);
      const storage = series(spec.storage, () => si++);
      const converted = series(spec.converted, () => ci++);
      const bytes = await converted();
      await sequential(warmup, storage);
      await sequential(warmup, converted);
      // With writeFirst, each GET reads a revision no GET has seen: the series' next object is
      // written just before it is read.
      const before = spec.writeFirst ? { a: () => write(si % copies), b: () => write(ci % copies) } : undefined;
      const [s, c] = await interleaved(samples, storage, converted, before);
      cases.push({ name: spec.name, bytes, storageP50: quantile(s, 0.5), convertedP50: quantile(c, 0.5) });
    }
    return { cases };
  } finally {
    agent.destroy();
    await host.close();
    if (!opts.api) await api.close();
  }
}

const ms = (v: number) => `${v.toFixed(3)} ms`;

export function formatConversion(r: ConversionResult): string {
  const rows = [['measure', 'converted', 'storage', 'ratio', 'target']];
  for (const c of r.cases) {
    const ratio = c.convertedP50 / c.storageP50;
    rows.push([`GET p50, ${c.name} (${c.bytes} B)`, ms(c.convertedP50), ms(c.storageP50), `${ratio.toFixed(2)}x`, `<= ${CONVERSION_TARGET.toFixed(2)}x ${ratio <= CONVERSION_TARGET ? 'ok' : 'MISSED'}`]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

if (process.argv[1] && /bench[\\/]conversion\.ts$/.test(process.argv[1])) {
  runConversionBench()
    .then((r) => console.log(formatConversion(r)))
    .catch((err: Error) => {
      console.log(`conversion: FAILED: ${err.message}`);
      process.exitCode = 1;
    });
}
