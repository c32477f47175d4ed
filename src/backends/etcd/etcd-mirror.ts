// One host's view of the etcd prefix: the key index, history window and watch fan-out of the
// in-process store, filled by a list at one revision and then by one etcd watch from the next
// revision (with progress notifications; previous values come from the index, which holds every
// key's current value), and by this host's own acknowledged writes when they are next in order. kube-apiserver's watch cache
// (the cacher) does the same. Its revision is the newest revision up to which every event of the
// prefix has been applied: an event's mod_revision, or a progress notification's header revision,
// so a bookmark at it is safe.
// When etcd compacted past the watch (the host lost etcd for longer than the compaction interval),
// the mirror lists again; watches of the old history end, and their clients relist (410 on resume).
import { HistoryWindow } from '../../core/storage/history';
import { KeyIndex } from '../../core/storage/key-index';
import { RevisionWaiters } from '../../core/storage/revision-waiters';
import { WatchHub } from '../../core/storage/watch-hub';
import { StorageError, type KV, type StoreEvent, type WatchHandle } from '../../core/storage/types';
import { keyAfter, prefixEnd, type EtcdKv, type KvWatch, type WatchSink, type WireKv } from './etcd-kv';

/**
 * A key under the prefix that only moves revisions: when a read's revision (etcd's, which counts
 * writes outside the prefix too) is ahead of the mirror, a put here comes back through the watch
 * and proves every earlier change of the prefix was applied (etcd 3.4's progress request is not
 * reachable through the etcd3 client). Never in the index, history or watches; its value is not
 * an object, so the initial list skips it too.
 */
export const PROGRESS_KEY = '/~progress';

/** Keys per range while listing the prefix. */
const LIST_PAGE = 1000;

export class EtcdMirror {
  index!: KeyIndex;
  history!: HistoryWindow;
  private hub!: WatchHub;
  readonly waiters = new RevisionWaiters();
  revision = 0;
  private watcher: KvWatch | undefined;
  private stopped = false;
  /** This host's acknowledged writes the mirror has not applied yet, by revision. */
  private readonly acked = new Map<number, { key: string; kv: KV | undefined }>();

  private constructor(
    private readonly kv: EtcdKv,
    private readonly now: () => number,
  ) {}

  static async start(kv: EtcdKv, now: () => number): Promise<EtcdMirror> {
    const mirror = new EtcdMirror(kv, now);
    await mirror.load();
    return mirror;
  }

  watch(prefix: string, fromRev: number, onEvent: (ev: StoreEvent) => void): WatchHandle {
    if (fromRev < this.history.compactRevision) {
      throw new StorageError('Expired', `revision ${fromRev} is older than ${this.history.compactRevision}`);
    }
    return this.hub.add(prefix, fromRev, onEvent);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.hub.cancelAll();
    this.waiters.rejectAll(new StorageError('Unavailable', 'store is closed'));
    const watcher = this.watcher;
    this.watcher = undefined;
    watcher?.cancel();
  }

  /** Lists the prefix at one revision, then watches from the next. */
  private async load(): Promise<void> {
    const root = this.kv.etcdKey('/');
    const end = prefixEnd(root);
    const kvs: KV[] = [];
    let start = root;
    let rev = 0;
    for (;;) {
      const res = await this.kv.range({ key: start, end, revision: rev, limit: LIST_PAGE });
      if (!rev) rev = Number(res.header.revision);
      for (const item of res.kvs) {
        const kv = this.decode(item);
        if (kv) kvs.push(kv);
      }
      if (!res.more || res.kvs.length === 0) break;
      start = keyAfter(res.kvs[res.kvs.length - 1]!.key);
    }
    kvs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    this.hub?.cancelAll();
    this.index = KeyIndex.fromSorted(kvs);
    this.history = new HistoryWindow(rev);
    this.hub = new WatchHub(this.history);
    this.revision = Math.max(this.revision, rev);
    this.waiters.reached(this.revision);

    const watcher = this.kv.watch(root, rev + 1, {
      own: (r) => this.own(r),
      put: (item) => this.change(Number(item.mod_revision), item.key, item),
      delete: (key, r) => this.change(r, key, undefined),
      end: (headerRev, changes) => this.end(headerRev, changes),
      error: () => {
        // Canceled by etcd, typically because the resume revision was compacted: start over.
        if (this.stopped || this.watcher !== watcher) return;
        this.watcher = undefined;
        watcher.cancel();
        void this.reload();
      },
    } satisfies WatchSink);
    this.watcher = watcher;
  }

