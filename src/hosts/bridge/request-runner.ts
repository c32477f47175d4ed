// Runs one relayed request in the page: fetch the Service Worker's API path, then send the answer
// back as frames. A watch goes out chunk by chunk as the worker's stream yields it; any other
// answer as one frame with its whole body (so the bridge can send a Content-Length). Paths the
// worker does not serve as API (the app shell, its private admin endpoints) are answered here
// with the API's 404 and never reach the network.
import { ADMIN_PREFIX, apiPathFor } from '../sw/protocol';
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

/** The URL of an API path under the site's base, or undefined when the worker would not answer it. */
export function workerUrl(basePath: string, path: string): string | undefined {
  const q = path.indexOf('?');
  const pathname = basePath.replace(/\/$/, '') + (q === -1 ? path : path.slice(0, q));
  const apiPath = apiPathFor(pathname, basePath);
  if (apiPath === undefined || apiPath.startsWith(ADMIN_PREFIX) || !path.startsWith('/')) return undefined;
  return basePath.replace(/\/$/, '') + path;
}

/** Calls `onHead` with the status as soon as it is known; resolves when the request is over. */
export async function runRequest(req: RunnableRequest, deps: RunnerDeps, signal: AbortSignal, onHead: (status: number) => void): Promise<RunOutcome> {
  const send = (frame: PageFrame, body?: Uint8Array) => {
    if (!signal.aborted) deps.send(encodeFrame(frame, body));
  };
  const url = workerUrl(deps.basePath, req.path);
  if (url === undefined) {
    onHead(404);
    send({ t: 'res', id: req.id, status: 404, headers: [['content-type', 'application/json']], stream: false }, ENCODER.encode(NOT_FOUND));
    return { status: 404, state: 'done' };
  }
  const withBody = req.method !== 'GET' && req.method !== 'HEAD' && req.body.byteLength > 0;
  let status: number | undefined;
  try {
    const res = await deps.fetch(url, { method: req.method, headers: req.headers, body: withBody ? (req.body as Uint8Array<ArrayBuffer>) : undefined, signal });
    status = res.status;
    onHead(status);
    const headers = [...res.headers];
    if (!isWatchRequest(req.path) || !res.body) {
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
