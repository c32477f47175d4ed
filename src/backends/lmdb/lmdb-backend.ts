// The durable Node backend (`npm run serve -- --data-dir DIR`): LMDB through the `lmdb` package
// (prebuilt binary inside the npm package, nothing downloaded). Three named databases in one
// environment, the same layout as the IndexedDB backend (decisions 0009 and 0014):
//   objects  key → { v: JSON text, c: createRev, m: modRev }
//   history  batch revision → the batch's events without new values (see durable-history.ts);
//            no record for a batch of creates only: the object records imply those events
//   meta     'state' → { compactRevision }, written only when compaction advances
// The store's revision is derived at open (newest history key, compaction revision, highest
// object modRev), so it continues across restarts.
//
// Durability: every group-committed batch is one LMDB write transaction, so it lands whole or not
// at all, and `overlappingSync` is off, so LMDB's commit includes the fsync and the promise the
// store waits on resolves only once the batch is on disk. The store answers a write only after
// that promise (group-commit.ts), so a `kill -9` at any moment loses no acknowledged write.
// LMDB's copy-on-write B-tree never leaves a torn page behind after a crash.
//
// One process owns a data directory (dir-lock.ts): a second host over the same files would keep its
// own key index and revision counter and the two would overwrite each other's revisions.

import { mkdirSync } from 'node:fs';
import { open, type Database, type RootDatabase } from 'lmdb';
import { lockDirectory, type DirLock } from './dir-lock';
import { StorageError, type BackendState, type CommitBatch, type IndexRecord, type KvBackend } from '../../core/storage/types';
import { fromDurable, needsHistoryRecord, toDurable, type DurableEvent } from '../idb/durable-history';

interface ObjectRecord {
  /** The object's JSON text. */
  v: string;
  c: number;
  m: number;
}

const META_KEY = 'state';
/** LMDB's key size limit (lmdb-js's default maxKeySize); a longer key is refused before the transaction. */
const MAX_KEY_BYTES = 1978;

export interface LmdbBackendOptions {
  /** Directory of the LMDB environment (created when missing). */
  path: string;
}

export function createLmdbBackend(opts: LmdbBackendOptions): KvBackend {
  let env: RootDatabase | undefined;
  let lock: DirLock | undefined;
  let objects!: Database<ObjectRecord, string>;
  let history!: Database<DurableEvent[], number>;
  let meta!: Database<{ compactRevision: number }, string>;
  /** History at or below this revision is known to be deleted and meta to say so already. */
  let trimmedTo = 0;

  const environment = (): RootDatabase => {
    if (!env) {
      mkdirSync(opts.path, { recursive: true });
      lock = lockDirectory(opts.path);
      try {
        // Durable commits: the fsync is part of the commit, not overlapped after it (see header).
        env = open({ path: opts.path, overlappingSync: false, noSync: false, maxDbs: 4 });
      } catch (error) {
        lock.release();
        throw error;
      }
      objects = env.openDB<ObjectRecord, string>({ name: 'objects' });
      history = env.openDB<DurableEvent[], number>({ name: 'history' });
      meta = env.openDB<{ compactRevision: number }, string>({ name: 'meta' });
    }
    return env;
  };

  return {
    name: 'lmdb',

    async open(): Promise<BackendState> {
      return guard('open', () => {
        environment();
        const index: IndexRecord[] = [];
        const values: Array<[string, string]> = [];
        const current = new Map<string, string>();
        const compactRevision = meta.get(META_KEY)?.compactRevision ?? 0;
        trimmedTo = compactRevision;
        let revision = compactRevision;
        for (const { key, value } of objects.getRange()) {
          index.push({ key, createRev: value.c, modRev: value.m });
          values.push([key, value.v]);
          current.set(key, value.v);
          if (value.m > revision) revision = value.m;
        }
        const batches: DurableEvent[][] = [];
        for (const { value } of history.getRange()) batches.push(value);
        const events = fromDurable(batches, index, compactRevision, (key) => current.get(key));
        const lastRev = events.length ? events[events.length - 1]!.rev : 0;
        return { revision: Math.max(lastRev, revision), compactRevision, index, events, values };
      });
    },

    async read(keys: string[]): Promise<Array<string | undefined>> {
      return guard('read', () => {
        environment();
        return keys.map((key) => objects.get(key)?.v);
      });
    },

    async readPrefix(prefix: string): Promise<Array<[string, string]>> {
      return guard('readPrefix', () => {
        environment();
        const pairs: Array<[string, string]> = [];
        for (const { key, value } of objects.getRange({ start: prefix })) {
          if (!key.startsWith(prefix)) break;
          pairs.push([key, value.v]);
        }
        return pairs;
      });
    },

    commit(batch: CommitBatch): Promise<void> {
      try {
        environment();
        // Checked before the transaction: a put that throws inside it would leave the rest of
        // the batch to LMDB's judgement.
        for (const r of batch.puts) {
          if (Buffer.byteLength(r.key) > MAX_KEY_BYTES) throw new Error(`key longer than ${MAX_KEY_BYTES} bytes: ${r.key.slice(0, 80)}…`);
        }
      } catch (error) {
        return Promise.reject(storageError('commit', error));
      }
      const compacting = batch.compactRevision > trimmedTo;
      let record: DurableEvent[] | undefined;
      let trimmed: number[] = [];
      try {
        // Everything that reads or could throw, before the batch: LMDB's batch applies what was
        // queued, so nothing may fail halfway through it. The reads see every earlier batch:
        // commits never overlap (group-commit.ts), so the one before this has landed.
        if (compacting || needsHistoryRecord(batch.events)) record = toDurable(batch.events);
        // The oldest batches first; one straddling the compaction revision stays (open() drops
        // its older events).
        if (compacting) trimmed = [...history.getKeys({ end: batch.compactRevision + 1 })];
      } catch (error) {
        return Promise.reject(storageError('commit', error));
      }
      // One write transaction (lmdb-js's batch: its operations are queued together and applied in
      // one transaction on its write thread), committed with its fsync before the promise
      // resolves. Not `transaction(callback)`: that runs the callback on this thread once the
      // write thread has opened the transaction, a hand-off there and back per commit that a
      // plain put does not pay (decision 0052).
      const written = objects.batch(() => {
        for (const key of batch.deletes) objects.remove(key);
        for (const r of batch.puts) objects.put(r.key, { v: r.value, c: r.createRev, m: r.modRev });
        if (record) history.put(batch.revision, record);
        if (compacting) {
          meta.put(META_KEY, { compactRevision: batch.compactRevision });
          for (const rev of trimmed) history.remove(rev);
        }
      });
      return written.then(
        () => {
          if (compacting) trimmedTo = Math.max(trimmedTo, batch.compactRevision);
        },
        (error: unknown) => {
          throw storageError('commit', error);
        },
      );
    },

    async healthy(): Promise<boolean> {
      try {
        environment();
        meta.get(META_KEY);
        return true;
      } catch {
        return false;
      }
    },

    async close(): Promise<void> {
      const closing = env;
      env = undefined;
      await closing?.close();
      lock?.release();
      lock = undefined;
    },
  };
}

async function guard<T>(what: string, run: () => T): Promise<T> {
  try {
    return run();
  } catch (error) {
    throw storageError(what, error);
  }
}

function storageError(what: string, error: unknown): StorageError {
  if (error instanceof StorageError) return error;
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new StorageError(what === 'open' ? 'Unavailable' : 'Backend', `lmdb ${what} failed: ${detail}`);
}
