// The kubectl bridge's cost, measured in one run (printed, nothing asserted):
//  1. GET through the bridge (a Node client over HTTPS with the bridge's token → bridge → the
//     paired tab → its Service Worker → back) against its floor (decision 0041): the client's own
//     keep-alive HTTPS round trip to a bare server in another process with the same bytes, plus
//     the same GET fetched by the page itself, plus a bare WebSocket round trip between Node and
//     the page carrying the same bytes (a request-sized message out, a response-sized one back).
//     Target ≤ 1.3×. The first floor (page + WebSocket only) is printed for comparison, and so
//     is the bridge relaying by fetch as it did before decision 0046 (the page is made to see no
//     worker to message, so it falls back to fetch), in the same rounds.
//  2. A 1,000-event watch burst (a deletecollection of 1,000 ConfigMaps issued in the page):
//     when the last event reaches a Node client watching through the bridge, against when it
//     reaches the page's own watch. Target ≤ 1.2×.
// Each round takes 30 samples of each in turn, so a burst of load from other jobs on the machine
// falls on all of them rather than on one (15 rounds by default: 450 samples each).
//   npx tsx bench/browser/bridge.ts [rounds] [--panel]
import { readFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent, request } from 'node:https';
import { WebSocketServer, type WebSocket as NodeSocket } from 'ws';
import { buildAndServe, launchBrowser, openApp } from '../../e2e/browser/harness';
import { pairPage, startBridgeProcess } from '../../e2e/browser/bridge-harness';
import { CONFIGMAP } from '../fixtures';
import { quantile } from '../http-client';

const ROUNDS = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 15);
const PER_ROUND = 30;
const BURST = 1000;
const GET_PATH = '/api/v1/namespaces/default/configmaps/bench-get';
const now = () => performance.timeOrigin + performance.now();

function get(agent: Agent, url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, rejectUnauthorized: false, headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve(bytes));
    });
    req.on('error', reject);
    req.end();
  });
}

function getPlain(agent: HttpAgent, url: string, token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { agent, headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } }, (res) => res.resume().on('end', resolve))
      .on('error', reject)
      .end();
  });
}

