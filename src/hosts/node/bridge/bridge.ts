// The bridge's state: the pairing, the one tab it serves, and the bounds on what it relays.
// Network details (ports, TLS, the WebSocket upgrade and its Origin check) live in server.ts;
// this file decides what happens to each authenticated request and each tab socket.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { RawData, WebSocket } from 'ws';
import { BODY_TOO_LARGE, MAX_REQUEST_BODY_BYTES, readApiRequest } from '../request-adapter';
import { CLOSE_REFUSED, CLOSE_REPLACED, USER_AGENT_CARRIER, isWatchRequest, type BridgeControl, type PageControl } from '../../bridge/protocol';
import { Pairing } from './pairing';
import { TabLink } from './tab-link';
import { RETRY_AFTER_SECONDS, TOO_MANY_REQUESTS, UNAUTHORIZED, tabNotConnected, tooLarge } from './statuses';

export interface BridgeLimits {
  /** Requests other than watches waiting for the tab at once; more get 429 (kube's max-in-flight). */
  maxInFlight: number;
  /** Watches open at once through the bridge; more get 429. */
  maxWatches: number;
  /** A non-watch request the tab has not answered by then gets 504 (0: no limit). */
  requestTimeoutMs: number;
}

export const DEFAULT_LIMITS: BridgeLimits = { maxInFlight: 64, maxWatches: 256, requestTimeoutMs: 60_000 };

/** What the bridge tells the person running it (main.ts prints these). */
export interface BridgeEvents {
  paired(origin: string, replacedAnother: boolean): void;
  resumed(origin: string): void;
  disconnected(origin: string): void;
  /** A new one-time code to show (after a pairing used the old one, or too many wrong codes). */
  code(displayCode: string): void;
}

export interface BridgeOptions {
  token: string;
  limits?: Partial<BridgeLimits>;
  events: BridgeEvents;
  /** Runs before a tab hears it is paired: the kubeconfig is on disk by the time the page says so. */
  onPairing(): Promise<{ server: string; kubeconfig: string }>;
}

/** Request headers a browser's fetch may not set, hop-by-hop headers, and the bridge's own credentials. */
const DROPPED_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'accept-encoding', 'authorization', 'keep-alive', 'te', 'trailer', 'upgrade', 'expect', 'cookie', 'origin', 'referer', 'via', 'date', 'dnt']);

/** Headers to hand to the tab's fetch; kubectl's User-Agent rides in the carrier header. */
export function relayedHeaders(headers: Record<string, string>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const name in headers) {
    if (DROPPED_HEADERS.has(name) || name.startsWith('proxy-') || name.startsWith('sec-')) continue;
    out.push([name === 'user-agent' ? USER_AGENT_CARRIER : name, headers[name]!]);
  }
  return out;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function bearerToken(header: string | undefined): string | undefined {
  const m = header ? /^bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m?.[1];
}

function answer(res: ServerResponse, code: number, body: string, extra: string[] = []): void {
  res.writeHead(code, ['Content-Type', 'application/json', 'Content-Length', String(Buffer.byteLength(body)), ...extra]);
  res.end(body);
}

/** How long a new socket may take to say `pair` or `resume` before the bridge hangs up. */
const HELLO_TIMEOUT_MS = 10_000;
/** Pings find a tab that vanished without closing its socket (a crashed or frozen browser). */
const HEARTBEAT_MS = 15_000;

interface PairedTab {
  socket: WebSocket;
  link: TabLink;
  origin: string;
  session: string;
}

export class Bridge {
  readonly pairing = new Pairing();
  private readonly limits: BridgeLimits;
  private tab: PairedTab | undefined;
  private inFlight = 0;
  private watches = 0;

