// The Node host (memory backend) against the transport floor serving the same byte counts over
// the same kind of keep-alive connection. Ratios, not absolute numbers, are the point. By default
// both servers run together in a child process (./server-process.ts), apart from this client;
// with `api` they run in this process around that API.
import type { ApiServer } from '../src/core/api';
import { startNodeHost } from '../src/hosts/node/server';
import { startFloorServer } from './floor-server';
import { startRemoteServer } from './remote-server';
import { concurrent, hit, makeAgent, quantile, sequential } from './http-client';

export interface CrudResult {
  getBytes: number;
  createBytes: number;
  getP50: number;
  getFloorP50: number;
  createP50: number;
  createFloorP50: number;
  createsPerSec16: number;
  floorCreatesPerSec16: number;
}

export interface CrudOptions {
  /** Measured sequential requests per latency series. */
  samples?: number;
  warmup?: number;
  /** Creates in the 16-in-flight throughput run. */
  burst?: number;
  /** Serve this API in this process; by default a fresh one (memory backend) in a child process. */
  api?: ApiServer;
}

const NS_PATH = '/api/v1/namespaces/default/configmaps';

function configMap(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data: { 'settings.json': '{"mode":"bench","retries":3}', greeting: 'hello' } });
}

function expectStatus(r: { status: number; body: string }, want: number, what: string): void {
  if (r.status !== want) throw new Error(`${what}: expected HTTP ${want}, got ${r.status} ${r.body.slice(0, 300)}`);
}

/**
 * Latencies of `a` and `b` measured in alternating blocks, so that a change in machine load
 * during the run (this VM is shared) lands on both series instead of on one of them.
 */
async function interleaved(samples: number, a: (i: number) => Promise<unknown>, b: (i: number) => Promise<unknown>, blocks = 10): Promise<[number[], number[]]> {
  const as: number[] = [];
  const bs: number[] = [];
  const per = Math.ceil(samples / blocks);
  for (let k = 0; k < blocks; k++) {
    as.push(...(await sequential(per, (i) => a(k * per + i))));
    bs.push(...(await sequential(per, (i) => b(k * per + i))));
  }
  return [as, bs];
}

export async function runCrudBench(opts: CrudOptions = {}): Promise<CrudResult> {
  const samples = opts.samples ?? 2000;
  const warmup = opts.warmup ?? 300;
  const burst = opts.burst ?? 3000;
  const servers = await startServers(opts.api);
  const { host, floor } = servers;
  const agent = makeAgent(1);
  const agent16 = makeAgent(16);
  try {
    // Sizes of the real answers, so the floor serves exactly as many bytes.
    const created = await hit(agent, host.url, 'POST', NS_PATH, configMap('bench-get'), true);
    expectStatus(created, 201, 'create ConfigMap');
    const got = await hit(agent, host.url, 'GET', `${NS_PATH}/bench-get`, undefined, true);
    expectStatus(got, 200, 'get ConfigMap');

    const getHost = () => hit(agent, host.url, 'GET', `${NS_PATH}/bench-get`);
    const getFloor = () => hit(agent, floor.url, 'GET', `${NS_PATH}/bench-get`);
    await floor.setBody(got.bytes);
    await sequential(warmup, getHost);
    await sequential(warmup, getFloor);
    const [getSamples, getFloorSamples] = await interleaved(samples, getHost, getFloor);
    const getP50 = quantile(getSamples, 0.5);
    const getFloorP50 = quantile(getFloorSamples, 0.5);

    const createHost = (prefix: string) => (i: number) => hit(agent, host.url, 'POST', NS_PATH, configMap(`${prefix}-${i}`));
    const createFloor = (i: number) => hit(agent, floor.url, 'POST', NS_PATH, configMap(`floor-${i}`));
    await floor.setBody(created.bytes, 201);
    await sequential(warmup, createHost('warm'));
    await sequential(warmup, createFloor);
    const [createSamples, createFloorSamples] = await interleaved(samples, createHost('seq'), createFloor);
    const createP50 = quantile(createSamples, 0.5);
    const createFloorP50 = quantile(createFloorSamples, 0.5);

    const createsPerSec16 = await concurrent(burst, 16, (i) => hit(agent16, host.url, 'POST', NS_PATH, configMap(`burst-${i}`)));
    const floorCreatesPerSec16 = await concurrent(burst, 16, (i) => hit(agent16, floor.url, 'POST', NS_PATH, configMap(`floor-burst-${i}`)));
    // Spot-check that the burst really created objects (a 4xx storm would look fast).
    expectStatus(await hit(agent, host.url, 'GET', `${NS_PATH}/burst-${burst - 1}`, undefined, true), 200, 'get a burst-created ConfigMap');

    return { getBytes: got.bytes, createBytes: created.bytes, getP50, getFloorP50, createP50, createFloorP50, createsPerSec16, floorCreatesPerSec16 };
  } finally {
    agent.destroy();
    agent16.destroy();
    await servers.close();
  }
}

interface Servers {
  host: { url: string };
  floor: { url: string; setBody(size: number, status?: number): Promise<void> | void };
  close(): Promise<void>;
}

async function startServers(api: ApiServer | undefined): Promise<Servers> {
  if (!api) {
    const remote = await startRemoteServer();
    return { host: { url: remote.apiUrl }, floor: { url: remote.floorUrl, setBody: remote.setFloorBody }, close: remote.close };
  }
  const host = await startNodeHost({ port: 0, host: '127.0.0.1', api });
  const floor = await startFloorServer();
  return {
    host,
    floor,
    async close() {
      await floor.close();
      await host.close();
    },
  };
}

const ms = (v: number) => `${v.toFixed(3)} ms`;

export function formatCrud(r: CrudResult): string {
  const getRatio = r.getP50 / r.getFloorP50;
  const createRatio = r.createP50 / r.createFloorP50;
  const rows = [
    ['measure', 'host', 'floor', 'ratio', 'target'],
    [`GET ConfigMap p50 (${r.getBytes} B)`, ms(r.getP50), ms(r.getFloorP50), `${getRatio.toFixed(2)}x`, `<= 1.3x ${getRatio <= 1.3 ? 'ok' : 'MISSED'}`],
    [`create ConfigMap p50 (${r.createBytes} B)`, ms(r.createP50), ms(r.createFloorP50), `${createRatio.toFixed(2)}x`, `<= 2x ${createRatio <= 2 ? 'ok' : 'MISSED'}`],
    ['creates/s, 16 in flight', r.createsPerSec16.toFixed(0), r.floorCreatesPerSec16.toFixed(0), `${(r.floorCreatesPerSec16 / r.createsPerSec16).toFixed(2)}x`, ''],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()).join('\n');
}