async function main(): Promise<void> {
  const site = await buildAndServe('/', { isolated: true, bench: true });
  const bridge = await startBridgeProcess(new URL(site.url).origin);
  const browser = await launchBrowser();
  const context = await browser.newContext();
  const { page } = await openApp(context, site.url);
  await pairPage(page, bridge);
  // The panel's live table re-renders as requests pass; --panel keeps it on screen during the run.
  if (!process.argv.includes('--panel')) await page.evaluate(() => (location.hash = '#/'));
  const token = /token: "([^"]+)"/.exec(await readFile(bridge.kubeconfig, 'utf8'))![1]!;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const pageFetch = (path: string, init: { method?: string; body?: string } = {}) =>
    page.evaluate(async ({ path, init }) => (await fetch(path.slice(1), { ...init, headers: { 'Content-Type': 'application/json' } })).status, { path, init });
  await pageFetch('/api/v1/namespaces/default/configmaps', { method: 'POST', body: CONFIGMAP('bench-get') });
  const bodyBytes = await get(agent, bridge.url + GET_PATH, token);

  // The floor's WebSocket: Node sends what the bridge sends for this GET, the page answers with as many bytes as the bridge gets back.
  const echo = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => echo.once('listening', resolve));
  const echoPort = (echo.address() as { port: number }).port;
  const pageSocket = new Promise<NodeSocket>((resolve) => echo.once('connection', resolve));
  await page.evaluate(({ port, bytes }) => {
    const reply = new Uint8Array(bytes + 120); // body plus the relay's frame header
    const ws = new WebSocket(`ws://127.0.0.1:${port}`);
    ws.binaryType = 'arraybuffer';
    ws.onmessage = () => ws.send(reply);
  }, { port: echoPort, bytes: bodyBytes });
  const socket = await pageSocket;
  const requestFrame = Buffer.alloc(420); // a GET's `req` frame: path and kubectl-like headers
  const echoOnce = () => new Promise<void>((resolve) => {
    socket.once('message', () => resolve());
    socket.send(requestFrame);
  });

  // The client leg: a bare HTTPS server in its own process, with the bridge's certificate.
  const bare = spawn(process.execPath, ['--import', 'tsx', 'bench/browser/bare-https.ts', join(bridge.dir, 'data'), String(bodyBytes)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const barePort = await new Promise<number>((resolve) => bare.stdout!.setEncoding('utf8').once('data', (s: string) => resolve(Number(s.trim()))));
  const bareUrl = `https://127.0.0.1:${barePort}`;

  const plainUrl = bridge.url.replace('https:', 'http:');
  const plainAgent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
  const samples = { bridge: [] as number[], byFetch: [] as number[], plain: [] as number[], page: [] as number[], echo: [] as number[], client: [] as number[] };
  // The page's relay asks navigator.serviceWorker.controller on every request: hiding it makes it fetch.
  // (A string: tsx would name the getter with a helper the page lacks.)
  const relayByFetch = (hide: boolean) =>
    page.evaluate(`{
      const container = navigator.serviceWorker;
      const real = Object.getOwnPropertyDescriptor(ServiceWorkerContainer.prototype, 'controller').get;
      Object.defineProperty(container, 'controller', { configurable: true, get() { return ${hide} ? null : real.call(container); } });
    }`);
  for (let round = 0; round < ROUNDS; round++) {
    samples.page.push(...(await page.evaluate(async ({ path, n }) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        await (await fetch(path.slice(1), { headers: { Accept: 'application/json' } })).arrayBuffer();
        out.push(performance.now() - t);
      }
      return out;
    }, { path: GET_PATH, n: PER_ROUND })));
    for (let i = 0; i < PER_ROUND; i++) {
      const t = now();
      await echoOnce();
      samples.echo.push(now() - t);
    }
    for (let i = 0; i < PER_ROUND; i++) {
      const t = now();
      await get(agent, bareUrl + GET_PATH, token);
      samples.client.push(now() - t);
    }
    for (let i = 0; i < PER_ROUND; i++) {
      const t = now();
      await get(agent, bridge.url + GET_PATH, token);
      samples.bridge.push(now() - t);
    }
    await relayByFetch(true);
    for (let i = 0; i < PER_ROUND; i++) {
      const t = now();
      await get(agent, bridge.url + GET_PATH, token);
      samples.byFetch.push(now() - t);
    }
    await relayByFetch(false);
    for (let i = 0; i < PER_ROUND; i++) {
      const t = now();
      await getPlain(plainAgent, plainUrl + GET_PATH, token);
      samples.plain.push(now() - t);
    }
  }
  const p50 = (xs: number[]) => quantile(xs, 0.5);
  const relay = p50(samples.page) + p50(samples.echo);
  const floor = p50(samples.client) + relay;
  console.log(`GET (${bodyBytes} B body), p50 of ${ROUNDS * PER_ROUND}: bridge ${p50(samples.bridge).toFixed(3)} ms; floor: client HTTPS leg ${p50(samples.client).toFixed(3)} ms + page ${p50(samples.page).toFixed(3)} ms + WebSocket echo ${p50(samples.echo).toFixed(3)} ms = ${floor.toFixed(3)} ms; ratio ${(p50(samples.bridge) / floor).toFixed(2)} (target ≤ 1.3)`);
  console.log(`  for comparison: against page + WebSocket only (${relay.toFixed(3)} ms, the first floor) ${(p50(samples.bridge) / relay).toFixed(2)}; over plain HTTP ${p50(samples.plain).toFixed(3)} ms, ratio ${(p50(samples.plain) / floor).toFixed(2)}; relayed by fetch (before decision 0046) ${p50(samples.byFetch).toFixed(3)} ms, ratio ${(p50(samples.byFetch) / floor).toFixed(2)}`);

  // The burst: 1,000 ConfigMaps made beforehand, then one deletecollection issued in the page.
  // (Callbacks given to page.evaluate declare no named functions: tsx would wrap them in a helper the page lacks.)
  await page.evaluate(async (bodies) => {
    await fetch('api/v1/namespaces', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name: 'burst' } }) });
    for (let i = 0; i < bodies.length; i += 50) {
      await Promise.all(bodies.slice(i, i + 50).map((body) => fetch('api/v1/namespaces/burst/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })));
    }
  }, Array.from({ length: BURST }, (_, i) => CONFIGMAP(`b-${i}`)));
  const rv = (JSON.parse(await page.evaluate(async () => (await fetch('api/v1/namespaces/burst/configmaps?limit=1')).text())) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const watchPath = `/api/v1/namespaces/burst/configmaps?watch=1&resourceVersion=${rv}`;
  const nodeLast = new Promise<number>((resolve, reject) => {
    let seen = 0;
    let tail = '';
    request(bridge.url + watchPath, { rejectUnauthorized: false, headers: { Authorization: `Bearer ${token}` } }, (res) => {
      res.setEncoding('utf8').on('data', (c: string) => {
        const lines = (tail + c).split('\n');
        tail = lines.pop()!;
        seen += lines.filter((l) => l.startsWith('{"type":"DELETED"')).length;
        if (seen >= BURST) {
          resolve(now());
          res.destroy();
        }
      });
    }).on('error', reject).end();
  });
  const pageTimes = await page.evaluate(async ({ path, n }) => {
    const res = await fetch(path.slice(1));
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    await new Promise((r) => setTimeout(r, 500)); // the Node client's watch is open too
    const start = performance.timeOrigin + performance.now();
    const deleting = fetch('api/v1/namespaces/burst/configmaps', { method: 'DELETE' });
    let seen = 0;
    let tail = '';
    while (seen < n) {
      const { value, done } = await reader.read();
      if (done) break;
      const lines = (tail + decoder.decode(value, { stream: true })).split('\n');
      tail = lines.pop()!;
      seen += lines.filter((l) => l.startsWith('{"type":"DELETED"')).length;
    }
    const last = performance.timeOrigin + performance.now();
    await reader.cancel();
    await deleting;
    return { start, last };
  }, { path: watchPath, n: BURST });
  const nodeAt = await nodeLast;
  const pageMs = pageTimes.last - pageTimes.start;
  const nodeMs = nodeAt - pageTimes.start;
  console.log(`watch burst of ${BURST} DELETED events: last one in the page after ${pageMs.toFixed(1)} ms, at a Node client through the bridge after ${nodeMs.toFixed(1)} ms; ratio ${(nodeMs / pageMs).toFixed(2)} (target ≤ 1.2)`);

  socket.close();
  echo.close();
  bare.kill();
  agent.destroy();
  plainAgent.destroy();
  await browser.close();
  await Promise.all([bridge.stop(), site.close()]);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
