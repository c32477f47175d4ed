// The Node host in front of the real core: what Node's HTTP parser would refuse or mangle before
// the core sees it, answered as kube-apiserver (Go's net/http) answers it.
import { connect } from 'node:net';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../../core/api';
import { startNodeHost, type NodeHost } from './server';
import { HEAD_READ_LIMIT } from './client-errors';

const CM = '/api/v1/namespaces/default/configmaps';
const NOT_ALLOWED = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server does not allow this method on the requested resource', reason: 'MethodNotAllowed', details: {}, code: 405 };

let api: ApiServer;
let host: NodeHost;
beforeAll(async () => {
  api = await createApiServer();
  host = await startNodeHost({ port: 0, host: '127.0.0.1', api });
});
afterAll(async () => {
  await host?.close();
  await api?.close();
});

interface RawReply {
  /** Every byte the server sent until it closed the connection. */
  bytes: Buffer;
  closed: boolean;
}

/** Writes the chunks (a pause between them), then reads until the server closes or `waitMs` passes. */
function raw(chunks: string[], waitMs = 3000): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const got: Buffer[] = [];
    const socket = connect(host.port, '127.0.0.1', async () => {
      for (const [i, c] of chunks.entries()) {
        if (i) await new Promise((r) => setTimeout(r, 50));
        socket.write(c);
      }
    });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ bytes: Buffer.concat(got), closed: false });
    }, waitMs);
    socket.on('data', (d) => got.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ bytes: Buffer.concat(got), closed: true });
    });
  });
}

/** The responses in a byte stream: status, headers (lower-case), body by Content-Length. */
function responses(bytes: Buffer): { status: number; headers: Record<string, string>; body: string }[] {
  const out = [];
  let rest = bytes.toString('latin1');
  while (rest.length) {
    const end = rest.indexOf('\r\n\r\n');
    const [line, ...fields] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const f of fields) headers[f.slice(0, f.indexOf(':')).toLowerCase()] = f.slice(f.indexOf(':') + 1).trim();
    const length = headers['content-length'] !== undefined ? Number(headers['content-length']) : rest.length - end - 4;
    out.push({ status: Number(line.split(' ')[1]), headers, body: Buffer.from(rest.slice(end + 4, end + 4 + length), 'latin1').toString('utf8') });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

describe('method tokens Node\'s parser does not know', () => {
  it('are served by the core: 405 MethodNotAllowed Status on resource and API paths, the connection closed after', async () => {
    for (const [method, path] of [['FOO', CM], ['get', CM], ['get', '/version'], ['delete', `${CM}/x`]]) {
      const r = await raw([`${method} ${path} HTTP/1.1\r\nHost: x\r\n\r\n`]);
      expect(r.closed, `${method} ${path}`).toBe(true);
      const [res] = responses(r.bytes);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['connection']).toBe('close');
      expect(res.headers['audit-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(res.body)).toEqual(NOT_ALLOWED);
    }
  });

  it('reach handlers that ignore the method (/healthz answers ok)', async () => {
    const [res] = responses((await raw(['FOO /healthz HTTP/1.1\r\nHost: x\r\n\r\n'])).bytes);
    expect(res.status).toBe(200);
    expect(res.body).toBe('ok');
  });

  it('are read after a request served on the same connection, and from a head that arrives in pieces', async () => {
    const r = await raw([`GET /version HTTP/1.1\r\nHost: x\r\n\r\nget ${CM} HTTP/1.1\r\n`, 'Host: x\r\n', 'Accept: application/json\r\n\r\n'], 5000);
    const [first, second] = responses(r.bytes);
    expect(second, r.bytes.toString()).toBeDefined();
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body).major).toBe('1');
    expect(second.status).toBe(405);
    expect(JSON.parse(second.body)).toEqual(NOT_ALLOWED);
    expect(r.closed).toBe(true);
  });

  it('a method that is no token gets Go\'s plain 400 text', async () => {
    const r = await raw(['G(T / HTTP/1.1\r\nHost: x\r\n\r\n']);
    // Go writes its reason into the status line as well as the body.
    expect(r.bytes.toString()).toBe('HTTP/1.1 400 Bad Request: invalid method\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request: invalid method');
  });
});

describe('request heads up to kube\'s MaxHeaderBytes (1 MiB)', () => {
  it('serves a notin selector of thousands of values, far past Node\'s 16 KiB default', async () => {
    const values = Array.from({ length: 5000 }, (_, i) => `value-${i}`).join(',');
    const path = `${CM}?labelSelector=${encodeURIComponent(`app notin (${values})`)}`;
    expect(path.length).toBeGreaterThan(48 * 1024);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${host.url}${path}`, { agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
  });

  it('answers a larger head with Go\'s 431 text', async () => {
    const r = await raw([`GET /version HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(HEAD_READ_LIMIT)}\r\n\r\n`]);
    expect(r.bytes.toString()).toBe('HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n431 Request Header Fields Too Large');
  });
});

describe('a warning about a field named outside Latin-1', () => {
  it('goes out as kube writes it, the UTF-8 bytes of the text, instead of a 500', async () => {
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'jp' }, '日本': 'x' });
    const r = await raw([`POST ${CM} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`], 1500);
    const [res] = responses(r.bytes);
    expect(res.status).toBe(201);
    expect(Buffer.from(res.headers['warning'], 'latin1').toString('utf8')).toBe('299 - "unknown field \\"日本\\""');
  });
});
