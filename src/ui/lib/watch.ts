// A watch that keeps going: it follows the resourceVersion of every event (bookmarks included),
// reconnects from there when the server ends the stream (watch timeout), and relists when the
// server says that version is gone (410 Expired, as an HTTP status or an ERROR event), handing the
// fresh list to the consumer as a RELIST item. Other errors end the iteration with a KubeApiError.
import { KubeApiError, errorFromResponse, errorFromStatus } from './api-errors';
import { readJsonLines } from './ndjson';

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; resourceVersion?: string; [k: string]: unknown };
  [k: string]: unknown;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

export type WatchItem<T extends KubeObject = KubeObject> =
  | { type: WatchEventType; object: T }
  | { type: 'RELIST'; items: T[]; resourceVersion: string };

export interface ListResult<T extends KubeObject = KubeObject> {
  items: T[];
  resourceVersion: string;
}

export interface ResumingWatchOptions<T extends KubeObject> {
  /** Opens `?watch=1&resourceVersion=rv` (rv '' = start from now with no initial list). */
  open(resourceVersion: string, signal?: AbortSignal): Promise<Response>;
  /** A full list, for the start (when no version is given) and after a 410. */
  relist(signal?: AbortSignal): Promise<ListResult<T>>;
  /** Start here; when absent, the watch lists first and yields that list as a RELIST. */
  resourceVersion?: string;
  signal?: AbortSignal;
  /** Pause before reconnecting after the server ended a stream; 1 s by default. */
  reconnectDelayMs?: number;
  /** Stop after this many reconnects in a row that received nothing (a server that keeps hanging up). */
  maxEmptyReconnects?: number;
  /** Called with each resourceVersion the watch reaches, for display. */
  onResourceVersion?(rv: string): void;
}

const GONE = 410;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done);
  });
}

export async function* resumingWatch<T extends KubeObject>(options: ResumingWatchOptions<T>): AsyncGenerator<WatchItem<T>> {
  const { signal } = options;
  let rv = options.resourceVersion;
  let emptyStreams = 0;
  const reached = (v: string | undefined) => {
    if (!v) return;
    rv = v;
    options.onResourceVersion?.(v);
  };
  while (!signal?.aborted) {
    if (rv === undefined) {
      const list = await options.relist(signal);
      reached(list.resourceVersion);
      rv = list.resourceVersion;
      yield { type: 'RELIST', items: list.items, resourceVersion: list.resourceVersion };
      continue;
    }
    let res: Response;
    try {
      res = await options.open(rv, signal);
    } catch (e) {
      if (signal?.aborted) return;
      throw e;
    }
    if (res.status === GONE) {
      await res.body?.cancel().catch(() => undefined);
      rv = undefined;
      continue;
    }
    if (!res.ok) throw await errorFromResponse(res);
    if (!res.body) throw new KubeApiError({ code: res.status, reason: 'NoBody', message: 'the watch response has no body to stream', causes: [] });
    let received = 0;
    let expired = false;
    try {
      for await (const event of readJsonLines<{ type: string; object: unknown }>(res.body, signal)) {
        received++;
        if (event.type === 'ERROR') {
          const info = errorFromStatus(event.object, GONE);
          if (info.code === GONE) {
            expired = true;
            break;
          }
          throw new KubeApiError(info, event.object);
        }
        const object = event.object as T;
        reached(object?.metadata?.resourceVersion);
        yield { type: event.type as WatchEventType, object };
      }
    } catch (e) {
      if (signal?.aborted) return;
      throw e;
    }
    if (signal?.aborted) return;
    if (expired) {
      rv = undefined;
      continue;
    }
    emptyStreams = received === 0 ? emptyStreams + 1 : 0;
    if (emptyStreams > (options.maxEmptyReconnects ?? 20)) {
      throw new KubeApiError({ code: 0, reason: 'WatchClosed', message: `the server closed ${emptyStreams} watches in a row without sending anything`, causes: [] });
    }
    await sleep(options.reconnectDelayMs ?? 1000, signal);
  }
}
