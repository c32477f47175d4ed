// Issue 25's cluster rows in headless Chromium, the browser side of bench/cluster.ts (decision
// 0045). Prints numbers; asserts nothing.
//   - Rollout: the Service Worker's cluster (IndexedDB, `--controllers '*'`, 10 nodes, kubelet
//     delay 0) takes a 1,000-replica Deployment from its create to status.availableReplicas =
//     1,000, timed in the page; the floor is the same writes (counted from the worker's /metrics)
//     issued by a bare sequential fetch loop in the page against the same worker with the cluster
//     off, over a fresh store (target <= 1.5x, as the Node row).
//   - Idle controllers: create and GET p50 with the cluster on (defaults: 3 nodes renewing Leases,
//     every controller watching) against the cluster off, in alternating blocks (target <= 1.05x).
//   npx tsx bench/browser/cluster.ts [--replicas 1000] [--runs 2]
import type { Page } from 'playwright-core';
import { buildAndServe, launchBrowser, openApp } from '../../e2e/browser/harness';
import { IDLE_TARGET, ROLLOUT_TARGET, deployment, minus, runningStatus, writeCountsOf } from '../cluster';
import { CONFIGMAP } from '../fixtures';

const flag = (name: string, def: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const REPLICAS = flag('--replicas', 1000);
const RUNS = flag('--runs', 2);
const NODES = 10;

/** A request from the page (relative to the app's base), failing on an error status. */
async function pageCall(page: Page, method: string, path: string, body?: unknown): Promise<string> {
  const { status, text } = await page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, { method, headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, text: await res.text() };
    },
    { method, path, body },
  );
  if (status >= 300) throw new Error(`${method} ${path}: ${status} ${text.slice(0, 200)}`);
  return text;
}

/** A fresh store with these cluster settings (a settings change restarts the worker's API). */
async function freshCluster(page: Page, settings: Record<string, unknown>): Promise<void> {
  await pageCall(page, 'PUT', '__playground/settings', { clusterOn: false, controllers: '*', nodes: 3, kubeletDelay: '1s', clockSpeed: 1, ...settings });
  await pageCall(page, 'POST', '__playground/reset');
}

