// Requests Node's HTTP parser (llhttp) refuses before the host's request handler runs, answered as
// Go's net/http, and so kube-apiserver, answers them (docs/decisions/0020-bad-input-as-kube-answers.md):
//
// - A method token llhttp does not know (`FOO`, a lowercase `get`): Go accepts any token, so the
//   core decides (a 405 MethodNotAllowed Status on API paths, `ok` from /healthz). The host reads
//   the request head itself from the bytes llhttp refused, hands the core a bodiless request and
//   closes the connection after the answer (the parser cannot go on after its error).
// - A request head over the limit: Go's `431 Request Header Fields Too Large` text.
// - Anything else llhttp refuses: Go's `400 Bad Request` text, the connection closed.
import { STATUS_CODES, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ApiRequest, ApiResponse } from '../../core/meta/types';
import { bodyBytes, isStream } from '../../core/meta/types';
import { collectHeaders, originForm } from './request-adapter';

/** kube-apiserver's http.Server MaxHeaderBytes. */
export const MAX_HEADER_BYTES = 1 << 20;
/** What Go reads of a request head before it answers 431: MaxHeaderBytes plus bufio's 4 KiB slack. */
export const HEAD_READ_LIMIT = MAX_HEADER_BYTES + 4096;

/** How long a client may take to finish a head the parser gave up on. */
const HEAD_TIMEOUT_MS = 30_000;

const GO_ERROR_HEADERS = '\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n';

/** Go's net/http answer to a request it cannot read: the status line and the same text as body. */
function goPlainError(publicError: string): string {
  return `HTTP/1.1 ${publicError}${GO_ERROR_HEADERS}${publicError}`;
}

/** RFC 7230 tchar: what Go's validMethod accepts in a method. */
function isTokenByte(b: number): boolean {
  if (b >= 0x30 && b <= 0x39) return true;
  if ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a)) return true;
  return "!#$%&'*+-.^_`|~".includes(String.fromCharCode(b));
}

/**
 * Where the refused request starts in the packet llhttp was reading: llhttp stops somewhere inside
 * the method token, after the previous request's line end or at the packet's start. (A pipelined
 * body not ending in a line break would glue onto the method; the core refuses the glued token
 * just the same.)
 */
function requestStart(packet: Buffer, stoppedAt: number): number {
  let i = Math.min(Math.max(stoppedAt, 0), packet.length);
  while (i > 0 && isTokenByte(packet[i - 1])) i--;
  return i;
}

/** The end of a request head (after its blank line), or -1. Go accepts bare LF line ends too. */
function headEnd(buf: Buffer): number {
  for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, i + 1)) {
    if (buf[i + 1] === 0x0a) return i + 2;
    if (buf[i + 1] === 0x0d && buf[i + 2] === 0x0a) return i + 3;
  }
  return -1;
}

type ParsedHead = { ok: true; request: ApiRequest } | { ok: false; reason: string };

