// A live list fed by a watch, outside any framework: events queue up and are applied together on
// the next animation frame (or microtask where there are no frames), so a burst of 1,000 events
// causes one notification and one render. Objects are keyed by namespace/name; the list keeps the
// resourceVersion it has reached, and an event log ring records what happened.
import { Ring } from './event-ring';
import type { KubeObject, WatchItem } from './watch';

export type LoggedEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'RELIST';

export interface EventLogEntry {
  /** Increasing per store: a stable React key. */
  seq: number;
  type: LoggedEventType;
  /** `namespace/name`, or `name` for cluster-scoped objects; '' for bookmarks. */
  key: string;
  resourceVersion: string;
  /** For RELIST: how many objects the fresh list had. */
  count?: number;
}

export interface WatchStoreSnapshot<T extends KubeObject> {
  /** Sorted by key. */
  items: readonly T[];
  byKey: ReadonlyMap<string, T>;
  resourceVersion: string;
  /** Oldest first. */
  log: readonly EventLogEntry[];
  /** How many batches have been applied. */
  batches: number;
}

export interface WatchStoreOptions {
  /** How to defer a flush; the shared frame scheduler (scheduleInFrame) by default. */
  schedule?: (flush: () => void) => void;
  logCapacity?: number;
}

export interface WatchStore<T extends KubeObject> {
  /** Queues one event; applied with the rest of its batch. */
  push(item: WatchItem<T>): void;
  /** Replaces everything now, as a list does (e.g. after switching namespace). */
  reset(items: readonly T[], resourceVersion: string): void;
  /** Applies queued events immediately. */
  flush(): void;
  subscribe(listener: () => void): () => void;
  /** The same object until the next applied batch (suits React's useSyncExternalStore). */
  getSnapshot(): WatchStoreSnapshot<T>;
}

export function objectKey(o: KubeObject): string {
  const ns = o.metadata?.namespace;
  const name = o.metadata?.name ?? '';
  return ns ? `${ns}/${name}` : name;
}

export interface FrameHost {
  requestAnimationFrame?(cb: () => void): unknown;
  setTimeout(cb: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * A shared once-per-frame queue: every callback scheduled before a frame runs inside that frame's
 * one task, so the React updates they make (a watch batch, a refetched Table page, via react-query's
 * notifyManager) are batched into one commit instead of one each. Where frames are throttled (a
 * background tab gets about one a second) a timer runs the queue after `maxDelayMs` instead (long
 * enough that a slow frame on a busy machine still comes first); with no frames at all (tests,
 * workers) a microtask does.
 */
export function createFrameScheduler(host: FrameHost, maxDelayMs = 500): (cb: () => void) => void {
  let queue: Array<() => void> = [];
  let timer: unknown;
  const run = () => {
    if (!queue.length) return;
    host.clearTimeout(timer);
    const due = queue;
    queue = [];
    for (const cb of due) cb();
  };
  return (cb) => {
    queue.push(cb);
    if (queue.length > 1) return;
    if (!host.requestAnimationFrame) return queueMicrotask(run);
    host.requestAnimationFrame(run);
    timer = host.setTimeout(run, maxDelayMs);
  };
}

const globalHost = globalThis as unknown as FrameHost;

/** The page's frame scheduler (see createFrameScheduler); one queue for every caller. */
export const scheduleInFrame = createFrameScheduler({
  requestAnimationFrame: typeof globalHost.requestAnimationFrame === 'function' ? (cb) => globalHost.requestAnimationFrame!(cb) : undefined,
  setTimeout: (cb, ms) => globalHost.setTimeout(cb, ms),
  clearTimeout: (h) => globalHost.clearTimeout(h),
});

const defaultSchedule = scheduleInFrame;

export function createWatchStore<T extends KubeObject>(options: WatchStoreOptions = {}): WatchStore<T> {
  const schedule = options.schedule ?? defaultSchedule;
  const objects = new Map<string, T>();
  const log = new Ring<EventLogEntry>(options.logCapacity ?? 500);
  const listeners = new Set<() => void>();
  let queue: Array<WatchItem<T>> = [];
  let scheduled = false;
  let seq = 0;
  let resourceVersion = '';
  let batches = 0;
  let snapshot = build();

  function build(): WatchStoreSnapshot<T> {
    const keys = [...objects.keys()].sort();
    return { items: keys.map((k) => objects.get(k)!), byKey: new Map(objects), resourceVersion, log: log.toArray(), batches };
  }

  function applyOne(item: WatchItem<T>): void {
    if (item.type === 'RELIST') {
      objects.clear();
      for (const o of item.items) objects.set(objectKey(o), o);
      resourceVersion = item.resourceVersion;
      log.push({ seq: ++seq, type: 'RELIST', key: '', resourceVersion: item.resourceVersion, count: item.items.length });
      return;
    }
    const rv = item.object.metadata?.resourceVersion ?? '';
    if (rv) resourceVersion = rv;
    const key = item.type === 'BOOKMARK' ? '' : objectKey(item.object);
    if (item.type === 'ADDED' || item.type === 'MODIFIED') objects.set(key, item.object);
    else if (item.type === 'DELETED') objects.delete(key);
    log.push({ seq: ++seq, type: item.type, key, resourceVersion: rv });
  }

  function notify(): void {
    batches++;
    snapshot = build();
    for (const l of [...listeners]) l();
  }

  function flush(): void {
    scheduled = false;
    if (queue.length === 0) return;
    const batch = queue;
    queue = [];
    for (const item of batch) applyOne(item);
    notify();
  }

  return {
    push(item) {
      queue.push(item);
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    reset(items, rv) {
      queue = [];
      objects.clear();
      for (const o of items) objects.set(objectKey(o), o);
      resourceVersion = rv;
      notify();
    },
    flush,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
  };
}
