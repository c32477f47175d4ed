// The MVCC store: one global revision advanced per committed write, an in-memory key index in
// front of a KvBackend, a history window for past reads and watch replay, and group commit.
// See key-index.ts, history.ts, range.ts, watch-hub.ts and group-commit.ts for the parts.

import { GroupCommit, type CommitDelay, type PendingBatch } from './group-commit';
import { HistoryWindow } from './history';
import { KeyIndex } from './key-index';
import { rangeCurrent, rangePast } from './range';
import { RevisionWaiters } from './revision-waiters';
import { WatchHub } from './watch-hub';
import {
  StorageError,
  type KV,
  type KvBackend,
  type Mutation,
  type MvccStore,
  type RangeOptions,
  type RangeResult,
  type StoreEvent,
  type UpdateResult,
  type WatchHandle,
} from './types';
import { loadState } from './load';
import { lazyStore } from './lazy-open';

export interface MvccOptions {
  /** How long committed events stay readable/replayable. Default 5 minutes. */
  historyWindowMs?: number;
  /** Clock for the history window (tests inject one). Default Date.now. */
  now?: () => number;
  /**
   * Answer single-key reads from the key index while values and history load in the background
   * (backends with openHead, e.g. IndexedDB on a cold Service Worker start).
   */
  lazy?: boolean;
  /**
   * Reserved for a store-side watcher queue bound. Delivery is synchronous today and the API
   * layer keeps its own bounded per-watcher queue, so the store does not use it.
   */
  watchQueueLimit?: number;
  /** Write requests in progress, counted by the API server: a backend's commitDelay applies only with it. */
  activeWriters?: () => number;
}

const DEFAULT_WINDOW_MS = 5 * 60 * 1000;

export async function openMvccStore(backend: KvBackend, opts: MvccOptions = {}): Promise<MvccStore> {
  const now = opts.now ?? (() => Date.now());
  const openFull = async (): Promise<MvccStore> => {
    const loaded = await loadState(backend, now());
    const delay = backend.commitDelay && opts.activeWriters ? { ...backend.commitDelay, activeWriters: opts.activeWriters } : undefined;
    return new Store(backend, loaded.index, loaded.history, loaded.revision, opts.historyWindowMs ?? DEFAULT_WINDOW_MS, now, delay);
  };
  if (!opts.lazy || !backend.openHead) return openFull();
  let head;
  try {
    head = await backend.openHead();
  } catch (error) {
    if (error instanceof StorageError) throw error;
    throw new StorageError('Unavailable', `cannot open ${backend.name} backend: ${String(error)}`);
  }
  // The full load starts when an operation needs it (not for single-key gets): IndexedDB answers
  // transactions in creation order, so a cold worker's first GET is not queued behind it.
  let start!: () => void;
  const full = new Promise<void>((resolve) => (start = resolve)).then(openFull);
  return lazyStore(backend, head, full, () => start());
}

class Store implements MvccStore {
  readonly backendName: string;
  private committedRev: number;
  /** Last revision handed to a write; never goes backwards, even when a batch fails. */
  private allocatedRev: number;
  private closed = false;
  private readonly hub: WatchHub;
  private readonly commits: GroupCommit;
  private readonly revisionWaiters = new RevisionWaiters();
  private readonly compactTimer: ReturnType<typeof setInterval>;

  constructor(
    private readonly backend: KvBackend,
    private readonly index: KeyIndex,
    private readonly history: HistoryWindow,
    revision: number,
    private readonly windowMs: number,
    private readonly now: () => number,
    delay?: CommitDelay,
  ) {
    this.backendName = backend.name;
    this.committedRev = revision;
    this.allocatedRev = revision;
    this.hub = new WatchHub(history);
    this.commits = new GroupCommit({
      commit: (batch) => backend.commit(batch),
      applied: (batch) => this.apply(batch),
      compactRevision: () => this.history.compactRevision,
    }, delay);
    // Compaction is cheap (drops a leading run of events); a few runs per window are enough.
    const period = Math.min(Math.max(windowMs / 4, 1000), 60_000);
    const timer = setInterval(() => this.compact(), period);
    // In Node an interval keeps the process alive; the store must not.
    (timer as { unref?: () => void } | undefined)?.unref?.();
    this.compactTimer = timer;
  }

  get revision(): number {
    return this.committedRev;
  }

  get compactRevision(): number {
    return this.history.compactRevision;
  }

  async get(key: string, rev?: number): Promise<KV | undefined> {
    if (this.isPast(rev)) {
      const states = this.history.stateAt(rev!, (k) => k === key);
      if (states.has(key)) return states.get(key);
    }
    return this.index.get(key);
  }

  async range(prefix: string, opts?: RangeOptions): Promise<RangeResult> {
    const rev = opts?.rev;
    const result = this.isPast(rev)
      ? rangePast(this.index, this.history, prefix, rev!, opts)
      : rangeCurrent(this.index, prefix, opts);
    return { ...result, rev: rev || this.committedRev };
  }

