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
  /** How to defer a flush; requestAnimationFrame when present, else queueMicrotask. */
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

function defaultSchedule(flush: () => void): void {
  const raf = (globalThis as { requestAnimationFrame?: (cb: () => void) => unknown }).requestAnimationFrame;
  if (raf) raf(flush);
  else queueMicrotask(flush);
}

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
