// The in-memory backend: the Node default and the reference for tests.
//
// Values are stored once. The records this backend keeps are the very KV objects the MVCC store
// indexes and hands to readers (a commit batch's puts are those objects), and JS strings are
// shared by reference, so the backend adds a Map slot per key and an array slot per retained
// event, not a second copy of any JSON text. Because it keeps real state (rather than being a
// no-op), a store closed and reopened over the same backend instance resumes with the same index,
// revision and history, exactly like the IndexedDB backend; a fresh backend opens empty.
// Nothing is kept in key order: readPrefix sorts on demand, and it only runs when a store opens.
// A seed (a store's snapshot, see storage/snapshot.ts) starts it with that state instead of empty.

import type { BackendState, CommitBatch, IndexRecord, KvBackend, StoreEvent } from './types';

type StoredRecord = IndexRecord & { value: string };

export function createMemoryBackend(seed?: BackendState): KvBackend {
  const records = new Map<string, StoredRecord>();
  let events: StoreEvent[] = seed ? seed.events.slice() : [];
  let revision = seed?.revision ?? 0;
  let compactRevision = seed?.compactRevision ?? 0;
  if (seed) {
    const values = new Map(seed.values);
    for (const record of seed.index) {
      const value = values.get(record.key);
      if (value === undefined) throw new Error(`memory backend seed: no value for ${record.key}`);
      records.set(record.key, { ...record, value });
    }
  }

  return {
    name: 'memory',

    async open(): Promise<BackendState> {
      return { revision, compactRevision, index: [...records.values()], events: events.slice() };
    },

    async read(keys: string[]): Promise<Array<string | undefined>> {
      return keys.map((key) => records.get(key)?.value);
    },

    async readPrefix(prefix: string): Promise<Array<[string, string]>> {
      const pairs: Array<[string, string]> = [];
      for (const [key, record] of records) if (key.startsWith(prefix)) pairs.push([key, record.value]);
      return pairs.sort((a, b) => (a[0] < b[0] ? -1 : 1));
    },

    // Synchronous on purpose: the store applies a batch in the same microtask when commit returns void.
    commit(batch: CommitBatch): void {
      for (const key of batch.deletes) records.delete(key);
      for (const record of batch.puts) records.set(record.key, record);
      for (const ev of batch.events) events.push(ev);
      revision = batch.revision;
      if (batch.compactRevision > compactRevision) {
        compactRevision = batch.compactRevision;
        let drop = 0;
        while (drop < events.length && events[drop]!.rev <= compactRevision) drop++;
        if (drop > 0) events = events.slice(drop);
      }
    },

    async healthy(): Promise<boolean> {
      return true;
    },

    async close(): Promise<void> {
      // Nothing to release; the data stays so a new store can open over this backend.
    },
  };
}
