// Server-side apply through the Node host (in-process, memory backend, one keep-alive socket):
// - apply that creates a Deployment-sized object (2 containers, env, probes) vs a POST create of
//   the same object (target ≤ 1.3×);
// - a no-op re-apply vs a GET of the same object (target ≤ 1.3×), checking that no write
//   happened: the object's and the store's resourceVersion stay where they were.
// Ratios of p50 latencies from the same run; prints numbers only, asserts nothing.
// Run alone: npx tsx bench/apply.ts
import { Agent, request } from 'node:http';
import { createApiServer, type ApiServer } from '../src/core/api';
import { startNodeHost } from '../src/hosts/node/server';
import { makeAgent, quantile, sequential } from './http-client';

export interface ApplyResult {
  objectBytes: number;
  applyCreateP50: number;
  createP50: number;
  noopApplyP50: number;
  getP50: number;
  /** A re-apply that changes one field (for reference; no target). */
  changeApplyP50: number;
  /** resourceVersion of the object and of the collection before and after the no-op series. */
  noWrite: boolean;
}

export interface ApplyOptions {
  samples?: number;
  warmup?: number;
  api?: ApiServer;
}

const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
const APPLY = 'application/apply-patch+yaml';

function container(name: string, image: string) {
  return {
    name,
    image,
    args: ['--port=8080', '--log-level=info'],
    ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
    env: Array.from({ length: 6 }, (_, i) => ({ name: `SETTING_${i}`, value: `value-${i}` })),
    resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
    livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 5, periodSeconds: 10 },
    readinessProbe: { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 5 },
  };
}

function deployment(name: string, image = 'app:1'): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: 'bench', tier: 'web' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'bench' } },
      template: {
        metadata: { labels: { app: 'bench', tier: 'web' } },
        spec: { containers: [container('app', image), container('sidecar', 'proxy:1')] },
      },
    },
  });
}

interface Reply {
  status: number;
  body: string;
}

/** One request on the keep-alive agent with an explicit content type (http-client's hit sends JSON only). */
function send(agent: Agent, base: string, method: string, path: string, body?: string, contentType = 'application/json'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) {
      headers['Content-Type'] = contentType;
      headers['Content-Length'] = String(Buffer.byteLength(body));
    }
    const req = request(base + path, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function expectStatus(r: Reply, want: number, what: string): Reply {
  if (r.status !== want) throw new Error(`${what}: expected HTTP ${want}, got ${r.status} ${r.body.slice(0, 300)}`);
  return r;
}

const rvOf = (r: Reply): string => JSON.parse(r.body).metadata.resourceVersion;

export async function runApplyBench(opts: ApplyOptions = {}): Promise<ApplyResult> {
  const samples = opts.samples ?? 600;
  const warmup = opts.warmup ?? 150;
  const api = opts.api ?? (await createApiServer());
  const host = await startNodeHost({ port: 0, host: '127.0.0.1', api });
  const agent = makeAgent(1);
  const applyUrl = (name: string, extra = '') => `${DEPLOY}/${name}?fieldManager=bench${extra}`;
  try {
    // Every op is checked: a series of errors would look fast.
    const create = (prefix: string) => async (i: number) => expectStatus(await send(agent, host.url, 'POST', DEPLOY, deployment(`${prefix}-${i}`)), 201, 'create');
    const applyCreate = (prefix: string) => async (i: number) => expectStatus(await send(agent, host.url, 'PATCH', applyUrl(`${prefix}-${i}`), deployment(`${prefix}-${i}`), APPLY), 201, 'apply (create)');
    await sequential(warmup, create('warm-c'));
    await sequential(warmup, applyCreate('warm-a'));
    const createP50 = quantile(await sequential(samples, create('c')), 0.5);
    const applyCreateP50 = quantile(await sequential(samples, applyCreate('a')), 0.5);

    const target = 'bench-noop';
    const first = expectStatus(await send(agent, host.url, 'PATCH', applyUrl(target), deployment(target), APPLY), 201, 'first apply');
    const get = async () => expectStatus(await send(agent, host.url, 'GET', `${DEPLOY}/${target}`), 200, 'get');
    const noop = async () => expectStatus(await send(agent, host.url, 'PATCH', applyUrl(target), deployment(target), APPLY), 200, 'no-op apply');
    const storeRv = async () => rvOf(expectStatus(await send(agent, host.url, 'GET', `${DEPLOY}?limit=1`), 200, 'list'));
    const rvBefore = rvOf(first);
    const storeBefore = await storeRv();
    await sequential(warmup, get);
    await sequential(warmup, noop);
    const getP50 = quantile(await sequential(samples, get), 0.5);
    const noopApplyP50 = quantile(await sequential(samples, noop), 0.5);
    const noWrite = rvOf(await get()) === rvBefore && (await storeRv()) === storeBefore;

    // Alternate two images so every apply really changes the object.
    const change = async (i: number) => expectStatus(await send(agent, host.url, 'PATCH', applyUrl(target), deployment(target, i % 2 ? 'app:2' : 'app:3'), APPLY), 200, 'changing apply');
    await sequential(warmup, change);
    const changeApplyP50 = quantile(await sequential(samples, change), 0.5);

    return { objectBytes: Buffer.byteLength(first.body), applyCreateP50, createP50, noopApplyP50, getP50, changeApplyP50, noWrite };
  } finally {
    agent.destroy();
    await host.close();
    await api.close();
  }
}

const ms = (v: number) => `${v.toFixed(3)} ms`;

export function formatApply(r: ApplyResult): string {
  const createRatio = r.applyCreateP50 / r.createP50;
  const noopRatio = r.noopApplyP50 / r.getP50;
  const rows = [
    ['measure', 'apply', 'baseline', 'ratio', 'target'],
    [`apply-create vs create, Deployment p50 (${r.objectBytes} B)`, ms(r.applyCreateP50), ms(r.createP50), `${createRatio.toFixed(2)}x`, `<= 1.3x ${createRatio <= 1.3 ? 'ok' : 'MISSED'}`],
    ['no-op re-apply vs get p50', ms(r.noopApplyP50), ms(r.getP50), `${noopRatio.toFixed(2)}x`, `<= 1.3x ${noopRatio <= 1.3 ? 'ok' : 'MISSED'}`],
    ['no-op re-apply wrote nothing (resourceVersion unchanged)', r.noWrite ? 'yes' : 'NO', '', '', r.noWrite ? 'ok' : 'MISSED'],
    ['changing re-apply p50 (reference)', ms(r.changeApplyP50), '', '', ''],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()).join('\n');
}

// `npx tsx bench/apply.ts` runs it alone.
if (process.argv[1] && /bench[\\/]apply\.ts$/.test(process.argv[1])) {
  runApplyBench()
    .then((r) => console.log(formatApply(r)))
    .catch((err: Error) => {
      console.log(`apply: FAILED: ${err.message}`);
      process.exitCode = 1;
    });
}
