// The 16-in-flight row: create throughput with 16 requests in flight vs the same worker answering
// fixed bytes 16 at a time (T), in 8 alternating rounds of 160 each (which goes first alternates
// too): one round each gave ratios from 1.00 to 1.76 for the same build on a shared VM. Each
// round is its own evaluate, so the CPU of Chromium's processes can be read around it.
import type { Page } from 'playwright-core';
import { CONFIGMAP } from '../fixtures';
import { addCpu, chromiumCpu, cpuSince, formatPerRequest, type ProcessCpu } from './process-cpu';

const ROUNDS = 8;
const PER_ROUND = 160;

export interface InFlight {
  /** Requests per second. */
  creates: number;
  echo: number;
  /** Where a request's CPU went, or '' where /proc is not readable. */
  cpu: string;
}

/** Runs the rounds, creating in `namespace`; `name` keeps this run's object names apart from another run's. */
export async function measureInFlight(page: Page, namespace: string, name: string): Promise<InFlight> {
  await page.evaluate(`(() => {
    const cm = ${CONFIGMAP.toString()};
    let bytes = 0;
    const ops = {
      create: (i) => fetch('api/v1/namespaces/${namespace}/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: cm('${name}-' + i) }).then((r) => r.text()).then((t) => (bytes = t.length)),
      echo: (i) => fetch('__playground/bench/echo?status=201&bytes=' + (bytes || 620), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: cm('echo-${name}-' + i) }).then((r) => r.text()),
    };
    window.flightRound = async (kind, base, n) => {
      let next = 0;
      const t0 = performance.now();
      await Promise.all(Array.from({ length: 16 }, async () => {
        while (next < n) await ops[kind](base + next++);
      }));
      return performance.now() - t0;
    };
  })()`);
  const totals = { create: { ms: 0, cpu: new Map() as ProcessCpu }, echo: { ms: 0, cpu: new Map() as ProcessCpu } };
  const round = async (kind: 'create' | 'echo', base: number, timed: boolean) => {
    const before = chromiumCpu();
    const ms = await page.evaluate(([k, b, n]) => (window as unknown as { flightRound(k: string, b: number, n: number): Promise<number> }).flightRound(k, b, n), [kind, base, PER_ROUND] as const);
    const after = chromiumCpu();
    if (!timed) return;
    totals[kind].ms += ms;
    if (before && after) addCpu(totals[kind].cpu, cpuSince(before, after));
  };
  // One untimed round of each first (warm-up).
  await round('create', 1e6, false);
  await round('echo', 1e6, false);
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? (['create', 'echo'] as const) : (['echo', 'create'] as const);
    for (const kind of order) await round(kind, r * PER_ROUND, true);
  }
  const n = ROUNDS * PER_ROUND;
  const cpu = totals.create.cpu.size ? `creates ${formatPerRequest(totals.create.cpu, n)}, T ${formatPerRequest(totals.echo.cpu, n)}` : '';
  return { creates: (n / totals.create.ms) * 1000, echo: (n / totals.echo.ms) * 1000, cpu };
}
