// The bridge end to end inside Node: the real Bridge and its one-port server, the real PageRelay
// (the page's side) over a `ws` client socket, and the real API core answering the relay's
// fetches through the Service Worker's fetch adapter, as the worker does in a tab.
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../../../core/api';
import { toApiRequest, toResponse } from '../../sw/fetch-adapter';
import { restoreBridgedUserAgent } from '../../sw/bridged-user-agent';
import { PageRelay, type SocketLike } from '../../bridge/page-relay';
import { ensureServingCerts } from '../tls';
import { Bridge, type BridgeLimits } from './bridge';
import { startBridgeServer, type BridgeServer } from './server';
import { TAB_NOT_CONNECTED_MESSAGE, UNAUTHORIZED } from './statuses';

const ORIGIN = 'http://page.test';
const TOKEN = 'test-token-0123456789';
let dir: string;
let certs: { caCert: string; cert: string; key: string };
let api: ApiServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kp-bridge-'));
  certs = await ensureServingCerts(dir, '127.0.0.1');
  api = await createApiServer();
});
afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

/** What the worker does with a page's fetch; `gate` can hold a request back (a slow tab). */
function workerFetch(gate?: (path: string) => Promise<void>) {
  return async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(`${ORIGIN}${url}`, init);
    const path = url.slice(url.indexOf('/', 0));
    if (gate) await gate(path);
    const apiReq = await toApiRequest(request, path);
    if ('tooLarge' in apiReq) throw new Error('too large');
    restoreBridgedUserAgent(apiReq.headers);
    const { response } = toResponse(await api.handle(apiReq));
    return response;
  };
}

interface Harness {
  server: BridgeServer;
  bridge: Bridge;
  lines: string[];
  close(): Promise<void>;
}

async function startBridge(limits: Partial<BridgeLimits> = {}): Promise<Harness> {
  const lines: string[] = [];
  let server: BridgeServer | undefined;
  const bridge = new Bridge({
    token: TOKEN,
    limits,
    onPairing: async () => ({ server: server!.url, kubeconfig: 'bridge.kubeconfig' }),
    events: {
      paired: (origin, replaced) => lines.push(`paired ${origin} ${replaced}`),
      resumed: (origin) => lines.push(`resumed ${origin}`),
      disconnected: (origin) => lines.push(`disconnected ${origin}`),
      code: (code) => lines.push(`code ${code}`),
    },
  });
  server = await startBridgeServer({ port: 0, host: '127.0.0.1', tls: certs, allowedOrigins: [ORIGIN], bridge });
  return { server, bridge, lines, close: () => server!.close() };
}

function memoryStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
}

