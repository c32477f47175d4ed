// Test helper for API-level tests: an in-process ApiServer with small request helpers, decoded
// replies, Status assertions and a watch collector. Used only by *.test.ts files; it imports
// nothing from vitest so it stays a plain module the core's tsconfig can check.
import { createApiServer, type ApiServer, type ApiServerOptions } from '../api';
import { bodyBytes, isParts, isStream, type ApiResponse, type ApiStream } from '../meta/types';
import { createMemoryBackend } from '../storage/memory-backend';

/** A response with its body decoded once. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** The body as text ('' for streams and empty bodies). */
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
  /** The raw response (streams stay available here). */
  raw: ApiResponse;
}

export type Headers = Record<string, string>;

export const MERGE_PATCH = 'application/merge-patch+json';
export const JSON_PATCH = 'application/json-patch+json';
export const TABLE_V1 = 'application/json;as=Table;v=v1;g=meta.k8s.io';
export const TABLE_V1BETA1 = 'application/json;as=Table;v=v1beta1;g=meta.k8s.io';

export interface TestClient {
  api: ApiServer;
  request(method: string, url: string, body?: unknown, headers?: Headers): Promise<Reply>;
  get(url: string, headers?: Headers): Promise<Reply>;
  post(url: string, body: unknown, headers?: Headers): Promise<Reply>;
  put(url: string, body: unknown, headers?: Headers): Promise<Reply>;
  /** PATCH with a merge patch unless another content type is given. */
  patch(url: string, body: unknown, contentType?: string, headers?: Headers): Promise<Reply>;
  del(url: string, body?: unknown, headers?: Headers): Promise<Reply>;
  close(): Promise<void>;
}

const encoder = new TextEncoder();

function encodeBody(body: unknown): Uint8Array | undefined {
  if (body === undefined) return undefined;
  if (body instanceof Uint8Array) return body;
  return encoder.encode(typeof body === 'string' ? body : JSON.stringify(body));
}

export function decodeReply(res: ApiResponse): Reply {
  let text = '';
  if (typeof res.body === 'string') text = res.body;
  else if (res.body instanceof Uint8Array || isParts(res.body)) text = new TextDecoder().decode(bodyBytes(res.body));
  let json: any;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status: res.status, headers: res.headers, text, json, raw: res };
}

/** Start a server in-process. Strings and objects given as bodies are sent as JSON text. */
export async function startTestServer(opts: ApiServerOptions = {}): Promise<TestClient> {
  // The namespace controller runs right after the request that deleted a namespace, not 5 s later.
  const api = await createApiServer({ namespaceDeletionGracePeriodMs: 0, ...opts });
  const request = async (method: string, url: string, body?: unknown, headers: Headers = {}): Promise<Reply> => {
    const h: Headers = {};
    if (body !== undefined) h['content-type'] = 'application/json';
    for (const [k, v] of Object.entries(headers)) h[k.toLowerCase()] = v;
    return decodeReply(await api.handle({ method, url, headers: h, body: encodeBody(body) }));
  };
  return {
    api,
    request,
    get: (url, headers) => request('GET', url, undefined, headers),
    post: (url, body, headers) => request('POST', url, body, headers),
    put: (url, body, headers) => request('PUT', url, body, headers),
    patch: (url, body, contentType = MERGE_PATCH, headers = {}) => request('PATCH', url, body, { ...headers, 'content-type': contentType }),
    del: (url, body, headers) => request('DELETE', url, body, headers),
    close: () => api.close(),
  };
}

/** The Status a failed request answers, checked for its fixed fields; returns it for further checks. */
export function statusOf(reply: Reply): { message: string; reason?: string; code: number; details?: any; status: string } {
  const s = reply.json;
  if (!s || s.kind !== 'Status' || s.apiVersion !== 'v1') throw new Error(`expected a Status body, got ${reply.status}: ${reply.text.slice(0, 300)}`);
  if (s.code !== reply.status) throw new Error(`Status code ${s.code} differs from HTTP status ${reply.status}`);
  return s;
}

/** A compact summary for toEqual: `{code, reason, message}` of a Status reply. */
export function failure(reply: Reply): { code: number; reason: string | undefined; message: string } {
  const s = statusOf(reply);
  return { code: s.code, reason: s.reason, message: s.message };
}

/** Poll until `probe` returns a value that is not undefined (or throw after timeoutMs). */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 5000, stepMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise<void>((r) => setTimeout(() => r(), stepMs));
  }
}

/** Collects a streaming body (watch) as parsed JSON lines. */
export interface StreamCollector {
  events: any[];
  ended: boolean;
  /** Wait until `n` events arrived (or the timeout passes: then throws). */
  waitFor(n: number, timeoutMs?: number): Promise<any[]>;
  cancel(): void;
}

export function collectStream(res: ApiResponse): StreamCollector {
  if (!isStream(res.body)) throw new Error(`expected a stream, got status ${res.status}`);
  const stream: ApiStream = res.body;
  let buffer = '';
  const c: StreamCollector = {
    events: [],
    ended: false,
    async waitFor(n, timeoutMs = 3000) {
      await eventually(async () => (c.events.length >= n ? true : undefined), timeoutMs, 10);
      return c.events;
    },
    cancel: () => stream.cancel(),
  };
  stream.start({
    write(chunk) {
      buffer += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk);
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.trim()) c.events.push(JSON.parse(line));
      }
      return true;
    },
    end() {
      c.ended = true;
    },
  });
  return c;
}

// Object builders for the kinds the tests use most.

export function configMap(name: string, data: Record<string, string> = { a: '1' }, extra: Record<string, unknown> = {}): any {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data };
}

export function deployment(name: string, replicas = 1): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
}

export function pod(name: string, labels: Record<string, string> = {}): any {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
}

/** A unique suffix so tests in one file do not collide on names. */
let counter = 0;
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

/**
 * A server whose storage holds objects as an older release may have stored them: `write` makes
 * them through the API, `rewrite` then edits each stored JSON text (e.g. a webhook's
 * `sideEffects: Some`, which v1 validation refuses now), and the server starts on that state.
 */
export async function startWithStoredState(
  opts: ApiServerOptions,
  write: (c: TestClient) => Promise<unknown>,
  rewrite: (key: string, value: string) => string,
): Promise<TestClient> {
  const first = await startTestServer();
  await write(first);
  const state = await first.api.snapshot!();
  await first.close();
  const values = (state.values ?? []).map(([k, v]) => [k, rewrite(k, v)] as [string, string]);
  const events = state.events.map((e) => (e.value === undefined ? e : { ...e, value: rewrite(e.key, e.value) }));
  return startTestServer({ ...opts, backend: createMemoryBackend({ ...state, values, events }) });
}
