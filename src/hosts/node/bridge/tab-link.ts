// One paired tab's WebSocket, multiplexing every relayed request on it by id. Each request is
// one `req` frame; the tab answers with `res` (a whole body, or the head of a stream), `data`
// chunks, `end`, or `fail`. Bytes go to the HTTP client as the tab's API produced them; only
// the framing (Content-Length or chunked) is the bridge's. When the client goes away first, the
// tab is told to cancel (the end of a `kubectl get -w`); when the tab goes away first, the client
// gets a 503 Status, or, in a watch already streaming, a final ERROR event carrying that Status.
import type { ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import { encodeWatchFrame } from '../../../core/codec/protobuf';
import { BadFrame, canonicalHeaderName, decodeFrame, encodeFrame, type BridgeFrame, type PageFrame } from '../../bridge/protocol';
import { TIMEOUT, tabNotConnected } from './statuses';

export interface RelayedRequest {
  method: string;
  /** Path and query, as the client sent them. */
  path: string;
  headers: Array<[string, string]>;
  body?: Uint8Array;
  /** A watch streams for as long as it lasts; anything else must be answered within the timeout. */
  watch: boolean;
}

interface Pending {
  res: ServerResponse;
  watch: boolean;
  /** Set once a streamed head went out: later failures end the body instead of answering 503. */
  streamContentType?: string;
  timer?: NodeJS.Timeout;
  settle(): void;
}

/** Headers the bridge frames itself; the tab's values (if any) would disagree with its framing. */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);
const NULL_BODY_STATUS = new Set([204, 304]);

function headerList(headers: Array<[string, string]>, contentLength: number | undefined): string[] {
  const out: string[] = [];
  for (const [name, value] of headers) {
    if (FRAMING_HEADERS.has(name.toLowerCase())) continue;
    out.push(canonicalHeaderName(name), value);
  }
  if (contentLength !== undefined) out.push('Content-Length', String(contentLength));
  return out;
}

function writeStatus(res: ServerResponse, code: number, body: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(code, ['Content-Type', 'application/json', 'Content-Length', String(Buffer.byteLength(body))]);
  res.end(body);
}

/** The last event of a watch the tab could not finish, in the watch's own encoding. */
function watchErrorEvent(contentType: string, statusJson: string): Uint8Array | string | undefined {
  if (contentType.startsWith('application/vnd.kubernetes.protobuf')) return encodeWatchFrame('ERROR', JSON.parse(statusJson) as Record<string, unknown>, 'v1');
  if (contentType.startsWith('application/json')) return `{"type":"ERROR","object":${statusJson}}\n`;
  return undefined;
}

export class TabLink {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closed = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly requestTimeoutMs: number,
  ) {
    socket.on('message', (data, isBinary) => {
      if (isBinary) this.onFrame(data as Buffer);
    });
  }

  get open(): boolean {
    return !this.closed;
  }

  /** Requests waiting for the tab or streaming from it. */
  get size(): number {
    return this.pending.size;
  }

  /** Hands one request to the tab; `settle` runs once when it is over, however it ends. */
  relay(req: RelayedRequest, res: ServerResponse, settle: () => void): void {
    const id = this.nextId++;
    const entry: Pending = { res, watch: req.watch, settle };
    this.pending.set(id, entry);
    res.on('close', () => {
      // The client hung up before the answer was complete: the tab stops working on it.
      if (this.pending.get(id) !== entry) return;
      this.finish(id);
      this.send({ t: 'cancel', id });
    });
    if (!req.watch && this.requestTimeoutMs > 0) {
      entry.timer = setTimeout(() => {
        if (this.pending.get(id) !== entry || entry.streamContentType !== undefined) return;
        this.finish(id);
        this.send({ t: 'cancel', id });
        writeStatus(res, 504, TIMEOUT);
      }, this.requestTimeoutMs);
    }
    // The socket may have closed before its close event ran: answer now rather than never.
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return this.failRequest(id);
    this.send({ t: 'req', id, method: req.method, path: req.path, headers: req.headers }, req.body);
  }

  /** The tab is gone: every pending request ends (503, or an ERROR event in a streaming watch). */
  abandon(cause?: string): void {
    this.closed = true;
    for (const id of [...this.pending.keys()]) this.failRequest(id, cause);
  }

  private send(frame: BridgeFrame, body?: Uint8Array): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(encodeFrame(frame, body));
  }

  private finish(id: number): Pending | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    if (entry.timer) clearTimeout(entry.timer);
    entry.settle();
    return entry;
  }

  private failRequest(id: number, cause?: string): void {
    const entry = this.finish(id);
    if (!entry) return;
    const body = tabNotConnected(cause);
    if (entry.streamContentType === undefined) {
      writeStatus(entry.res, 503, body);
      return;
    }
    const last = watchErrorEvent(entry.streamContentType, body);
    if (last !== undefined && !entry.res.destroyed) entry.res.write(last);
    entry.res.end();
  }

  private onFrame(bytes: Buffer): void {
    let frame: { header: PageFrame; body: Uint8Array };
    try {
      frame = decodeFrame<PageFrame>(bytes);
    } catch (err) {
      // A tab that speaks another protocol cannot be trusted with the rest of the stream.
      if (err instanceof BadFrame) this.socket.close(1002, err.message);
      return;
    }
    const { header, body } = frame;
    const entry = this.pending.get(header.id);
    if (!entry) return; // cancelled or timed out meanwhile
    const res = entry.res;
    switch (header.t) {
      case 'res':
        if (!header.stream) {
          this.finish(header.id);
          const empty = NULL_BODY_STATUS.has(header.status);
          res.writeHead(header.status, headerList(header.headers, empty ? undefined : body.byteLength));
          res.end(empty ? undefined : body);
          return;
        }
        entry.streamContentType = header.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
        res.writeHead(header.status, headerList(header.headers, undefined));
        res.flushHeaders();
        return;
      case 'data':
        if (entry.streamContentType !== undefined) res.write(body);
        return;
      case 'end':
        this.finish(header.id);
        res.end();
        return;
      case 'fail':
        this.failRequest(header.id, header.message);
        return;
    }
  }
}
