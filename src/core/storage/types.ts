// The storage contract between the API registry (above) and the MVCC store (below), and between
// the MVCC store and its durable backends. Values are JSON text: a list body is a string join,
// and a watch event is encoded once from the stored text.

/** One key at one revision. `value` is the object's JSON text (it already carries its resourceVersion). */
export interface KV {
  key: string;
  value: string;
  /** Revision of the write that created this key (since its last deletion). */
  createRev: number;
  /** Revision of the last write to this key. */
  modRev: number;
}

/**
 * What an update callback decides. `put` receives the revision the write will commit at, so the
 * stored JSON can carry `metadata.resourceVersion` without a second serialisation.
 */
export type Mutation =
  | { kind: 'put'; encode: (rev: number) => string }
  | { kind: 'delete' }
  | { kind: 'none' };

export interface UpdateResult {
  /** The key after the write (absent after a delete or when it did not exist and nothing was put). */
  kv?: KV;
  /** The key before the write. */
  prev?: KV;
  /** False for `none` (no write, no revision consumed). */
  changed: boolean;
}

/** A committed change, as watchers and the history window see it. */
export interface StoreEvent {
  type: 'put' | 'delete';
  key: string;
  /** Revision of this change. */
  rev: number;
  /** New value (put) — for delete, absent. */
  value?: string;
  /** Value before this change, absent for a create. */
  prevValue?: string;
  /** createRev of the key after a put (== rev for a create); for a delete, the deleted key's createRev. */
  createRev: number;
  /**
   * modRev of the key before this change, absent for a create. With prevValue and createRev it
   * rebuilds the previous KV, so a store reopened from durable history can still answer reads at
   * past revisions.
   */
  prevModRev?: number;
}

export interface RangeOptions {
  /** Read at this past revision (from the history window). Default: latest committed. */
  rev?: number;
  /** Start strictly after this key (continue tokens). */
  after?: string;
  /** At most this many items; 0 or absent = all. */
  limit?: number;
  /** Keep only items the filter accepts (applied before the limit). */
  filter?: (kv: KV) => boolean;
}

export interface RangeResult {
  kvs: KV[];
  /** The revision the range was read at. */
  rev: number;
  /** True when items beyond the last returned key match (the list was cut by the limit). */
  more: boolean;
  /** Items after the last returned key within the prefix, ignoring the filter (for remainingItemCount). */
  remaining: number;
}

export interface WatchHandle {
  cancel(): void;
}

/** Storage failures; the API layer maps them to Status errors. */
export class StorageError extends Error {
  constructor(
    readonly code: 'KeyExists' | 'NotFound' | 'Expired' | 'TooLargeRevision' | 'Backend' | 'Unavailable',
    message: string,
    readonly key?: string,
  ) {
    super(message);
  }
}

/** The MVCC store the API registry talks to (src/core/storage/mvcc.ts implements it). */
export interface MvccStore {
  /** Latest committed revision (0 for an empty store). */
  readonly revision: number;
  /** Reads and watches before this revision are gone: 410 Expired. */
  readonly compactRevision: number;
  /** Name of the backend, for health checks (`memory`, `indexeddb`). */
  readonly backendName: string;

  get(key: string, rev?: number): Promise<KV | undefined>;
  /**
   * This host's view of a key, which may lag the latest write by a moment (kube's informer
   * caches). Only stores whose get is a remote round trip have it (etcd); admission lookups use
   * it first and fall back to get, as kube's listers fall back to a live lookup.
   */
  getCached?(key: string): KV | undefined;
  /** Keys that start with `prefix`, in key order. */
  range(prefix: string, opts?: RangeOptions): Promise<RangeResult>;
  /** Number of current keys under `prefix`. Synchronous: answered from the key index. */
  count(prefix: string): number;
  /** Fails with StorageError('KeyExists') when the key exists. */
  create(key: string, encode: (rev: number) => string): Promise<KV>;
  /**
   * Read-modify-write against the latest state (committed plus queued writes), atomically with
   * respect to other writes. Errors thrown by `fn` reject the promise and write nothing.
   */
  update(key: string, fn: (current: KV | undefined) => Mutation): Promise<UpdateResult>;
  /**
   * Events for keys under `prefix` with rev > fromRev: replayed from history, then live, in
   * revision order, delivered only after commit. Throws StorageError('Expired') when fromRev is
   * older than the history window.
   */
  watch(prefix: string, fromRev: number, onEvent: (ev: StoreEvent) => void): WatchHandle;
  /** Resolves once `rev` is committed; rejects with StorageError('TooLargeRevision') after timeoutMs. */
  waitForRevision(rev: number, timeoutMs: number): Promise<void>;
  /** Drop history older than the window now (also runs on its own timer). */
  compact(): void;
  /** Backend reachable and writable. */
  healthy(): Promise<boolean>;
  /**
   * Size of the database file at each storage endpoint, from its last poll (etcd's status,
   * kube-apiserver's etcd_db_total_size_in_bytes). Only stores on etcd have it.
   */
  storageSizes?(): Array<{ endpoint: string; bytes: number }>;
  close(): Promise<void>;
}

/** A record of the key index as a backend stores it. */
export interface IndexRecord {
  key: string;
  createRev: number;
  modRev: number;
}

/** One group-committed batch: every change in it lands in one backend transaction, or none does. */
export interface CommitBatch {
  /** The highest revision in the batch: the store's revision after this commit. */
  revision: number;
  puts: Array<IndexRecord & { value: string }>;
  deletes: string[];
  /** The events of this batch, for a durable history window (resume after a restart). */
  events: StoreEvent[];
  /** Events at or below this revision may be dropped from durable history. */
  compactRevision: number;
}

export interface BackendState {
  revision: number;
  compactRevision: number;
  index: IndexRecord[];
  /** Retained history events, oldest first. */
  events: StoreEvent[];
  /**
   * Every current value, in key order, when the backend read them together with the index (one
   * record per key): the store then skips its separate readPrefix('').
   */
  values?: Array<[string, string]>;
}

/** Durable storage under the MVCC store: in memory (Node default, tests) or IndexedDB (browser). */
/** What a store needs before it can answer a single-key read: the key index and meta. */
export interface BackendHead {
  /**
   * A lower bound of the store's revision (a backend may find the exact one only in every record,
   * as IndexedDB's does for creates); at least 1 when anything is stored.
   */
  revision: number;
  compactRevision: number;
  /** The key index, when the backend reads it up front (otherwise readEntries answers per key). */
  index?: IndexRecord[];
}

export interface KvBackend {
  readonly name: string;
  /** Load the key index and meta (not every value). */
  open(): Promise<BackendState>;
  /**
   * Optional fast start: only the key index and meta. A backend that has it lets the store answer
   * single-key reads while values and history still load (a cold Service Worker start).
   */
  openHead?(): Promise<BackendHead>;
  /** Current value and revisions of these keys, in one read (for gets before the full load). */
  readEntries?(keys: string[]): Promise<Array<{ value: string; createRev: number; modRev: number } | undefined>>;
  /** Current values for these keys (undefined where missing). */
  read(keys: string[]): Promise<Array<string | undefined>>;
  /** Values of all current keys with this prefix, in key order. */
  readPrefix(prefix: string): Promise<Array<[string, string]>>;
  /** Persist a batch atomically. A synchronous backend may return void. */
  commit(batch: CommitBatch): Promise<void> | void;
  /**
   * For backends whose commits have a high fixed cost: how long a batch may wait for more
   * writes while at least `minWriters` write requests are in progress (see group-commit.ts).
   */
  readonly commitDelay?: { ms: number; minWriters: number };
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}