function newTab(opts: { gate?: (path: string) => Promise<void>; origin?: string; storage?: ReturnType<typeof memoryStorage> } = {}): PageRelay {
  return new PageRelay({
    fetch: workerFetch(opts.gate),
    basePath: '/',
    storage: opts.storage ?? memoryStorage(),
    maxRetryDelayMs: 50,
    openSocket: (url) => new WebSocket(url, { headers: { Origin: opts.origin ?? ORIGIN } }) as unknown as SocketLike,
  });
}

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function pairTab(h: Harness, tab: PageRelay): Promise<void> {
  tab.pair(h.server.address, h.bridge.pairing.displayCode);
  await until(() => tab.state.phase === 'paired', 'pairing');
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function call(h: Harness, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer; token?: string | null } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const token = opts.token === undefined ? TOKEN : opts.token;
    const req = httpsRequest(`${h.server.url}${path}`, { method: opts.method ?? 'GET', ca: certs.caCert, headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...opts.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The same request straight to the core, as the tab's API answers it. */
async function direct(path: string, headers: Record<string, string> = {}): Promise<Buffer> {
  const res = await workerFetch()(path, { headers });
  return Buffer.from(await res.arrayBuffer());
}

describe('kubectl bridge', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startBridge({ maxInFlight: 2 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('refuses requests without the token with kube\'s 401 Status, and answers 503 before a tab pairs', async () => {
    for (const token of [null, 'wrong']) {
      const r = await call(h, '/api/v1/namespaces', { token });
      expect(r.status).toBe(401);
      expect(r.body.toString()).toBe(UNAUTHORIZED);
    }
    const r = await call(h, '/api/v1/namespaces');
    expect(r.status).toBe(503);
    expect(JSON.parse(r.body.toString())).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: TAB_NOT_CONNECTED_MESSAGE, reason: 'ServiceUnavailable', code: 503 });
  });

  it('says so when nothing listens at the address given', async () => {
    const closed = await startBridge();
    const address = closed.server.address;
    await closed.close();
    const tab = newTab();
    tab.pair(address, '1234-5678');
    await until(() => tab.state.phase === 'failed', 'the failure');
    expect((tab.state as { message: string }).message).toContain(`could not reach a bridge at ${address}`);
  });

  it('refuses a wrong code and a page from another origin, then pairs with the printed code', async () => {
    const wrong = newTab();
    wrong.pair(h.server.address, '0000-000');
    await until(() => wrong.state.phase === 'failed', 'refusal');
    expect(wrong.state).toMatchObject({ message: 'that is not the pairing code the bridge printed' });
    const stranger = newTab({ origin: 'http://evil.test' });
    stranger.pair(h.server.address, h.bridge.pairing.displayCode);
    await until(() => stranger.state.phase === 'failed', 'origin refusal');
    const tab = newTab();
    const code = h.bridge.pairing.displayCode;
    await pairTab(h, tab);
    expect(tab.state).toEqual({ phase: 'paired', address: h.server.address, server: h.server.url, kubeconfig: 'bridge.kubeconfig' });
    expect(h.bridge.pairing.displayCode).not.toBe(code); // one-time
    expect(h.lines).toContain(`paired ${ORIGIN} false`);
  });

  it('relays JSON and protobuf answers byte for byte, with Go-cased headers and the client\'s User-Agent', async () => {
    const created = await call(h, '/api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json', 'User-Agent': 'kubectl/v1.34.5 (linux/amd64) kubernetes/ebfac05' }, body: JSON.stringify({ metadata: { name: 'relayed' }, data: { a: '1' } }) });
    expect(created.status).toBe(201);
    expect(JSON.parse(created.body.toString()).metadata.managedFields[0].manager).toBe('kubectl');
    for (const accept of ['application/json', 'application/vnd.kubernetes.protobuf', 'application/json;as=Table;v=v1;g=meta.k8s.io']) {
      const r = await call(h, '/api/v1/namespaces/default/configmaps/relayed', { headers: { Accept: accept } });
      expect(r.status).toBe(200);
      expect(r.body.equals(await direct('/api/v1/namespaces/default/configmaps/relayed', { accept }))).toBe(true);
      expect(r.headers['content-length']).toBe(String(r.body.length));
    }
    const missing = await call(h, '/api/v1/namespaces/default/configmaps/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.equals(await direct('/api/v1/namespaces/default/configmaps/nope'))).toBe(true);
    const shell = await call(h, '/__playground/reset', { method: 'POST' });
    expect(shell.status).toBe(404);
    expect(JSON.parse(shell.body.toString()).reason).toBe('NotFound');
  });

  it('streams a watch event by event and cancels it in the tab when the client hangs up', async () => {
    const tab = await currentTab();
    const got: string[] = [];
    const req = httpsRequest(`${h.server.url}/api/v1/namespaces/default/configmaps?watch=1&fieldSelector=metadata.name%3Dw1`, { ca: certs.caCert, headers: { Authorization: `Bearer ${TOKEN}` } });
    const res = await new Promise<import('node:http').IncomingMessage>((resolve) => req.on('response', resolve).end());
    expect(res.headers['transfer-encoding']).toBe('chunked');
    res.setEncoding('utf8').on('data', (c: string) => got.push(c));
    await call(h, '/api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"metadata":{"name":"w1"}}' });
    await until(() => got.join('').includes('"ADDED"'), 'the ADDED event');
    const watchEntry = () => tab.log.list.find((e) => e.path.includes('watch=1'));
    expect(watchEntry()?.state).toBe('streaming');
    req.destroy();
    await until(() => watchEntry()?.state === 'cancelled', 'cancellation in the tab');
  });

  it('answers 429 beyond the in-flight bound while a slow request waits, and others go on', async () => {
    h.bridge.close(); // the next tab holds requests for /api/v1/namespaces/slow back
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tab = newTab({ gate: (path) => (path.includes('/slow') ? held : Promise.resolve()) });
    await pairTab(h, tab);
    const slow = [call(h, '/api/v1/namespaces/slow'), call(h, '/api/v1/namespaces/slow')];
    await until(() => tab.log.list.filter((e) => e.path.includes('/slow')).length === 2, 'two slow requests in the tab');
    const over = await call(h, '/api/v1/namespaces/default');
    expect(over.status).toBe(429);
    expect(over.headers['retry-after']).toBe('1');
    expect(JSON.parse(over.body.toString())).toMatchObject({ reason: 'TooManyRequests', code: 429 });
    release();
    expect((await Promise.all(slow)).map((r) => r.status)).toEqual([404, 404]);
    expect((await call(h, '/api/v1/namespaces/default')).status).toBe(200);
  });

  it('ends an open watch with an ERROR event and answers 503 when the tab goes away; the tab resumes with its session', async () => {
    const storage = memoryStorage();
    const tab = newTab({ storage });
    await pairTab(h, tab);
    const req = httpsRequest(`${h.server.url}/api/v1/namespaces/default/configmaps?watch=true`, { ca: certs.caCert, headers: { Authorization: `Bearer ${TOKEN}` } });
    const res = await new Promise<import('node:http').IncomingMessage>((resolve) => req.on('response', resolve).end());
    let text = '';
    const ended = new Promise<void>((resolve) => res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', resolve));
    await until(() => text.includes('"ADDED"'), 'the initial events');
    // The socket drops without the page asking (a network blink): the bridge ends the watch.
    (tab as unknown as { socket: SocketLike }).socket.close(4000, 'test');
    await ended;
    const last = JSON.parse(text.trimEnd().split('\n').at(-1)!);
    expect(last).toEqual({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: TAB_NOT_CONNECTED_MESSAGE, reason: 'ServiceUnavailable', code: 503 } });
    await until(() => tab.state.phase === 'paired', 'the resumed session');
    expect(h.lines).toContain(`resumed ${ORIGIN}`);
    expect((await call(h, '/api/v1/namespaces/default')).status).toBe(200);
  });

  it('answers 503 with the cause when the worker fails, and ends a protobuf watch with a protobuf ERROR event', async () => {
    const tab = newTab({ gate: (path) => (path.includes('/broken') ? Promise.reject(new TypeError('Failed to fetch')) : Promise.resolve()) });
    await pairTab(h, tab);
    const failed = await call(h, '/api/v1/namespaces/broken');
    expect(failed.status).toBe(503);
    expect(JSON.parse(failed.body.toString())).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: TAB_NOT_CONNECTED_MESSAGE, reason: 'ServiceUnavailable', details: { causes: [{ message: 'Failed to fetch' }] }, code: 503 });

    const req = httpsRequest(`${h.server.url}/api/v1/namespaces/default/configmaps?watch=1`, { ca: certs.caCert, headers: { Authorization: `Bearer ${TOKEN}`, Accept: 'application/vnd.kubernetes.protobuf;stream=watch' } });
    const res = await new Promise<import('node:http').IncomingMessage>((resolve) => req.on('response', resolve).end());
    expect(res.headers['content-type']).toBe('application/vnd.kubernetes.protobuf;stream=watch');
    const chunks: Buffer[] = [];
    const ended = new Promise<void>((resolve) => res.on('data', (c: Buffer) => chunks.push(c)).on('end', resolve));
    await until(() => chunks.length > 0, 'the initial events');
    (tab as unknown as { socket: SocketLike }).socket.close(4000, 'test');
    await ended;
    // Frames are a 4-byte big-endian length and a `k8s\0` envelope; the last one is the ERROR.
    const bytes = Buffer.concat(chunks);
    let at = 0;
    let last = bytes;
    while (at < bytes.length) {
      const len = bytes.readUInt32BE(at);
      last = bytes.subarray(at + 4, at + 4 + len);
      at += 4 + len;
    }
    expect(at).toBe(bytes.length);
    expect(last.subarray(0, 4).toString('latin1')).toBe('k8s\0');
    expect(last.includes(Buffer.from('ERROR'))).toBe(true);
    expect(last.includes(Buffer.from(TAB_NOT_CONNECTED_MESSAGE))).toBe(true);
  });

  it('serves only the tab paired most recently and tells the older one', async () => {
    const first = await currentTab();
    const second = newTab();
    await pairTab(h, second);
    await until(() => first.state.phase === 'replaced', 'the older tab hearing it was replaced');
    expect(h.lines.at(-2)).toBe(`paired ${ORIGIN} true`);
    expect((await call(h, '/api/v1/namespaces/default')).status).toBe(200);
    expect(second.log.list.at(-1)?.path).toBe('/api/v1/namespaces/default');
  });

  /** The tab paired last in this file (tests pair new ones as they need). */
  async function currentTab(): Promise<PageRelay> {
    const tab = newTab();
    await pairTab(h, tab);
    return tab;
  }
});
