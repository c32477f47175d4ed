// The worker's side of an ApiRequestMessage: an API request that arrived as a message rather than
// as a fetch (the kubectl bridge's non-watch requests, decision 0046). The core gets the
// ApiRequest a fetch of that path would give it (see toApiRequest and service-worker.ts), and the
// page gets what it would have read from that fetch's Response: the status, the headers as
// Headers iterate them (lower-cased, sorted), and the whole body.
import { bodyBytes, isStream, type ApiRequest, type ApiResponse } from '../../core/meta/types';
import { setOwnKey } from '../../core/codec/own-keys';
import { MAX_REQUEST_BODY_BYTES, readableFrom } from './fetch-adapter';
import { restoreBridgedUserAgent } from './bridged-user-agent';
import type { ApiAnswerMessage, ApiRequestMessage } from './protocol';

/** Statuses whose Response has no body, whatever the core wrote. */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);
const EMPTY = new Uint8Array(0);

/** Whether `data` is an ApiRequestMessage (the worker's message handler routes on it). */
export function isApiRequestMessage(data: unknown): data is ApiRequestMessage {
  const m = data as Partial<ApiRequestMessage> | undefined;
  return typeof m === 'object' && m !== null && m.type === 'api' && typeof m.method === 'string' && typeof m.path === 'string' && Array.isArray(m.headers);
}

function statusAnswer(code: number, reason: string, message: string): ApiAnswerMessage {
  const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
  return { type: 'api', status: code, headers: [['content-type', 'application/json']], body: new TextEncoder().encode(body) };
}

/** The headers of a Response the core's answer becomes (toResponse), as the page iterates them. */
function responseHeaders(apiRes: ApiResponse): Array<[string, string]> {
  const headers = new Headers();
  for (const name in apiRes.headers) {
    const lower = name.toLowerCase();
    // The browser frames the body itself and never shows a page Set-Cookie.
    if (lower === 'content-length' || lower === 'set-cookie') continue;
    headers.append(name, apiRes.headers[name]!);
  }
  return [...headers];
}

/** The body as one buffer of its own: a view into a larger one would clone all of it. */
async function wholeBody(apiRes: ApiResponse): Promise<Uint8Array> {
  const body = apiRes.body;
  if (body === undefined) return EMPTY;
  const bytes = isStream(body) ? new Uint8Array(await new Response(readableFrom(body).stream).arrayBuffer()) : bodyBytes(body);
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

/** Runs one message's request through `handle` (the core's), as the fetch handler would. */
export async function answerApiMessage(msg: ApiRequestMessage, handle: (req: ApiRequest) => Promise<ApiResponse>): Promise<ApiAnswerMessage> {
  try {
    const headers: Record<string, string> = {};
    new Headers(msg.headers).forEach((value, name) => setOwnKey(headers, name, value));
    delete headers['accept-encoding'];
    restoreBridgedUserAgent(headers);
    const apiReq: ApiRequest = { method: msg.method, url: msg.path, headers };
    if (msg.method !== 'GET' && msg.method !== 'HEAD' && msg.body && msg.body.byteLength > 0) {
      if (msg.body.byteLength > MAX_REQUEST_BODY_BYTES) return statusAnswer(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${MAX_REQUEST_BODY_BYTES}`);
      apiReq.body = msg.body;
    }
    const apiRes = await handle(apiReq);
    const empty = msg.method === 'HEAD' || NULL_BODY_STATUS.has(apiRes.status);
    if (empty && apiRes.body !== undefined && isStream(apiRes.body)) apiRes.body.cancel();
    return { type: 'api', status: apiRes.status, headers: responseHeaders(apiRes), body: empty ? EMPTY : await wholeBody(apiRes) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return statusAnswer(500, 'InternalError', `Internal error occurred: ${message}`);
  }
}
