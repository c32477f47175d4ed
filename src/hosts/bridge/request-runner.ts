// Runs one relayed request in the page: fetch the Service Worker's API path, then send the answer
// back as frames. A watch goes out chunk by chunk as the worker's stream yields it; any other
// answer as one frame with its whole body (so the bridge can send a Content-Length), asked of the
// worker by message when the page can (askWorker: a fetch through the worker costs ~2.5 ms more,
// decision 0046). Paths the worker does not serve as API (the app shell, its private admin
// endpoints) are answered here with the API's 404 and never reach the network.
import { ADMIN_PREFIX, apiPathFor, type ApiAnswerMessage, type ApiRequestMessage } from '../sw/protocol';
import { USER_AGENT_CARRIER, encodeFrame, isWatchRequest, type PageFrame } from './protocol';

export interface RunnableRequest {
  id: number;
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body: Uint8Array;
}

export interface RunnerDeps {
  /** The page's fetch (tests pass one that answers from an API server). */
  fetch(url: string, init: RequestInit): Promise<Response>;
  /** The worker's answer to a request by message; undefined when it cannot be asked (then: fetch). */
  askWorker?(msg: ApiRequestMessage): Promise<ApiAnswerMessage> | undefined;
  /** The site's base path (`/` or `/sub/`), where the worker's API paths live. */
  basePath: string;
  send(frame: Uint8Array): void;
}

export interface RunOutcome {
  status?: number;
  state: 'done' | 'failed' | 'cancelled';
  error?: string;
}

const NOT_FOUND = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 });
const ENCODER = new TextEncoder();

/** Resolves same-origin paths as the page's fetch would (its origin does not matter here). */
const ANY_ORIGIN = 'http://page.invalid';

/**
 * The URL of an API path under the site's base and the path the worker's API sees (relative to
 * the base, with the query), or undefined when the worker would not answer it as API. The path
 * is checked both as sent and as the URL parser resolves it: `/api/../__playground/reset` is the
 * worker's admin endpoint once its dot segments are gone.
 */
export function workerTarget(basePath: string, path: string): { url: string; apiPath: string } | undefined {
  if (!path.startsWith('/')) return undefined;
  const q = path.indexOf('?');
  const base = basePath.replace(/\/$/, '');
  const sent = apiPathFor(base + (q === -1 ? path : path.slice(0, q)), basePath);
  if (sent === undefined || sent.startsWith(ADMIN_PREFIX)) return undefined;
  const url = new URL(base + path, ANY_ORIGIN);
  const apiPath = apiPathFor(url.pathname, basePath);
  if (url.origin !== ANY_ORIGIN || apiPath === undefined || apiPath.startsWith(ADMIN_PREFIX)) return undefined;
  return { url: base + path, apiPath: apiPath + url.search };
}

/**
 * The request as the worker would see it from a fetch: the Request constructor upper-cases the
 * standard methods, refuses forbidden ones (a TypeError, as fetch throws) and joins repeated
 * headers. The body gets a buffer of its own, handed to the worker rather than copied.
 */
function requestMessage(req: RunnableRequest, apiPath: string, withBody: boolean): ApiRequestMessage {
  const request = new Request(ANY_ORIGIN + apiPath, { method: req.method, headers: req.headers });
  const msg: ApiRequestMessage = { type: 'api', method: request.method, path: apiPath, headers: [...request.headers] };
  if (withBody) msg.body = req.body.slice();
  return msg;
}

/** Settles with undefined once `signal` aborts (the client went away). */
function untilAborted(signal: AbortSignal): Promise<undefined> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(undefined);
    else signal.addEventListener('abort', () => resolve(undefined), { once: true });
  });
}

/** Calls `onHead` with the status as soon as it is known; resolves when the request is over. */
export async function runRequest(req: RunnableRequest, deps: RunnerDeps, signal: AbortSignal, onHead: (status: number) => void): Promise<RunOutcome> {
  const send = (frame: PageFrame, body?: Uint8Array) => {
    if (!signal.aborted) deps.send(encodeFrame(frame, body));
  };
  const target = workerTarget(deps.basePath, req.path);
  if (target === undefined) {
    onHead(404);
    send({ t: 'res', id: req.id, status: 404, headers: [['content-type', 'application/json']], stream: false }, ENCODER.encode(NOT_FOUND));
    return { status: 404, state: 'done' };
  }
  const withBody = req.method !== 'GET' && req.method !== 'HEAD' && req.body.byteLength > 0;
  const watch = isWatchRequest(req.path);
  let status: number | undefined;
  try {
    const asked = watch ? undefined : deps.askWorker?.(requestMessage(req, target.apiPath, withBody));
    if (asked) {
      const answer = await Promise.race([asked, untilAborted(signal)]);
      if (answer === undefined) return { state: 'cancelled' };
      status = answer.status;
      onHead(status);
      send({ t: 'res', id: req.id, status, headers: answer.headers, stream: false }, answer.body);
      return { status, state: 'done' };
    }
    const res = await deps.fetch(target.url, { method: req.method, headers: req.headers, body: withBody ? (req.body as Uint8Array<ArrayBuffer>) : undefined, signal });
    status = res.status;
    onHead(status);
    const headers = [...res.headers];
    if (!watch || !res.body) {
      const body = new Uint8Array(await res.arrayBuffer());
      send({ t: 'res', id: req.id, status, headers, stream: false }, body);
      return { status, state: 'done' };
    }
    send({ t: 'res', id: req.id, status, headers, stream: true });
    const reader = res.body.getReader();
    // Cancelling the reader reaches the worker's stream, which stops the API's watch.
    const stop = () => void reader.cancel().catch(() => undefined);
    signal.addEventListener('abort', stop, { once: true });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      send({ t: 'data', id: req.id }, value);
    }
    signal.removeEventListener('abort', stop);
    if (signal.aborted) return { status, state: 'cancelled' };
    send({ t: 'end', id: req.id });
    return { status, state: 'done' };
  } catch (err) {
    if (signal.aborted) return { status, state: 'cancelled' };
    // The worker stopped or the stream broke: the bridge answers 503 (or ends the watch).
    const message = err instanceof Error ? err.message : String(err);
    send({ t: 'fail', id: req.id, message });
    return { status, state: 'failed', error: message };
  }
}

/** kubectl's User-Agent as the page received it (carried in its own header). */
export function userAgentOf(headers: Array<[string, string]>): string {
  return headers.find(([name]) => name === USER_AGENT_CARRIER)?.[1] ?? '';
}
