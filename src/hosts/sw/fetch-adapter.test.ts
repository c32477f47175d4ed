import { describe, expect, it, vi } from 'vitest';
import type { ApiStream, StreamSink } from '../../core/meta/types';
import { toApiRequest, toResponse } from './fetch-adapter';

describe('toApiRequest', () => {
  it('keeps method, path, lower-case headers and body bytes', async () => {
    const req = new Request('http://x/base/api/v1/namespaces?limit=1', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Two': 'a' }, body: '{"a":1}' });
    const api = await toApiRequest(req, '/api/v1/namespaces?limit=1');
    expect(api).toEqual({ method: 'POST', url: '/api/v1/namespaces?limit=1', headers: { 'content-type': 'application/json', 'x-two': 'a' }, body: new TextEncoder().encode('{"a":1}') });
  });

  it('drops Accept-Encoding: the page gets the Response of the worker undecoded, so the core must not compress', async () => {
    const req = new Request('http://x/openapi/v2', { headers: { 'Accept-Encoding': 'gzip', Accept: 'application/json' } });
    expect(await toApiRequest(req, '/openapi/v2')).toEqual({ method: 'GET', url: '/openapi/v2', headers: { accept: 'application/json' } });
  });

  it('leaves GET bodiless and rejects oversized bodies', async () => {
    expect(await toApiRequest(new Request('http://x/api'), '/api')).toEqual({ method: 'GET', url: '/api', headers: {} });
    const big = new Request('http://x/api', { method: 'PUT', body: 'x'.repeat(11) });
    expect(await toApiRequest(big, '/api', 10)).toEqual({ tooLarge: true, limit: 10 });
  });
});

describe('toApiRequest of a navigation', () => {
  it("carries the browser's User-Agent (a worker's Request hides it), so the core pretty-prints", async () => {
    // Request cannot be constructed in navigate mode outside a browser: a navigation's shape.
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120' });
    try {
      const nav = { method: 'GET', mode: 'navigate', headers: new Headers({ accept: 'text/html' }) } as unknown as Request;
      const api = await toApiRequest(nav, '/api/v1/namespaces');
      expect(api).toEqual({ method: 'GET', url: '/api/v1/namespaces', headers: { accept: 'text/html', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120' } });
      const fetched = await toApiRequest(new Request('http://x/api'), '/api');
      expect(fetched).toEqual({ method: 'GET', url: '/api', headers: {} });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('toResponse', () => {
  it('maps fixed bodies and drops a core-provided Content-Length', async () => {
    const { response } = toResponse({ status: 201, headers: { 'Content-Type': 'application/json', 'Content-Length': '999' }, body: '{"ok":true}' });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-length')).toBeNull();
    expect(await response.text()).toBe('{"ok":true}');
  });

  it('joins a body in parts in order', async () => {
    const enc = new TextEncoder();
    const { response } = toResponse({ status: 200, headers: { 'Content-Type': 'application/json' }, body: [enc.encode('{"items":['), enc.encode('xx{"a":"é"},{"b":2}yy').subarray(2, -2), enc.encode(']}\n')] });
    expect(await response.text()).toBe('{"items":[{"a":"é"},{"b":2}]}\n');
  });

  it('answers byte and empty fixed bodies as streams', async () => {
    const bytes = toResponse({ status: 200, headers: {}, body: new TextEncoder().encode('{"é":1}') });
    expect(bytes.done).toBeUndefined();
    expect(await bytes.response.text()).toBe('{"é":1}');
    expect(await toResponse({ status: 200, headers: {}, body: '' }).response.text()).toBe('');
  });

  it('gives null-body statuses no body', async () => {
    const { response } = toResponse({ status: 204, headers: {}, body: 'ignored' });
    expect(response.body).toBeNull();
  });

  it('turns a stream into a ReadableStream and settles done when it ends', async () => {
    let sink: StreamSink | undefined;
    const stream: ApiStream = { kind: 'stream', start: (s) => (sink = s), cancel: () => undefined };
    const { response, done } = toResponse({ status: 200, headers: { 'Content-Type': 'application/json' }, body: stream });
    sink!.write('{"type":"ADDED"}\n');
    sink!.write(new TextEncoder().encode('{"type":"BOOKMARK"}\n'));
    sink!.end();
    await done;
    expect(await response.text()).toBe('{"type":"ADDED"}\n{"type":"BOOKMARK"}\n');
  });

  it('cancels the core stream when the reader goes away', async () => {
    let cancelled = 0;
    const stream: ApiStream = { kind: 'stream', start: () => undefined, cancel: () => cancelled++ };
    const { response, done } = toResponse({ status: 200, headers: {}, body: stream });
    await response.body!.cancel();
    await done;
    expect(cancelled).toBe(1);
  });
});

describe('the core behind the adapter, with input kube answers plainly', () => {
  it('a warning about a field named outside Latin-1 makes a valid Response header (its UTF-8 bytes)', async () => {
    const { createApiServer } = await import('../../core/api');
    const api = await createApiServer();
    try {
      const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'jp' }, '日本': 'x' });
      const req = new Request('http://x/api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
      const apiReq = await toApiRequest(req, '/api/v1/namespaces/default/configmaps');
      if ('tooLarge' in apiReq) throw new Error('too large');
      const { response } = toResponse(await api.handle(apiReq));
      expect(response.status).toBe(201);
      expect(Buffer.from(response.headers.get('Warning')!, 'latin1').toString('utf8')).toBe('299 - "unknown field \\"日本\\""');
    } finally {
      await api.close();
    }
  });

  it('method tokens no route serves are 405 MethodNotAllowed; fetch itself upper-cases only the standard six', async () => {
    const { createApiServer } = await import('../../core/api');
    const api = await createApiServer();
    try {
      for (const [method, status] of [['FOO', 405], ['patch', 405], ['get', 200]] as const) {
        const req = new Request('http://x/api/v1/namespaces/default/configmaps', { method });
        const apiReq = await toApiRequest(req, '/api/v1/namespaces/default/configmaps');
        if ('tooLarge' in apiReq) throw new Error('too large');
        const { response } = toResponse(await api.handle(apiReq));
        expect(response.status, method).toBe(status);
        if (status === 405) expect((await response.json()).reason).toBe('MethodNotAllowed');
      }
    } finally {
      await api.close();
    }
  });
});