  count(prefix: string): number {
    return this.index.count(prefix);
  }

  /** Not an async function: the update's promise chained once (no frame and turn of an await per create). */
  create(key: string, encode: (rev: number) => string): Promise<KV> {
    return this.update(key, (current) => {
      if (current) throw new StorageError('KeyExists', `key already exists: ${key}`, key);
      return { kind: 'put', encode };
    }).then(writtenKv);
  }

  update(key: string, fn: (current: KV | undefined) => Mutation): Promise<UpdateResult> {
    if (this.closed) return Promise.reject(new StorageError('Unavailable', 'store is closed', key));
    const pending = this.commits.pendingState(key);
    const current = pending === undefined ? this.index.get(key) : (pending ?? undefined);
    let mutation: Mutation;
    try {
      mutation = fn(current);
    } catch (error) {
      return Promise.reject(error);
    }
    switch (mutation.kind) {
      case 'none':
        return this.unchanged(key, current);
      case 'delete':
        return this.deleteKey(key, current);
      case 'put':
        return this.putKey(key, current, mutation.encode);
    }
  }

  watch(prefix: string, fromRev: number, onEvent: (ev: StoreEvent) => void): WatchHandle {
    if (fromRev < this.history.compactRevision) {
      throw new StorageError('Expired', `revision ${fromRev} is older than ${this.history.compactRevision}`);
    }
    if (this.closed) throw new StorageError('Unavailable', 'store is closed');
    return this.hub.add(prefix, fromRev, onEvent);
  }

  waitForRevision(rev: number, timeoutMs: number): Promise<void> {
    if (rev <= this.committedRev) return Promise.resolve();
    if (this.closed) return Promise.reject(new StorageError('Unavailable', 'store is closed'));
    return this.revisionWaiters.wait(rev, timeoutMs);
  }

  compact(): void {
    this.history.compactBefore(this.now() - this.windowMs);
  }

  async healthy(): Promise<boolean> {
    if (this.closed) return false;
    try {
      return await this.backend.healthy();
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.commits.idle();
    clearInterval(this.compactTimer);
    this.hub.cancelAll();
    this.revisionWaiters.rejectAll(new StorageError('Unavailable', 'store is closed'));
    await this.backend.close();
  }

  /** True for a read at an older revision; throws for one outside the window or in the future. */
  private isPast(rev: number | undefined): boolean {
    if (!rev) return false;
    if (rev > this.committedRev) {
      throw new StorageError('TooLargeRevision', `revision ${rev} is newer than ${this.committedRev}`);
    }
    if (rev < this.history.compactRevision) {
      throw new StorageError('Expired', `revision ${rev} is older than ${this.history.compactRevision}`);
    }
    return rev < this.committedRev;
  }

  private unchanged(key: string, current: KV | undefined): Promise<UpdateResult> {
    const result: UpdateResult = { kv: current, prev: current, changed: false };
    // What fn saw may still be in flight: answer once it is committed (or failed).
    const batch = this.commits.batchWriting(key);
    return batch ? this.commits.follow(batch, result) : Promise.resolve(result);
  }

  private deleteKey(key: string, current: KV | undefined): Promise<UpdateResult> {
    if (!current) return Promise.reject(new StorageError('NotFound', `key not found: ${key}`, key));
    const rev = ++this.allocatedRev;
    const event: StoreEvent = {
      type: 'delete',
      key,
      rev,
      prevValue: current.value,
      createRev: current.createRev,
      prevModRev: current.modRev,
    };
    return this.commits.write(key, null, event, { prev: current, changed: true });
  }

  private putKey(key: string, current: KV | undefined, encode: (rev: number) => string): Promise<UpdateResult> {
    const rev = ++this.allocatedRev;
    let value: string;
    try {
      value = encode(rev);
    } catch (error) {
      // Nothing else ran since the allocation, so handing the revision back leaves no gap.
      this.allocatedRev--;
      return Promise.reject(error);
    }
    const kv: KV = { key, value, createRev: current ? current.createRev : rev, modRev: rev };
    const event: StoreEvent = current
      ? { type: 'put', key, rev, value, createRev: kv.createRev, prevValue: current.value, prevModRev: current.modRev }
      : { type: 'put', key, rev, value, createRev: rev };
    return this.commits.write(key, kv, event, { kv, prev: current, changed: true });
  }

  private apply(batch: PendingBatch): void {
    for (const [key, state] of batch.writes) {
      if (state) this.index.set(state);
      else this.index.delete(key);
    }
    const time = this.now();
    for (const ev of batch.events) this.history.append(ev, time);
    this.committedRev = batch.revision;
    this.hub.publish(batch.events);
    this.revisionWaiters.reached(batch.revision);
  }
}

function writtenKv(result: UpdateResult): KV {
  return result.kv!;
}
