// IncomingMessage → ApiRequest. Works from rawHeaders so Node never builds its own lazily
// computed headers object for us (and so repeated headers are all kept, joined with ", ", where
// Node's `headers` would silently drop duplicates of e.g. content-type).
import type { IncomingMessage } from 'node:http';
import type { ApiRequest } from '../../core/meta/types';
import { ownValue, setOwnKey } from '../../core/codec/own-keys';

/** kube-apiserver's default request body limit (3 MiB, `--max-request-bytes` default for JSON/YAML). */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/** Thrown (as a value, not an Error) when the body is over the limit; the server answers 413. */
export const BODY_TOO_LARGE = Symbol('body too large');

export function collectHeaders(raw: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    // A header may be named `constructor` or `__proto__`: own keys only, read and written.
    const prev = ownValue(headers, name);
    setOwnKey(headers, name, prev === undefined ? raw[i + 1] : `${prev}, ${raw[i + 1]}`);
  }
  return headers;
}

/**
 * An absolute-form request target (`GET http://host/api/v1/pods`, as a client talking to a
 * proxy sends it) is served by its path and query, as Go's net/http serves it.
 */
export function originForm(url: string): string {
  const m = /^https?:\/\/[^/?#]*/i.exec(url);
  if (!m) return url;
  const rest = url.slice(m[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** True when the request announces a body (a length above zero, or chunked framing). */
function hasBody(headers: Record<string, string>): boolean {
  const len = headers['content-length'];
  if (len !== undefined) return len !== '0';
  return headers['transfer-encoding'] !== undefined;
}

/**
 * Builds the ApiRequest. Resolves to BODY_TOO_LARGE without reading further when the declared
 * Content-Length, or the bytes seen so far, exceed the limit.
 */
export function readApiRequest(req: IncomingMessage, limit = MAX_REQUEST_BODY_BYTES): Promise<ApiRequest | typeof BODY_TOO_LARGE> | ApiRequest | typeof BODY_TOO_LARGE {
  const headers = collectHeaders(req.rawHeaders);
  const apiReq: ApiRequest = { method: req.method ?? 'GET', url: originForm(req.url ?? '/'), headers };
  if (!hasBody(headers)) return apiReq;
  const declared = headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return BODY_TOO_LARGE;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        req.pause();
        resolve(BODY_TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      const buf = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
      apiReq.body = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      resolve(apiReq);
    });
    req.on('error', (err) => {
      if (done) return;
      done = true;
      reject(err);
    });
  });
}
