// How much slower the API core's create gets when it runs after a pause instead of right after the
// previous create: the same request, in process, on the memory backend (no IndexedDB, no fetch).
// A browser create always runs after a pause (the worker waits ~2–3 ms for the page and for
// IndexedDB between creates), while its floors T and P run little code of ours. On a shared VM
// the caches a create's code and data need are cold again after a few milliseconds even when this
// thread keeps its core busy: the busy pause spins on a tight loop, which evicts nothing itself.
// bench/browser/run.ts records these numbers beside its rows so a run's create ratios can be read
// against the machine they ran on.
//   npx tsx bench/core-pause.ts
import { createApiServer } from '../src/core/api';
import { CONFIGMAP, DEPLOYMENT } from './fixtures';
import { quantile } from './http-client';

/** Untimed creates first: the timed ones measure the optimised code (as the browser bench does). */
const WARMUP = 6000;
const SAMPLES = 400;

export interface CorePause {
  kind: string;
  /** p50 µs of one create started right after the previous one settled. */
  backToBackUs: number;
  /** p50 µs after a 3 ms setTimeout (the thread idle). */
  afterIdleUs: number;
  /** p50 µs after 3 ms spinning on a tight loop (the thread busy, its caches untouched by us). */
  afterBusyUs: number;
}

const encoder = new TextEncoder();
const PAUSE_MS = 3;

export async function measureCorePause(): Promise<CorePause[]> {
  const server = await createApiServer();
  const kinds = [
    { kind: 'ConfigMap', url: '/api/v1/namespaces/default/configmaps', body: CONFIGMAP },
    { kind: 'Deployment', url: '/apis/apps/v1/namespaces/default/deployments', body: DEPLOYMENT },
  ];
  const results: CorePause[] = [];
  for (const { kind, url, body } of kinds) {
    let n = 0;
    const create = async (): Promise<number> => {
      const req = { method: 'POST', url, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: encoder.encode(body(`pause-${n++}`)) };
      const t0 = performance.now();
      const res = await server.handle(req);
      const us = (performance.now() - t0) * 1000;
      if (res.status !== 201) throw new Error(`create ${kind}: status ${res.status}`);
      return us;
    };
    for (let i = 0; i < WARMUP; i++) await create();
    const backToBack: number[] = [];
    const afterIdle: number[] = [];
    const afterBusy: number[] = [];
    // Interleaved, so a change in the machine's load lands on all three series.
    for (let i = 0; i < SAMPLES; i++) {
      backToBack.push(await create());
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      afterIdle.push(await create());
      spin(PAUSE_MS);
      afterBusy.push(await create());
    }
    results.push({ kind, backToBackUs: median(backToBack), afterIdleUs: median(afterIdle), afterBusyUs: median(afterBusy) });
  }
  await server.close();
  return results;
}

/** Keeps the thread busy for `ms` with a loop whose code and data fit in a few cache lines. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) for (let i = 0; i < 1000; i++) x = (x * 31 + i) | 0;
  if (x === 0.5) console.log(x); // never true: keeps the loop from being optimised away
}

function median(xs: number[]): number {
  return Math.round(quantile(xs, 0.5));
}

/** `ConfigMap 57 µs back to back, 139 µs after 3 ms idle, 111 µs after 3 ms busy`. */
export function describeCorePause(r: CorePause): string {
  return `${r.kind} ${r.backToBackUs} µs back to back, ${r.afterIdleUs} µs after ${PAUSE_MS} ms idle, ${r.afterBusyUs} µs after ${PAUSE_MS} ms busy`;
}

export function formatCorePause(results: CorePause[]): string {
  return results.map((r) => `core create ${describeCorePause(r)}`).join('\n');
}

if (process.argv[1]?.endsWith('core-pause.ts')) {
  measureCorePause().then((r) => console.log(formatCorePause(r)));
}
