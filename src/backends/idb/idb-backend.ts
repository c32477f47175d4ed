// The IndexedDB backend (browser, Service Worker): reads through the `idb` wrapper, the commit
// (the hot path) on the plain API, explicit transactions only. Object stores:
//   objects  key → { v: JSON text, c: createRev, m: modRev }   (value and index in one record)
//   history  batch revision → the batch's events without values  (see durable-history.ts);
//            no record for a batch of creates only: the object records imply those events
//   meta     'state' → { compactRevision }, written only when compaction advances
// A batch of creates therefore puts one record per object and nothing else: the store's revision
// is not written on every commit but derived at open (the newest history key, compaction
// revision or object modRev). One readwrite transaction covers the whole batch, so it lands
// completely or not at all. Values are JSON text: lists become string joins, and
// structured-cloning a string is far cheaper than cloning an object tree.
//
// Layout version 3 (creates without history records). Version 2 differs only in having a
// history record for every batch, which version 3 reads as it is: the upgrade keeps the data and
// stops a version-2 build, which would miss the creates' events, from opening it. A version-1
// database (separate values/index stores, meta written per commit, values duplicated in history)
// is wiped by the upgrade: pre-release data, no migration.

import { unwrap, wrap, type DBSchema, type IDBPDatabase } from 'idb';
import {
  StorageError,
  type BackendState,
  type BackendHead,
  type CommitBatch,
  type IndexRecord,
  type KvBackend,
} from '../../core/storage/types';
import { fromDurable, needsHistoryRecord, toDurable, type DurableEvent } from './durable-history';

interface ObjectRecord {
  /** The object's JSON text. */
  v: string;
  c: number;
  m: number;
}

interface KvSchema extends DBSchema {
  objects: { key: string; value: ObjectRecord };
  history: { key: number; value: DurableEvent[] };
  meta: { key: string; value: { compactRevision: number } };
}

type Db = IDBPDatabase<KvSchema>;
const STORES = ['objects', 'history', 'meta'] as const;
const META_KEY = 'state';
const SCHEMA_VERSION = 3;
/** The oldest layout the upgrade keeps (see the header). */
const KEPT_VERSION = 2;
/**
 * Relaxed: the transaction completes once the OS has the data, without waiting for a flush to
 * disk (Chromium's default since M121; said explicitly so the benchmark's raw-put floor can use
 * the same). A power loss may lose the last commits, never tear one.
 */
export const IDB_DURABILITY = { durability: 'relaxed' } as const;

/**
 * A readwrite transaction costs Chromium about three times one put of a 1 kB value (~200 vs ~60
 * µs of CPU across the worker, the browser's IO thread and its IndexedDB thread). So while three
 * or more write requests are in progress, a batch waits up to 2 ms for more writes to share its
 * transaction (decision 0013); a lone writer never waits.
 */
const COMMIT_DELAY = { ms: 2, minWriters: 3 };

export interface IdbBackendOptions {
  dbName: string;
  /** Defaults to the global indexedDB (tests pass fake-indexeddb's). */
  indexedDB?: IDBFactory;
}

export function createIdbBackend(opts: IdbBackendOptions): KvBackend {
  let db: Db | undefined;
  /** The same connection without the idb wrapper, for the commit path. */
  let raw: IDBDatabase | undefined;
  /** History at or below this revision is known to be deleted and meta to say so already. */
  let trimmedTo = 0;

  const database = async (): Promise<Db> => {
    if (!db) {
      db = await openDatabase(opts.indexedDB ?? globalThis.indexedDB, opts.dbName);
      raw = unwrap(db);
    }
    return db;
  };

  return {
    name: 'indexeddb',
    commitDelay: COMMIT_DELAY,

    async open(): Promise<BackendState> {
      return guard('open', async () => {
        const tx = (await database()).transaction(STORES, 'readonly');
        const [keys, records, batches, meta] = await Promise.all([
          tx.objectStore('objects').getAllKeys(),
          tx.objectStore('objects').getAll(),
          tx.objectStore('history').getAll(),
          tx.objectStore('meta').get(META_KEY),
          tx.done,
        ]);
        const index: IndexRecord[] = [];
        const values: Array<[string, string]> = [];
        const current = new Map<string, string>();
        const compactRevision = meta?.compactRevision ?? 0;
        let revision = compactRevision;
        keys.forEach((key, i) => {
          const rec = records[i]!;
          index.push({ key, createRev: rec.c, modRev: rec.m });
          values.push([key, rec.v]);
          current.set(key, rec.v);
          if (rec.m > revision) revision = rec.m;
        });
        const events = fromDurable(batches, index, compactRevision, (key) => current.get(key));
        const lastRev = events.length ? events[events.length - 1]!.rev : 0;
        return { revision: Math.max(lastRev, revision), compactRevision, index, events, values };
      });
    },

    async openHead(): Promise<BackendHead> {
      // Meta, the newest history key and whether any object exists: a cold worker's first GET
      // reads its one key with readEntries. Creates after the newest history record are only
      // found by the full open, so the revision here is a lower bound (see BackendHead).
      return guard('open', async () => {
        const tx = (await database()).transaction(STORES, 'readonly');
        const [meta, last, anyObject] = await Promise.all([
          tx.objectStore('meta').get(META_KEY),
          tx.objectStore('history').openKeyCursor(null, 'prev'),
          tx.objectStore('objects').openKeyCursor(),
          tx.done,
        ]);
        const compactRevision = meta?.compactRevision ?? 0;
        return { revision: Math.max(last?.key ?? 0, compactRevision, anyObject ? 1 : 0), compactRevision };
      });
    },

    async readEntries(keys: string[]): Promise<Array<{ value: string; createRev: number; modRev: number } | undefined>> {
      return guard('read', async () => {
        const records = await getRecords(await database(), keys);
        return records.map((rec) => (rec ? { value: rec.v, createRev: rec.c, modRev: rec.m } : undefined));
      });
    },

    async read(keys: string[]): Promise<Array<string | undefined>> {
      return guard('read', async () => (await getRecords(await database(), keys)).map((rec) => rec?.v));
    },

    async readPrefix(prefix: string): Promise<Array<[string, string]>> {
      return guard('readPrefix', async () => {
        const tx = (await database()).transaction('objects', 'readonly');
        if (prefix === '') {
          // The bulk path: two getAll calls beat a cursor walk by a wide margin.
          const [keys, records] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll(), tx.done]);
          return keys.map((key, i): [string, string] => [key, records[i]!.v]);
        }
        // A cursor jumped to the prefix avoids needing IDBKeyRange (not passed in with the factory).
        const pairs: Array<[string, string]> = [];
        let cursor = await tx.store.openCursor();
        if (cursor && cursor.key < prefix) cursor = await cursor.continue(prefix);
        while (cursor && cursor.key.startsWith(prefix)) {
          pairs.push([cursor.key, cursor.value.v]);
          cursor = await cursor.continue();
        }
        await tx.done;
        return pairs;
      });
    },

    commit(batch: CommitBatch): Promise<void> {
      const compacting = batch.compactRevision > trimmedTo;
      // Once open, the transaction is created right here, in the group commit's flush: no async
      // wrappers in between (awaiting the wrapped connection alone costs a proxied `then` lookup).
      const written = raw ? writeBatch(raw, batch, compacting) : database().then((d) => writeBatch(unwrap(d), batch, compacting));
      return written.then(
        () => {
          if (compacting) trimmedTo = batch.compactRevision;
        },
        (error: unknown) => {
          throw storageError('commit', error);
        },
      );
    },

    async healthy(): Promise<boolean> {
      try {
        // A readwrite transaction proves the database is open and takes write locks.
        const tx = (await database()).transaction('meta', 'readwrite', IDB_DURABILITY);
        await Promise.all([tx.store.get(META_KEY), tx.done]);
        return true;
      } catch {
        return false;
      }
    },

    async close(): Promise<void> {
      db?.close();
      db = undefined;
      raw = undefined;
    },
  };
}

