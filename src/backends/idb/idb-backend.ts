// The IndexedDB backend (browser, Service Worker), through the `idb` wrapper with explicit
// transactions only. Object stores:
//   values  key → JSON text          index  key → { createRev, modRev }
//   meta    'state' → { revision, compactRevision }      history  rev → StoreEvent
// One readwrite transaction covers a whole commit batch across all four stores, so a batch lands
// completely or not at all. Values are JSON text, not objects: lists become string joins, and
// structured-cloning a string is far cheaper than cloning an object tree.

import { wrap, type DBSchema, type IDBPDatabase, type IDBPObjectStore } from 'idb';
import {
  StorageError,
  type BackendState,
  type BackendHead,
  type CommitBatch,
  type KvBackend,
  type StoreEvent,
} from '../../core/storage/types';

interface KvSchema extends DBSchema {
  values: { key: string; value: string };
  index: { key: string; value: { createRev: number; modRev: number } };
  meta: { key: string; value: { revision: number; compactRevision: number } };
  history: { key: number; value: StoreEvent };
}

type Db = IDBPDatabase<KvSchema>;
const STORES = ['values', 'index', 'meta', 'history'] as const;
const META_KEY = 'state';
const SCHEMA_VERSION = 1;

export interface IdbBackendOptions {
  dbName: string;
  /** Defaults to the global indexedDB (tests pass fake-indexeddb's). */
  indexedDB?: IDBFactory;
}

export function createIdbBackend(opts: IdbBackendOptions): KvBackend {
  let db: Db | undefined;
  /** History events at or below this revision are known to be deleted already. */
  let trimmedTo = -1;

  const database = async (): Promise<Db> => {
    if (!db) db = await openDatabase(opts.indexedDB ?? globalThis.indexedDB, opts.dbName);
    return db;
  };

  return {
    name: 'indexeddb',

    async open(): Promise<BackendState> {
      return guard('open', async () => {
        const tx = (await database()).transaction(['index', 'meta', 'history'], 'readonly');
        const [keys, records, meta, events] = await Promise.all([
          tx.objectStore('index').getAllKeys(),
          tx.objectStore('index').getAll(),
          tx.objectStore('meta').get(META_KEY),
          tx.objectStore('history').getAll(),
          tx.done,
        ]);
        return {
          revision: meta?.revision ?? 0,
          compactRevision: meta?.compactRevision ?? 0,
          index: keys.map((key, i) => ({ key, createRev: records[i]!.createRev, modRev: records[i]!.modRev })),
          events,
        };
      });
    },

    async openHead(): Promise<BackendHead> {
      // Meta only: a cold worker's first GET reads its one key with readEntries.
      return guard('open', async () => {
        const tx = (await database()).transaction('meta', 'readonly');
        const [meta] = await Promise.all([tx.store.get(META_KEY), tx.done]);
        return { revision: meta?.revision ?? 0, compactRevision: meta?.compactRevision ?? 0 };
      });
    },

    async readEntries(keys: string[]): Promise<Array<{ value: string; createRev: number; modRev: number } | undefined>> {
      return guard('read', async () => {
        const tx = (await database()).transaction(['values', 'index'], 'readonly');
        const values = tx.objectStore('values');
        const index = tx.objectStore('index');
        const [out] = await Promise.all([
          Promise.all(
            keys.map(async (key) => {
              const [value, rec] = await Promise.all([values.get(key), index.get(key)]);
              return value === undefined || !rec ? undefined : { value, createRev: rec.createRev, modRev: rec.modRev };
            }),
          ),
          tx.done,
        ]);
        return out;
      });
    },

    async read(keys: string[]): Promise<Array<string | undefined>> {
      return guard('read', async () => {
        const tx = (await database()).transaction('values', 'readonly');
        const [values] = await Promise.all([Promise.all(keys.map((key) => tx.store.get(key))), tx.done]);
        return values;
      });
    },

    async readPrefix(prefix: string): Promise<Array<[string, string]>> {
      return guard('readPrefix', async () => {
        const tx = (await database()).transaction('values', 'readonly');
        if (prefix === '') {
          // The bulk path used at open: two getAll calls beat a cursor walk by a wide margin.
          const [keys, values] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll(), tx.done]);
          return keys.map((key, i): [string, string] => [key, values[i]!]);
        }
        // A cursor jumped to the prefix avoids needing IDBKeyRange (not passed in with the factory).
        const pairs: Array<[string, string]> = [];
        let cursor = await tx.store.openCursor();
        if (cursor && cursor.key < prefix) cursor = await cursor.continue(prefix);
        while (cursor && cursor.key.startsWith(prefix)) {
          pairs.push([cursor.key, cursor.value]);
          cursor = await cursor.continue();
        }
        await tx.done;
        return pairs;
      });
    },

    async commit(batch: CommitBatch): Promise<void> {
      return guard('commit', async () => {
        const tx = (await database()).transaction(STORES, 'readwrite');
        const ops: Array<Promise<unknown>> = [];
        try {
          const values = tx.objectStore('values');
          const index = tx.objectStore('index');
          const history = tx.objectStore('history');
          for (const key of batch.deletes) ops.push(values.delete(key), index.delete(key));
          for (const r of batch.puts) {
            ops.push(values.put(r.value, r.key), index.put({ createRev: r.createRev, modRev: r.modRev }, r.key));
          }
          for (const ev of batch.events) ops.push(history.put(ev, ev.rev));
          ops.push(tx.objectStore('meta').put({ revision: batch.revision, compactRevision: batch.compactRevision }, META_KEY));
          if (batch.compactRevision > trimmedTo) ops.push(trimHistory(history, batch.compactRevision));
        } catch (error) {
          // A request that throws synchronously (e.g. a value that cannot be cloned) must not leave
          // the earlier requests of this batch to commit on their own.
          tx.abort();
          await Promise.allSettled([...ops, tx.done]);
          throw error;
        }
        await Promise.all([...ops, tx.done]);
        trimmedTo = Math.max(trimmedTo, batch.compactRevision);
      });
    },

    async healthy(): Promise<boolean> {
      try {
        // A readwrite transaction proves the database is open and takes write locks.
        const tx = (await database()).transaction('meta', 'readwrite');
        await Promise.all([tx.store.get(META_KEY), tx.done]);
        return true;
      } catch {
        return false;
      }
    },

    async close(): Promise<void> {
      db?.close();
      db = undefined;
    },
  };
}

async function openDatabase(factory: IDBFactory | undefined, name: string): Promise<Db> {
  if (!factory) throw new StorageError('Unavailable', 'IndexedDB is not available here');
  const request = factory.open(name, SCHEMA_VERSION);
  request.onupgradeneeded = () => {
    const raw = request.result;
    for (const store of STORES) if (!raw.objectStoreNames.contains(store)) raw.createObjectStore(store);
  };
  const db = (await wrap(request)) as unknown as Db;
  // Another tab upgrading the schema: step aside instead of blocking it.
  db.addEventListener('versionchange', () => db.close());
  return db;
}

type HistoryStore = IDBPObjectStore<KvSchema, typeof STORES, 'history', 'readwrite'>;

/** Deletes history events at or below `rev`: they are the oldest keys, so walk from the start. */
async function trimHistory(history: HistoryStore, rev: number): Promise<void> {
  let cursor = await history.openCursor();
  while (cursor && cursor.key <= rev) {
    await cursor.delete();
    cursor = await cursor.continue();
  }
}

async function guard<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StorageError) throw error;
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new StorageError(what === 'open' ? 'Unavailable' : 'Backend', `indexeddb ${what} failed: ${detail}`);
  }
}
