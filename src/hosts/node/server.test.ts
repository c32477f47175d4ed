import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiServer } from '../../core/api';
import type { ApiRequest, ApiResponse, ApiStream, StreamSink } from '../../core/meta/types';
import { startNodeHost, type NodeHost } from './server';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function fakeApi(handle: (req: ApiRequest) => ApiResponse | Promise<ApiResponse>): ApiServer {
  return { handle: async (req) => handle(req), beginShutdown() {}, async close() {} };
}

function send(url: string, opts: { method?: string; path?: string; headers?: Record<string, string | string[]>; body?: string | Buffer; chunked?: Buffer[] } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url + (opts.path ?? '/'), { method: opts.method ?? 'GET', headers: opts.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (opts.chunked) {
      for (const c of opts.chunked) req.write(c);
      req.end();
    } else req.end(opts.body);
  });
}

let host: NodeHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('startNodeHost', () => {
  it('adapts the request: method, url with query, lower-case headers, repeated headers joined, body bytes', async () => {
    let seen: ApiRequest | undefined;
    host = await startNodeHost({ port: 0, host: '127.0.0.1', api: fakeApi((req) => ((seen = req), { status: 200, headers: {}, body: 'ok' })) });
    await send(host.url, { method: 'POST', path: '/api/v1/namespaces/default/configmaps?fieldManager=x', headers: { 'X-Thing': ['a', 'b'], 'Content-Type': 'application/json' }, body: '{"a":1}' });
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/api/v1/namespaces/default/configmaps?fieldManager=x');
    expect(seen?.headers['x-thing']).toBe('a, b');
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(new TextDecoder().decode(seen?.body)).toBe('{"a":1}');
  });

  it('leaves body undefined for bodiless requests and reads chunked bodies fully', async () => {
    const bodies: (string | undefined)[] = [];
    host = await startNodeHost({ port: 0, host: '127.0.0.1', api: fakeApi((req) => (bodies.push(req.body && new TextDecoder().decode(req.body)), { status: 200, headers: {}, body: '' })) });
    await send(host.url);
    await send(host.url, { method: 'PUT', chunked: [Buffer.from('ab'), Buffer.from('cd')] });
    expect(bodies).toEqual([undefined, 'abcd']);
  });

  it('writes string and byte bodies with Content-Length and the given headers and status', async () => {
    host = await startNodeHost({
      port: 0,
      host: '127.0.0.1',
      api: fakeApi((req): ApiResponse =>
        req.url === '/bytes'
          ? { status: 201, headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': '999' }, body: new Uint8Array([104, 105]) }
          : { status: 404, headers: { 'Content-Type': 'application/json' }, body: '{"é":1}' },
      ),
    });
    const text = await send(host.url, { path: '/text' });
    expect(text.status).toBe(404);
    expect(text.headers['content-type']).toBe('application/json');
    expect(text.headers['content-length']).toBe(String(Buffer.byteLength('{"é":1}')));
    expect(text.body).toBe('{"é":1}');
    const bytes = await send(host.url, { path: '/bytes' });
    expect(bytes.status).toBe(201);
    expect(bytes.headers['content-length']).toBe('2');
    expect(bytes.body).toBe('hi');
  });

  it('writes a body in parts as one body with the total Content-Length, parts in order', async () => {
    const enc = new TextEncoder();
    const big = enc.encode('x'.repeat(300_000));
    host = await startNodeHost({
      port: 0,
      host: '127.0.0.1',
      api: fakeApi((): ApiResponse => ({ status: 200, headers: { 'Content-Type': 'application/json' }, body: [enc.encode('{"items":["'), big.subarray(5, 200_005), enc.encode('é"]}\n')] })),
    });
    // Twice on one keep-alive connection: the second answer must not be mixed with the first.
    const { Agent } = await import('node:http');
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 2; i++) {
        const reply = await new Promise<Reply>((resolve, reject) => {
          const req = request(`${host!.url}/list`, { agent }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
          });
          req.on('error', reject);
          req.end();
        });
        const expected = `{"items":["${'x'.repeat(200_000)}é"]}\n`;
        expect(reply.headers['content-length']).toBe(String(Buffer.byteLength(expected)));
        expect(reply.headers['transfer-encoding']).toBeUndefined();
        expect(reply.body).toBe(expected);
      }
    } finally {
      agent.destroy();
    }
  });

  it('answers 413 with the kube-apiserver Status for a declared length over the limit, without calling the API', async () => {
    let called = false;
    host = await startNodeHost({ port: 0, host: '127.0.0.1', api: fakeApi(() => ((called = true), { status: 200, headers: {}, body: '' })) });
    const r = await send(host.url, { method: 'POST', body: Buffer.alloc(3 * 1024 * 1024 + 1, 32) });
    expect(r.status).toBe(413);
    expect(r.body).toBe('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Request entity too large: limit is 3145728","reason":"RequestEntityTooLarge","code":413}');
    expect(called).toBe(false);
  });

  it('answers 413 for a chunked body that grows over the limit', async () => {
    host = await startNodeHost({ port: 0, host: '127.0.0.1', maxBodyBytes: 10, api: fakeApi(() => ({ status: 200, headers: {}, body: '' })) });
    const r = await send(host.url, { method: 'POST', chunked: [Buffer.from('123456'), Buffer.from('789012')] });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).message).toBe('Request entity too large: limit is 10');
  });

  it('turns a throwing handler into a 500 Status', async () => {
    host = await startNodeHost({ port: 0, host: '127.0.0.1', api: fakeApi(() => { throw new Error('boom'); }) });
    const r = await send(host.url);
    expect(r.status).toBe(500);
    expect(JSON.parse(r.body)).toMatchObject({ reason: 'InternalError', message: 'Internal error occurred: boom', code: 500 });
  });

  it('streams ApiStream bodies chunked, one chunk per write, until the core ends them', async () => {
    const stream: ApiStream = {
      kind: 'stream',
      start(sink) {
        sink.write('{"type":"ADDED"}\n');
        setTimeout(() => {
          sink.write(new TextEncoder().encode('{"type":"DELETED"}\n'));
          sink.end();
        }, 20);
      },
      cancel() {},
    };
    host = await startNodeHost({ port: 0, host: '127.0.0.1', api: fakeApi(() => ({ status: 200, headers: { 'Content-Type': 'application/json' }, body: stream })) });
    const r = await send(host.url, { path: '/watch' });
    expect(r.headers['transfer-encoding']).toBe('chunked');
    expect(r.body).toBe('{"type":"ADDED"}\n{"type":"DELETED"}\n');
  });

  it('cancels the stream when the client disconnects', async () => {
    let cancelled!: () => void;
    const wasCancelled = new Promise<void>((r) => (cancelled = r));
    let started!: () => void;
    const wasStarted = new Promise<void>((r) => (started = r));
    const stream: ApiStream = { kind: 'stream', start: (sink) => (sink.write('x'), started()), cancel: () => cancelled() };
    host = await startNodeHost({ port: 0, host: '127.0.0.1', api: fakeApi(() => ({ status: 200, headers: {}, body: stream })) });
    const req = request(host.url + '/watch', { agent: false }, (res) => res.once('data', () => req.destroy()));
    req.on('error', () => {});
    req.end();
    await wasStarted;
    await wasCancelled;
  });

  it('reports back-pressure: sink.write returns false once the socket buffer is full', async () => {
    let sink!: StreamSink;
    let ready!: () => void;
    const isReady = new Promise<void>((r) => (ready = r));
    const stream: ApiStream = { kind: 'stream', start: (s) => ((sink = s), ready()), cancel() {} };
    host = await startNodeHost({ port: 0, host: '127.0.0.1', api: fakeApi(() => ({ status: 200, headers: {}, body: stream })) });
    // The client reads nothing, so the server's buffers fill up.
    const req = request(host.url + '/watch', { agent: false }, (res) => res.pause());
    req.on('error', () => {});
    req.end();
    await isReady;
    const big = 'y'.repeat(64 * 1024);
    let accepted = 0;
    while (sink.write(big) && accepted < 1000) accepted++;
    expect(accepted).toBeLessThan(1000);
    req.destroy();
  });

  it('close() ends open streams cleanly and cancels them', async () => {
    let cancelled = false;
    const stream: ApiStream = { kind: 'stream', start: (sink) => sink.write('a\n'), cancel: () => (cancelled = true) };
    host = await startNodeHost({ port: 0, host: '127.0.0.1', api: fakeApi(() => ({ status: 200, headers: {}, body: stream })) });
    const reply = send(host.url, { path: '/watch' });
    await new Promise((r) => setTimeout(r, 50));
    await host.close();
    host = undefined;
    const r = await reply;
    expect(r.body).toBe('a\n');
    expect(cancelled).toBe(true);
  });

  it('keeps connections alive between requests', async () => {
    const ports = new Set<number>();
    host = await startNodeHost({ port: 0, host: '127.0.0.1', api: fakeApi(() => ({ status: 200, headers: {}, body: 'ok' })) });
    const { Agent } = await import('node:http');
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = request(host!.url, { agent }, (res) => {
          ports.add(req.socket!.localPort!);
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end();
      });
    }
    agent.destroy();
    expect(ports.size).toBe(1);
  });
});

describe('a request target Go cannot parse', () => {
  it('gets the plain 400 and the connection closed after it', async () => {
    const { createApiServer } = await import('../../core/api');
    const api = await createApiServer();
    host = await startNodeHost({ port: 0, host: '127.0.0.1', api });
    const r = await send(host.url, { path: '/api/v1/namespaces/default/configmaps/a%zz' });
    expect(r.status).toBe(400);
    expect(r.body).toBe('400 Bad Request');
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(r.headers['connection']).toBe('close');
    expect(r.headers['audit-id']).toBeUndefined();
  });
});