/** Go's readRequest, as far as a bodiless request needs it, with its 400 reasons. */
function parseHead(head: string): ParsedHead {
  const lines = head.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const [method, target, proto, ...extra] = lines[0].split(' ');
  if (target === undefined || proto === undefined || extra.length) return { ok: false, reason: 'malformed HTTP request' };
  if (method === '' || ![...method].every((c) => isTokenByte(c.charCodeAt(0)))) return { ok: false, reason: 'invalid method' };
  if (!/^HTTP\/\d\.\d$/.test(proto)) return { ok: false, reason: 'malformed HTTP version' };
  const raw: string[] = [];
  for (const line of lines.slice(1)) {
    if (line === '') break;
    const colon = line.indexOf(':');
    if (colon <= 0 || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(line.slice(0, colon))) return { ok: false, reason: 'malformed MIME header line' };
    raw.push(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  const headers = collectHeaders(raw);
  if (proto === 'HTTP/1.1' && headers['host'] === undefined) return { ok: false, reason: 'missing required Host header' };
  return { ok: true, request: { method, url: originForm(target), headers } };
}

/** The core's answer as bytes on the wire, the connection closed after it. */
function responseBytes(res: ApiResponse): Buffer {
  let body: Uint8Array = new Uint8Array(0);
  if (isStream(res.body)) res.body.cancel();
  else if (res.body !== undefined) body = typeof res.body === 'string' ? Buffer.from(res.body, 'utf8') : bodyBytes(res.body);
  let head = `HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? ''}\r\n`;
  for (const name in res.headers) {
    const lower = name.toLowerCase();
    if (lower === 'content-length' || lower === 'connection') continue;
    head += `${name}: ${res.headers[name]}\r\n`;
  }
  head += `Date: ${new Date().toUTCString()}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  // Header values are byte strings (one char per byte): latin1 writes each char as its byte.
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/** Node's own listeners of the parser it gave up on; they would feed it again and re-raise the error. */
function detachParser(socket: Socket): void {
  for (const event of ['data', 'end'] as const) {
    for (const listener of socket.listeners(event)) {
      if (/^bound socketOn(Data|End)$/.test((listener as { name?: string }).name ?? '')) socket.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
}

export interface ClientErrorOptions {
  /** Serves a request the parser refused for its method. */
  serve(req: ApiRequest, socket: Socket): Promise<ApiResponse>;
  /** The response in flight on a socket, if any: nothing may be written before it is done. */
  inFlight(socket: Socket): ServerResponse | undefined;
}

/** Takes over Node's `clientError` handling for the server (plain or TLS). */
export function answerClientErrors(server: HttpServer, opts: ClientErrorOptions): void {
  const taken = new WeakSet<Socket>();
  server.on('clientError', (err: Error & { code?: string; rawPacket?: Buffer; bytesParsed?: number }, socket: Socket) => {
    if (taken.has(socket)) return;
    const busy = opts.inFlight(socket);
    const before = busy && !busy.writableFinished ? busy : undefined;
    if (err.code === 'HPE_INVALID_METHOD' && err.rawPacket && socket.writable) {
      taken.add(socket);
      takeOver(socket, err.rawPacket, err.bytesParsed ?? 0, opts, before);
      return;
    }
    // A response is still being written on this connection: Node's way, close without a word.
    if (before) {
      socket.destroy(err);
      return;
    }
    if (socket.writable) socket.write(err.code === 'HPE_HEADER_OVERFLOW' ? goPlainError('431 Request Header Fields Too Large') : goPlainError('400 Bad Request'));
    socket.destroy(err);
  });
}

/** Resolves once the response (of a request pipelined before the refused one) is written. */
function written(res: ServerResponse | undefined): Promise<void> {
  if (!res || res.writableFinished) return Promise.resolve();
  return new Promise((resolve) => {
    res.once('finish', () => resolve());
    res.once('close', () => resolve());
  });
}

function takeOver(socket: Socket, packet: Buffer, stoppedAt: number, opts: ClientErrorOptions, before: ServerResponse | undefined): void {
  detachParser(socket);
  let buf = Buffer.from(packet.subarray(requestStart(packet, stoppedAt)));
  let done = false;
  const timer = setTimeout(() => finish(), HEAD_TIMEOUT_MS);
  timer.unref();
  const finish = (reply?: string | Buffer) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    socket.removeListener('data', onData);
    // Responses go out in request order: after the one still being written, if any.
    void written(before).then(() => {
      if (reply !== undefined && socket.writable) {
        socket.end(reply);
        // Go closes its side and waits a little for the client to hang up; so do we.
        setTimeout(() => socket.destroy(), 5000).unref();
      } else socket.destroy();
    });
  };
  const tryHead = () => {
    const end = headEnd(buf);
    if (end === -1) {
      if (buf.length > HEAD_READ_LIMIT) finish(goPlainError('431 Request Header Fields Too Large'));
      return;
    }
    if (end > HEAD_READ_LIMIT) {
      finish(goPlainError('431 Request Header Fields Too Large'));
      return;
    }
    // The rest (a body nobody reads) flows on into nothing until the connection closes.
    socket.removeListener('data', onData);
    const parsed = parseHead(buf.subarray(0, end).toString('latin1'));
    if (!parsed.ok) {
      finish(goPlainError(`400 Bad Request: ${parsed.reason}`));
      return;
    }
    opts.serve(parsed.request, socket).then(
      (res) => finish(responseBytes(res)),
      () => finish(),
    );
  };
  const onData = (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    tryHead();
  };
  socket.on('data', onData);
  socket.on('error', () => finish());
  socket.on('close', () => finish());
  tryHead();
}
