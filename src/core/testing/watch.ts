// Test helpers for in-process calls: send one request to an ApiServer and read its answer, and
// drive a watch's ApiStream the way a host does (a sink that records every chunk), splitting
// the JSON lines into events. Host-free so handler tests and the Service Worker tests can share it.
import type { ApiServer } from '../api';
import type { ApiResponse, ApiStream, StreamSink } from '../meta/types';
import { bodyBytes, isStream } from '../meta/types';

export interface CallResult {
  status: number;
  headers: Record<string, string>;
  /** The body as text ('' for a stream). */
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: any;
  /** The streaming body, for watches. */
  stream?: ApiStream;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One request; a JSON body object is serialized, a string is sent as it is. */
export async function call(api: ApiServer, method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<CallResult> {
  const res: ApiResponse = await api.handle({
    method,
    url,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: body === undefined ? undefined : encoder.encode(typeof body === 'string' ? body : JSON.stringify(body)),
  });
  if (isStream(res.body)) return { status: res.status, headers: res.headers, text: '', json: undefined, stream: res.body };
  const text = res.body === undefined ? '' : typeof res.body === 'string' ? res.body : decoder.decode(bodyBytes(res.body));
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export interface WatchEvent {
  type: string;
  object: any;
}

export interface WatchReaderOptions {
  /**
   * What sink.write answers (true = accepted, false = host buffer full). A function lets a test
   * simulate a client that stops reading.
   */
  accept?: () => boolean;
}

/** Records what a watch stream writes, as a host would, and lets a test wait for events. */
export class WatchReader {
  readonly events: WatchEvent[] = [];
  /** Raw chunks in write order (each should be exactly one JSON line). */
  readonly chunks: string[] = [];
  ended = false;
  private waiters: Array<() => void> = [];
  private partial = '';

  constructor(
    readonly stream: ApiStream,
    opts: WatchReaderOptions = {},
  ) {
    const accept = opts.accept ?? (() => true);
    const sink: StreamSink = {
      write: (chunk) => {
        const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk);
        this.chunks.push(text);
        this.partial += text;
        let nl: number;
        while ((nl = this.partial.indexOf('\n')) >= 0) {
          const line = this.partial.slice(0, nl);
          this.partial = this.partial.slice(nl + 1);
          if (line.trim()) this.events.push(JSON.parse(line) as WatchEvent);
        }
        this.wake();
        return accept();
      },
      end: () => {
        this.ended = true;
        this.wake();
      },
    };
    stream.start(sink);
  }

  /** The client goes away. */
  cancel(): void {
    this.stream.cancel();
  }

  /** Resolves once at least `n` events arrived; rejects after timeoutMs with what did arrive. */
  async waitForEvents(n: number, timeoutMs = 5000): Promise<WatchEvent[]> {
    await this.waitUntil(() => this.events.length >= n, timeoutMs, () => `${n} events (got ${this.events.length}: ${this.summary()})`);
    return this.events.slice(0, n);
  }

  /** Resolves once the server ended the stream. */
  async waitForEnd(timeoutMs = 5000): Promise<void> {
    await this.waitUntil(() => this.ended, timeoutMs, () => `the stream to end (events: ${this.summary()})`);
  }

  /** Resolves once an event satisfies `pred`. */
  async waitFor(pred: (e: WatchEvent) => boolean, timeoutMs = 5000): Promise<WatchEvent> {
    let found: WatchEvent | undefined;
    await this.waitUntil(() => (found = this.events.find(pred)) !== undefined, timeoutMs, () => `a matching event (events: ${this.summary()})`);
    return found!;
  }

  /** `TYPE name` per event, for readable assertions. */
  summary(): string {
    return this.events.map((e) => `${e.type} ${e.object?.metadata?.name ?? e.object?.metadata?.resourceVersion ?? ''}`).join(', ');
  }

  private wake(): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }

  private waitUntil(done: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`)), timeoutMs);
      const check = () => {
        if (done()) {
          clearTimeout(timer);
          resolve();
        } else this.waiters.push(check);
      };
      check();
    });
  }
}

/** Starts a watch request and returns its reader; fails when the answer is not a 200 stream. */
export async function startWatch(api: ApiServer, url: string, headers: Record<string, string> = {}, opts: WatchReaderOptions = {}): Promise<WatchReader> {
  const res = await call(api, 'GET', url, undefined, headers);
  if (res.status !== 200 || !res.stream) throw new Error(`watch ${url}: expected a 200 stream, got ${res.status} ${res.text.slice(0, 300)}`);
  return new WatchReader(res.stream, opts);
}

/** Sleeps; tests use it to let timers (bookmarks, compaction) run. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