async function getRecords(db: Db, keys: string[]): Promise<Array<ObjectRecord | undefined>> {
  const tx = db.transaction('objects', 'readonly');
  const [records] = await Promise.all([Promise.all(keys.map((key) => tx.store.get(key))), tx.done]);
  return records;
}

async function openDatabase(factory: IDBFactory | undefined, name: string): Promise<Db> {
  if (!factory) throw new StorageError('Unavailable', 'IndexedDB is not available here');
  const request = factory.open(name, SCHEMA_VERSION);
  request.onupgradeneeded = (event) => {
    const raw = request.result;
    if (event.oldVersion >= KEPT_VERSION) return;
    // Any older layout is dropped whole (see the header): its records mean something else now.
    for (const store of Array.from(raw.objectStoreNames)) raw.deleteObjectStore(store);
    for (const store of STORES) raw.createObjectStore(store);
  };
  const db = (await wrap(request)) as unknown as Db;
  // Another tab upgrading the schema: step aside instead of blocking it.
  db.addEventListener('versionchange', () => db.close());
  return db;
}

/**
 * One readwrite transaction for the batch, on the plain IndexedDB API: the commit is the hot path,
 * and only the transaction's outcome matters (a failed request aborts it), so no per-request
 * promises and an explicit commit(). Resolves on complete; rejects with the transaction's error
 * when it aborts.
 */
function writeBatch(db: IDBDatabase, batch: CommitBatch, compacting: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const history = compacting || needsHistoryRecord(batch.events);
    const tx = db.transaction(compacting ? [...STORES] : history ? ['objects', 'history'] : 'objects', 'readwrite', IDB_DURABILITY);
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
    try {
      const objects = tx.objectStore('objects');
      for (const key of batch.deletes) objects.delete(key);
      for (const r of batch.puts) objects.put({ v: r.value, c: r.createRev, m: r.modRev } satisfies ObjectRecord, r.key);
      if (history) tx.objectStore('history').put(toDurable(batch.events), batch.revision);
      if (compacting) {
        tx.objectStore('meta').put({ compactRevision: batch.compactRevision }, META_KEY);
        trimHistory(tx.objectStore('history'), batch.compactRevision);
      } else {
        // Every request is placed: commit now rather than after the requests' success events
        // have made a round trip through this thread (about 0.1 ms per commit in Chromium). Not
        // when compacting: the history trim still places requests from its cursor callbacks.
        tx.commit();
      }
    } catch (error) {
      // A request that throws synchronously (e.g. a value that cannot be cloned) must not leave
      // the earlier requests of this batch to commit on their own. Rejecting first keeps this
      // error rather than the abort's.
      reject(error);
      tx.abort();
    }
  });
}

/**
 * Deletes history batches whose revision is at or below `rev`: they are the oldest keys, so walk
 * from the start. A batch straddling `rev` stays; open() drops its older events.
 */
function trimHistory(history: IDBObjectStore, rev: number): void {
  const request = history.openCursor();
  request.onsuccess = () => {
    const cursor = request.result;
    if (!cursor || (cursor.key as number) > rev) return;
    cursor.delete();
    cursor.continue();
  };
}

async function guard<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw storageError(what, error);
  }
}

function storageError(what: string, error: unknown): StorageError {
  if (error instanceof StorageError) return error;
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new StorageError(what === 'open' ? 'Unavailable' : 'Backend', `indexeddb ${what} failed: ${detail}`);
}