  constructor(private readonly options: BridgeOptions) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
  }

  get connected(): boolean {
    return this.tab !== undefined;
  }

  /** An HTTP request for the Kubernetes API: authenticate, bound, then relay to the paired tab. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const token = bearerToken(req.headers.authorization);
    if (token === undefined || !sameSecret(token, this.options.token)) return answer(res, 401, UNAUTHORIZED);
    const apiReq = await readApiRequest(req);
    // The unread rest of an oversized body must not be read as the next request.
    if (apiReq === BODY_TOO_LARGE) return answer(res, 413, tooLarge(MAX_REQUEST_BODY_BYTES), ['Connection', 'close']);
    const tab = this.tab;
    if (!tab) return answer(res, 503, tabNotConnected());
    const watch = isWatchRequest(apiReq.url);
    if (watch ? this.watches >= this.limits.maxWatches : this.inFlight >= this.limits.maxInFlight) {
      return answer(res, 429, TOO_MANY_REQUESTS, ['Retry-After', String(RETRY_AFTER_SECONDS)]);
    }
    if (watch) this.watches++;
    else this.inFlight++;
    const settle = () => {
      if (watch) this.watches--;
      else this.inFlight--;
    };
    tab.link.relay({ method: apiReq.method, path: apiReq.url, headers: relayedHeaders(apiReq.headers), body: apiReq.body, watch }, res, settle);
  }

  /** A WebSocket from a page whose Origin server.ts already accepted: wait for `pair` or `resume`. */
  accept(socket: WebSocket, origin: string): void {
    const timer = setTimeout(() => socket.close(CLOSE_REFUSED, 'no pairing message'), HELLO_TIMEOUT_MS);
    socket.once('message', (data: RawData, isBinary: boolean) => {
      clearTimeout(timer);
      let msg: PageControl | undefined;
      try {
        msg = isBinary ? undefined : (JSON.parse(String(data)) as PageControl);
      } catch {
        msg = undefined;
      }
      if (msg?.type === 'pair' && typeof msg.code === 'string') void this.tryPair(socket, origin, msg.code);
      else if (msg?.type === 'resume' && typeof msg.session === 'string') this.tryResume(socket, origin, msg.session);
      else this.refuse(socket, 'expected a pairing message');
    });
  }

  /** Ends the paired tab's requests and closes every socket (shutdown). */
  close(): void {
    const tab = this.tab;
    this.tab = undefined;
    tab?.link.abandon('the bridge is shutting down');
    tab?.socket.close(1001, 'the bridge is shutting down');
  }

  private async tryPair(socket: WebSocket, origin: string, code: string): Promise<void> {
    const outcome = this.pairing.pair(code);
    if (!outcome.ok) {
      this.refuse(socket, outcome.message);
      if (outcome.codeChanged) this.options.events.code(this.pairing.displayCode);
      return;
    }
    const where = await this.options.onPairing();
    if (socket.readyState !== socket.OPEN) return;
    const replacedAnother = this.tab !== undefined;
    this.attach(socket, origin, outcome.session, 'another tab paired with the bridge and serves kubectl now; to serve it from this tab again, enter the new code the bridge printed');
    this.say(socket, { type: 'paired', session: outcome.session, ...where });
    this.options.events.paired(origin, replacedAnother);
    this.options.events.code(this.pairing.displayCode);
  }

  private tryResume(socket: WebSocket, origin: string, session: string): void {
    const outcome = this.pairing.resume(session);
    if (outcome === 'superseded') {
      this.say(socket, { type: 'replaced', message: 'another tab paired with the bridge since: pair again to serve kubectl from this tab' });
      socket.close(CLOSE_REPLACED, 'replaced');
      return;
    }
    if (outcome === 'unknown') return this.refuse(socket, 'the bridge does not know this tab (it was restarted?): enter the code it prints now');
    // The same tab again (a reload, or a dropped socket): no one to tell it was replaced.
    this.attach(socket, origin, session, undefined);
    void this.options.onPairing().then((where) => this.say(socket, { type: 'paired', session, ...where }));
    this.options.events.resumed(origin);
  }

  private attach(socket: WebSocket, origin: string, session: string, replacedMessage: string | undefined): void {
    const previous = this.tab;
    const link = new TabLink(socket, this.limits.requestTimeoutMs);
    this.tab = { socket, link, origin, session };
    if (previous) {
      previous.link.abandon(replacedMessage ?? 'the tab reconnected');
      if (replacedMessage) this.say(previous.socket, { type: 'replaced', message: replacedMessage });
      previous.socket.close(CLOSE_REPLACED, 'replaced');
    }
    let alive = true;
    socket.on('pong', () => (alive = true));
    const heartbeat = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
    }, HEARTBEAT_MS);
    heartbeat.unref();
    socket.on('close', () => {
      clearInterval(heartbeat);
      link.abandon();
      if (this.tab?.socket !== socket) return;
      this.tab = undefined;
      this.options.events.disconnected(origin);
    });
  }

  private refuse(socket: WebSocket, message: string): void {
    this.say(socket, { type: 'refused', message });
    socket.close(CLOSE_REFUSED, 'refused');
  }

  private say(socket: WebSocket, msg: BridgeControl): void {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
  }
}