  private async reload(): Promise<void> {
    for (let delay = 200; !this.stopped; delay = Math.min(delay * 2, 5000)) {
      try {
        await this.load();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  /** The changes of the etcd watch response being applied (they publish together at its end). */
  private batch: { events: StoreEvent[]; time: number; newest: number } | undefined;

  private current(): { events: StoreEvent[]; time: number; newest: number } {
    return (this.batch ??= { events: [], time: this.now(), newest: 0 });
  }

  /**
   * A write of this host, acknowledged from etcd's answer before its watch event came (its value
   * stayed on the client thread). The stream proves every change before it is in.
   */
  private own(rev: number): void {
    if (this.stopped) return;
    const own = rev > this.revision ? this.acked.get(rev) : undefined;
    if (!own) return;
    const batch = this.current();
    this.acked.delete(rev);
    batch.newest = Math.max(batch.newest, rev);
    this.applyChange(own.key, rev, own.kv, batch.time, batch.events);
  }

  /** A put (`item` the value) or delete (`item` undefined) of `etcdKey`, from the watch. */
  private change(rev: number, etcdKey: string, item: WireKv | undefined): void {
    // Already applied (a resumed watch may repeat; a write of this host applied from etcd's
    // answer): skipped before its key is even decoded.
    if (this.stopped || rev <= this.revision) return;
    const key = this.kv.storeKey(etcdKey);
    if (key === undefined) return;
    // Every change counts for the revision, also those skipped (the progress key, values this
    // store did not write): all changes up to it have been seen.
    const batch = this.current();
    batch.newest = Math.max(batch.newest, rev);
    if (key === PROGRESS_KEY) return;
    if (item) {
      const kv = this.decode(item);
      if (kv) this.applyChange(key, rev, kv, batch.time, batch.events);
    } else {
      this.applyChange(key, rev, undefined, batch.time, batch.events);
    }
  }

  /** The end of one watch response; with no changes, a progress notification at `headerRev`. */
  private end(headerRev: number, changes: number): void {
    const batch = this.batch;
    this.batch = undefined;
    if (this.stopped) return;
    const last = changes === 0 ? headerRev : (batch?.newest ?? 0);
    if (last > this.revision) this.revision = last;
    const events = batch?.events ?? [];
    this.applyAcknowledged(batch?.time ?? this.now(), events);
    this.hub.publish(events);
    this.waiters.reached(this.revision);
  }

  /**
   * A write of this host that etcd acknowledged at `rev` (`kv` undefined: a delete). When every
   * change before it has been applied, it is the next change of the prefix: it is applied now,
   * without waiting for the watch to bring it back (the watch's copy is then skipped as already
   * applied). Otherwise it waits here until the changes before it arrive.
   */
  acknowledge(rev: number, key: string, kv: KV | undefined): void {
    if (this.stopped || rev <= this.revision) return;
    this.acked.set(rev, { key, kv });
    if (rev !== this.revision + 1) return;
    const events: StoreEvent[] = [];
    this.applyAcknowledged(this.now(), events);
    this.hub.publish(events);
    this.waiters.reached(this.revision);
  }

  /** Applies acknowledged writes that directly follow the mirror's revision; drops older ones. */
  private applyAcknowledged(time: number, events: StoreEvent[]): void {
    if (this.acked.size === 0) return;
    for (let next = this.acked.get(this.revision + 1); next; next = this.acked.get(this.revision + 1)) {
      this.acked.delete(this.revision + 1);
      this.revision++;
      this.applyChange(next.key, this.revision, next.kv, time, events);
    }
    for (const rev of this.acked.keys()) if (rev <= this.revision) this.acked.delete(rev);
  }

  /**
   * One change to the index and history. The previous value is the index's: every change before
   * this one has been applied, so it holds the key as it was (etcd's prev_kv is not asked for).
   */
  private applyChange(key: string, rev: number, kv: KV | undefined, time: number, events: StoreEvent[]): void {
    const prev = this.index.get(key);
    let ev: StoreEvent;
    if (kv) {
      this.index.set(kv);
      ev = { type: 'put', key, rev, value: kv.value, createRev: kv.createRev };
    } else {
      // The deletion of something this store never held (a foreign value) is nobody's event.
      if (!prev) return;
      this.index.delete(key);
      ev = { type: 'delete', key, rev, createRev: prev.createRev };
    }
    if (prev) {
      ev.prevValue = prev.value;
      ev.prevModRev = prev.modRev;
    }
    events.push(ev);
    this.history.append(ev, time);
  }

  /** A stored object, or undefined for a value this store did not write (skipped, not fatal). */
  private decode(item: WireKv): KV | undefined {
    try {
      return this.kv.toKv(item);
    } catch {
      return undefined;
    }
  }
}
