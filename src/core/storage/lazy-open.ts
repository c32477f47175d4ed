// A store that starts answering before it has loaded everything. A cold Service Worker start
// must not wait for every value and the whole history window to come out of IndexedDB before
// its first GET: with a backend that can read just its key index (openHead), single-key reads at
// the latest revision are answered from the index plus one backend read, while the full store
// loads in the background; every other operation waits for the full store.
import { StorageError, type BackendHead, type KV, type KvBackend, type MvccStore, type RangeOptions, type RangeResult, type StoreEvent, type UpdateResult, type WatchHandle, type Mutation } from './types';

export function lazyStore(backend: KvBackend, head: BackendHead, loading: Promise<MvccStore>, startLoading: () => void): MvccStore {
  let store: MvccStore | undefined;
  /** The full store; asking for it starts the load. */
  const fullStore = (): Promise<MvccStore> => {
    startLoading();
    return loading;
  };
  const full = loading;
  const records = new Map((head.index ?? []).map((r) => [r.key, r]));
  full.then(
    (s) => {
      store = s;
      records.clear();
    },
    () => {},
  );

  return {
    /** Before the full load, a lower bound (see BackendHead): callers that need more wait for it. */
    get revision() {
      return store ? store.revision : head.revision;
    },
    get compactRevision() {
      return store ? store.compactRevision : head.compactRevision;
    },
    backendName: backend.name,

    async get(key: string, rev?: number): Promise<KV | undefined> {
      if (store) return store.get(key, rev);
      // A read at a revision needs the history window, and the exact revision: head.revision is
      // only a lower bound.
      if (rev) return (await fullStore()).get(key, rev);
      if (backend.readEntries) {
        const [entry] = await backend.readEntries([key]);
        if (store) return (store as MvccStore).get(key);
        return entry ? { key, ...entry } : undefined;
      }
      const rec = records.get(key);
      if (!rec) return undefined;
      const [value] = await backend.read([key]);
      if (store) return (store as MvccStore).get(key);
      if (value === undefined) throw new StorageError('Backend', `${backend.name}: index record without value`, key);
      return { key, value, createRev: rec.createRev, modRev: rec.modRev };
    },
    async range(prefix: string, opts?: RangeOptions): Promise<RangeResult> {
      return (store ?? (await fullStore())).range(prefix, opts);
    },
    count(prefix: string): number {
      if (store) return store.count(prefix);
      // Only callers that ran after the full load (bootstrap awaited it) count; the key index
      // may not be loaded yet.
      if (!head.index) throw new StorageError('Unavailable', `${backend.name}: the key index is still loading`);
      let n = 0;
      for (const key of records.keys()) if (key.startsWith(prefix)) n++;
      return n;
    },
    async create(key: string, encode: (rev: number) => string): Promise<KV> {
      return (store ?? (await fullStore())).create(key, encode);
    },
    async update(key: string, fn: (current: KV | undefined) => Mutation): Promise<UpdateResult> {
      return (store ?? (await fullStore())).update(key, fn);
    },
    watch(prefix: string, fromRev: number, onEvent: (ev: StoreEvent) => void): WatchHandle {
      if (store) return store.watch(prefix, fromRev, onEvent);
      if (fromRev < head.compactRevision) throw new StorageError('Expired', `revision ${fromRev} is older than ${head.compactRevision}`);
      // Registered once the history window is loaded; replay covers everything after fromRev.
      let inner: WatchHandle | undefined;
      let cancelled = false;
      void fullStore().then((s) => {
        if (!cancelled) inner = s.watch(prefix, fromRev, onEvent);
      });
      return {
        cancel() {
          cancelled = true;
          inner?.cancel();
        },
      };
    },
    async waitForRevision(rev: number, timeoutMs: number): Promise<void> {
      return (store ?? (await fullStore())).waitForRevision(rev, timeoutMs);
    },
    compact(): void {
      store?.compact();
    },
    async healthy(): Promise<boolean> {
      return store ? store.healthy() : backend.healthy();
    },
    async close(): Promise<void> {
      await (await fullStore()).close();
    },
  };
}
