// Every revision of every object the worker commits, kept for the page's ownership timeline
// beyond the API's watch window: IndexedDB keyed [uid, revision], at most `perObject` revisions
// per object (the oldest go first), cleared with the cluster. Commits are recorded off the request
// path: buffered, then written in one transaction per flush.
import { openDB, type IDBPDatabase } from 'idb';
import type { StoreEvent } from '../../core/storage/types';

export interface RecordedRevisionText {
  rev: number;
  type: 'put' | 'delete';
  /** The stored text at this revision (the last one the object had, for a delete). */
  text: string;
}

export interface TimelineStore {
  /** Called after a commit succeeded; never throws, never waits. */
  record(events: readonly StoreEvent[]): void;
  read(uid: string): Promise<RecordedRevisionText[]>;
  clear(): Promise<void>;
  /** Writes what is buffered (reads do this first). */
  flush(): Promise<void>;
}

const STORE = 'revisions';
const FLUSH_MS = 200;

interface Row extends RecordedRevisionText {
  uid: string;
}

function uidOf(text: string | undefined): string | undefined {
  if (!text) return undefined;
  try {
    const uid = (JSON.parse(text) as { metadata?: { uid?: unknown } }).metadata?.uid;
    return typeof uid === 'string' && uid ? uid : undefined;
  } catch {
    return undefined;
  }
}

export function createTimelineStore(opts: { dbName: string; perObject?: number }): TimelineStore {
  const perObject = opts.perObject ?? 1000;
  let pending: StoreEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let flushing: Promise<void> = Promise.resolve();
  // Without IndexedDB (denied, or failing) the history lives in the worker's memory.
  const memory = new Map<string, RecordedRevisionText[]>();
  let db: Promise<IDBPDatabase | undefined> | undefined;
  const open = () =>
    (db ??= openDB(opts.dbName, 1, { upgrade: (d) => void d.createObjectStore(STORE) }).catch(() => undefined));
  // idb opens databases through the global factory; without one, memory it is.
  const factory = (globalThis as { indexedDB?: IDBFactory }).indexedDB;

  const rows = (events: StoreEvent[]): Row[] => {
    const out: Row[] = [];
    for (const ev of events) {
      const text = ev.type === 'put' ? ev.value : ev.prevValue;
      const uid = uidOf(text);
      if (uid && text) out.push({ uid, rev: ev.rev, type: ev.type, text });
    }
    return out;
  };

  const writeRows = async (batch: Row[]): Promise<void> => {
    const d = factory ? await open() : undefined;
    if (!d) {
      for (const r of batch) {
        const list = memory.get(r.uid) ?? [];
        list.push({ rev: r.rev, type: r.type, text: r.text });
        if (list.length > perObject) list.splice(0, list.length - perObject);
        memory.set(r.uid, list);
      }
      return;
    }
    const tx = d.transaction(STORE, 'readwrite');
    const touched = new Set<string>();
    for (const r of batch) {
      void tx.store.put({ rev: r.rev, type: r.type, text: r.text }, [r.uid, r.rev]);
      touched.add(r.uid);
    }
    for (const uid of touched) {
      const range = IDBKeyRange.bound([uid, 0], [uid, Number.MAX_SAFE_INTEGER]);
      let extra = (await tx.store.count(range)) - perObject;
      for (let cursor = extra > 0 ? await tx.store.openCursor(range) : null; cursor && extra > 0; cursor = await cursor.continue(), extra--) await cursor.delete();
    }
    await tx.done;
  };

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = rows(pending);
    pending = [];
    flushing = flushing.then(() => (batch.length ? writeRows(batch).catch(() => undefined) : undefined));
    return flushing;
  };

  return {
    record(events) {
      pending.push(...events);
      timer ??= setTimeout(() => void flush(), FLUSH_MS);
    },
    async read(uid) {
      await flush();
      const d = factory ? await open() : undefined;
      if (!d) return [...(memory.get(uid) ?? [])];
      return (await d.getAll(STORE, IDBKeyRange.bound([uid, 0], [uid, Number.MAX_SAFE_INTEGER]))) as RecordedRevisionText[];
    },
    async clear() {
      pending = [];
      await flush();
      memory.clear();
      const d = factory ? await open() : undefined;
      await d?.clear(STORE);
    },
    flush,
  };
}