async function readyNodes(page: Page): Promise<number> {
  const nodes = JSON.parse(await pageCall(page, 'GET', 'api/v1/nodes')).items as any[];
  return nodes.filter((n) => n.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True')).length;
}

interface Rollout {
  controllersMs: number;
  floorMs: number;
  floorWrites: number;
  writes: Record<string, number>;
}

async function rollout(page: Page): Promise<Rollout> {
  await freshCluster(page, { clusterOn: true, nodes: NODES, kubeletDelay: '0s' });
  while ((await readyNodes(page)) < NODES) await page.waitForTimeout(100);
  // Registration and first Lease writes done, as the Node row's runUntilIdle before it starts.
  await page.waitForTimeout(2000);
  const before = writeCountsOf(await pageCall(page, 'GET', 'metrics'));
  const controllersMs = await page.evaluate(
    async ({ body, replicas }) => {
      const t0 = performance.now();
      const created = await fetch('apis/apps/v1/namespaces/default/deployments', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      if (created.status !== 201) throw new Error(`create: ${created.status}`);
      for (;;) {
        const d = await (await fetch('apis/apps/v1/namespaces/default/deployments/big')).json();
        if (d.status?.availableReplicas === replicas) return performance.now() - t0;
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    { body: deployment(REPLICAS), replicas: REPLICAS },
  );
  const writes = minus(writeCountsOf(await pageCall(page, 'GET', 'metrics')), before);
  await freshCluster(page, { clusterOn: false });
  const floor = await page.evaluate(
    async ({ writes, replicas, nodes, statusSource, deploymentBody }) => {
      const runningStatus = new Function(`return (${statusSource})`)() as (node: number, host: number) => unknown;
      const call = async (method: string, url: string, body: unknown, contentType = 'application/json') => {
        const res = await fetch(url, { method, headers: { 'Content-Type': contentType }, body: body === undefined ? undefined : JSON.stringify(body) });
        const text = await res.text();
        if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 200)}`);
        return text ? JSON.parse(text) : {};
      };
      // The floor's writes, as bench/cluster.ts replayWrites issues them in Node.
      for (let n = 0; n < nodes; n++) await call('POST', 'api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: `node-${n + 1}` } });
      const template = { metadata: { labels: { app: 'big' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } };
      const pods = 'api/v1/namespaces/default/pods';
      const statusPerPod = Math.round((writes['PATCH pods/status'] ?? 0) / replicas);
      let total = 2;
      const t0 = performance.now();
      await call('POST', 'apis/apps/v1/namespaces/default/deployments', { ...deploymentBody, spec: { ...deploymentBody.spec, replicas: 0 } });
      let rs = await call('POST', 'apis/apps/v1/namespaces/default/replicasets', { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'big-1' }, spec: { replicas: 0, selector: { matchLabels: { app: 'big' } }, template } });
      let d = await call('GET', 'apis/apps/v1/namespaces/default/deployments/big', undefined);
      for (let i = 0; i < replicas; i++) {
        const name = `big-${i}`;
        const node = i % nodes;
        await call('POST', pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'big' } }, spec: template.spec });
        await call('POST', `${pods}/${name}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Node', name: `node-${node + 1}` } });
        for (let k = 0; k < statusPerPod; k++) await call('PATCH', `${pods}/${name}/status`, { status: runningStatus(node, 2 + Math.floor(i / nodes)) }, 'application/merge-patch+json');
        total += 2 + statusPerPod;
      }
      for (let e = 0; e < (writes['POST events'] ?? 0); e++, total++) {
        await call('POST', 'api/v1/namespaces/default/events', { apiVersion: 'v1', kind: 'Event', metadata: { name: `big.${e}` }, involvedObject: { kind: 'Pod', name: 'big-0', namespace: 'default' }, reason: 'Scheduled', message: 'bench', type: 'Normal', source: { component: 'bench' } });
      }
      for (let k = 0; k < (writes['PUT replicasets/status'] ?? 0); k++, total++) rs = await call('PUT', 'apis/apps/v1/namespaces/default/replicasets/big-1/status', { ...rs, status: { replicas: k, observedGeneration: 1 } });
      for (let k = 0; k < (writes['PUT deployments/status'] ?? 0); k++, total++) d = await call('PUT', 'apis/apps/v1/namespaces/default/deployments/big/status', { ...d, status: { replicas: k, observedGeneration: 1 } });
      return { ms: performance.now() - t0, total };
    },
    { writes: Object.fromEntries(writes), replicas: REPLICAS, nodes: NODES, statusSource: runningStatus.toString(), deploymentBody: deployment(REPLICAS) as any },
  );
  return { controllersMs, floorMs: floor.ms, floorWrites: floor.total, writes: Object.fromEntries(writes) };
}

/** Sequential GETs or creates in the page; their times. */
function timed(page: Page, kind: 'get' | 'create', n: number, prefix: string): Promise<number[]> {
  return page.evaluate(
    async ({ kind, n, prefix, cmTemplate }) => {
      const cm = new Function('name', `return (${cmTemplate})(name)`) as (name: string) => string;
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        const res =
          kind === 'get'
            ? await fetch('api/v1/namespaces/default/configmaps/bench-get')
            : await fetch('api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: cm(`${prefix}-${i}`) });
        await res.text();
        times.push(performance.now() - t0);
      }
      return times;
    },
    { kind, n, prefix, cmTemplate: CONFIGMAP.toString() },
  );
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Cluster off and on in alternating blocks over one store (each switch restarts the worker's API, then warms up). */
async function idle(page: Page, blocks = 4, per = 250): Promise<{ getOff: number; getOn: number; createOff: number; createOn: number }> {
  await freshCluster(page, { clusterOn: false });
  await pageCall(page, 'POST', 'api/v1/namespaces/default/configmaps', JSON.parse(CONFIGMAP('bench-get')));
  const series = { getOff: [] as number[], getOn: [] as number[], createOff: [] as number[], createOn: [] as number[] };
  for (let k = 0; k < blocks; k++) {
    for (const on of [false, true]) {
      await pageCall(page, 'PUT', '__playground/settings', { clusterOn: on });
      if (on) while ((await readyNodes(page)) < 3) await page.waitForTimeout(100);
      await timed(page, 'get', 200, 'warm');
      await timed(page, 'create', 100, `warm-${k}-${on}`);
      series[on ? 'getOn' : 'getOff'].push(...(await timed(page, 'get', per, '')));
      series[on ? 'createOn' : 'createOff'].push(...(await timed(page, 'create', per, `c-${k}-${on}`)));
    }
  }
  return { getOff: p50(series.getOff), getOn: p50(series.getOn), createOff: p50(series.createOff), createOn: p50(series.createOn) };
}

async function main(): Promise<void> {
  const site = await buildAndServe('/', { isolated: true });
  const browser = await launchBrowser();
  try {
    const { page } = await openApp(await browser.newContext(), site.url);
    // tsx keeps function names with a `__name` helper that the page's copy of a callback lacks.
    await page.evaluate('globalThis.__name = (f) => f');
    for (let run = 1; run <= RUNS; run++) {
      const r = await rollout(page);
      const ratio = r.controllersMs / r.floorMs;
      console.log(
        `run ${run} rollout (Chromium, IndexedDB): ${REPLICAS}-replica Deployment available on ${NODES} nodes in ${r.controllersMs.toFixed(0)} ms; the same ${r.floorWrites} writes by a bare loop ${r.floorMs.toFixed(0)} ms; ${ratio.toFixed(2)}x (target <= ${ROLLOUT_TARGET}x ${ratio <= ROLLOUT_TARGET ? 'ok' : 'MISSED'})`,
      );
      console.log(`  writes: ${JSON.stringify(r.writes)}`);
      const i = await idle(page);
      const g = i.getOn / i.getOff;
      const c = i.createOn / i.createOff;
      console.log(
        `run ${run} idle controllers (Chromium, cluster on vs off): GET p50 ${i.getOn.toFixed(3)} vs ${i.getOff.toFixed(3)} ms = ${g.toFixed(2)}x; create p50 ${i.createOn.toFixed(3)} vs ${i.createOff.toFixed(3)} ms = ${c.toFixed(2)}x (target <= ${IDLE_TARGET}x ${Math.max(g, c) <= IDLE_TARGET ? 'ok' : 'MISSED'})`,
      );
    }
  } finally {
    await browser.close();
    await site.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
