// The MVCC store on etcd v3 (`--etcd-servers`), shaped as kube-apiserver's storage/etcd3 plus its
// watch cache, so several hosts on one etcd serve one consistent API (decision 0030):
// - etcd is the only source of revisions: a resourceVersion is the key's mod_revision.
// - A write is a compare-and-swap transaction on the key's mod_revision (GuaranteedUpdate): the
//   callback runs on the state this host last saw, and again on the fresh state etcd returns
//   when the compare fails.
// - Every host keeps a mirror of the prefix (key index + history window) fed by one etcd watch
//   from the revision of its initial list, with progress notifications. Watches are served from
//   that mirror, so every host delivers the same events in etcd's order with etcd's revisions;
//   counts come from it (the registry asks them synchronously).
// - Single-key reads and lists go to etcd (linearizable, at a fixed revision for pages and
//   past reads); etcd's compaction answers 410.
// - A write is answered once this host's mirror has applied it, so a watch or count here right
//   after a write includes it, as with the in-process store. The mirror applies a write of its own
//   host from etcd's answer when every earlier revision is applied (no wait for the watch).
import {
  StorageError,
  type KV,
  type Mutation,
  type MvccStore,
  type RangeOptions,
  type RangeResult,
  type StoreEvent,
  type UpdateResult,
  type WatchHandle,
} from '../../core/storage/types';
import { EtcdKv, keyAfter, prefixEnd, type EtcdKvOptions, type WireKv } from './etcd-kv';
import { EtcdDbSizes } from './etcd-db-size';
import { EtcdMirror, PROGRESS_KEY } from './etcd-mirror';
import { fromStored, toStored } from './stored-value';

export interface EtcdStoreOptions extends EtcdKvOptions {
  /** How long events stay in this host's watch window (and etcd is compacted behind). Default 5 minutes. */
  historyWindowMs?: number;
  now?: () => number;
  /** kube-apiserver's --etcd-compaction-interval; 0 turns compaction off. Default 5 minutes. */
  compactionIntervalMs?: number;
}

/** Items fetched per etcd range while a filter drops some (kube's List pages the same way). */
const FILTERED_PAGE = 500;
/** How long a wait for a revision trusts the watch alone before writing the progress key. */
const PROGRESS_NUDGE_MS = 50;
/** How long a write waits for the mirror to see it before answering anyway. */
const MIRROR_WAIT_MS = 10_000;

export async function openEtcdStore(opts: EtcdStoreOptions): Promise<MvccStore> {
  const kv = new EtcdKv(opts);
  const now = opts.now ?? (() => Date.now());
  try {
    const mirror = await EtcdMirror.start(kv, now);
    return new EtcdStore(kv, mirror, opts.historyWindowMs ?? 5 * 60_000, opts.compactionIntervalMs ?? 5 * 60_000, now, new EtcdDbSizes(opts.servers));
  } catch (error) {
    kv.close();
    throw error;
  }
}

class EtcdStore implements MvccStore {
  readonly backendName = 'etcd';
  private closed = false;
  private readonly timers: Array<ReturnType<typeof setInterval>> = [];
  /** (time, revision) pairs: compaction goes back to the revision seen a window ago. */
  private readonly seen: Array<[number, number]> = [];

  constructor(
    private readonly kv: EtcdKv,
    private readonly mirror: EtcdMirror,
    private readonly windowMs: number,
    compactionIntervalMs: number,
    private readonly now: () => number,
    private readonly dbSizes: EtcdDbSizes,
  ) {
    const trim = setInterval(() => this.compact(), Math.min(Math.max(windowMs / 4, 1000), 60_000));
    this.timers.push(trim);
    if (compactionIntervalMs > 0) this.timers.push(setInterval(() => void this.compactEtcd(), compactionIntervalMs));
    for (const timer of this.timers) (timer as { unref?: () => void }).unref?.();
  }

  get revision(): number {
    return this.mirror.revision;
  }

  get compactRevision(): number {
    return this.mirror.history.compactRevision;
  }

  async get(key: string, rev?: number): Promise<KV | undefined> {
    const res = await this.kv.range({ key: this.kv.etcdKey(key), revision: rev });
    const found = res.kvs[0];
    return found ? this.kv.toKv(found) : undefined;
  }

  getCached(key: string): KV | undefined {
    return this.mirror.index.get(key);
  }

  async range(prefix: string, opts: RangeOptions = {}): Promise<RangeResult> {
    const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
    const end = prefixEnd(this.kv.etcdKey(prefix));
    let start = opts.after === undefined ? this.kv.etcdKey(prefix) : keyAfter(this.kv.etcdKey(opts.after));
    let rev = opts.rev ?? 0;
    const kvs: KV[] = [];
    let more = false;
    if (!opts.filter) {
      // One range: etcd's count says how many keys the span holds beyond the page.
      const res = await this.kv.range({ key: start, end, revision: rev, limit: limit === Infinity ? 0 : limit });
      let skipped = 0;
      for (const item of res.kvs) {
        const found = this.decoded(item);
        if (found) kvs.push(found);
        else skipped++;
      }
      const count = Number(res.count) - skipped;
      return { kvs, rev: rev || Number(res.header.revision), more: count > kvs.length, remaining: count - kvs.length };
    }
    for (;;) {
      const res = await this.kv.range({ key: start, end, revision: rev, limit: FILTERED_PAGE });
      if (!rev) rev = Number(res.header.revision);
      for (const item of res.kvs) {
        const found = this.decoded(item);
        if (!found || !opts.filter(found)) continue;
        if (kvs.length >= limit) {
          more = true;
          break;
        }
        kvs.push(found);
      }
      if (more || !res.more || res.kvs.length === 0) break;
      start = keyAfter(res.kvs[res.kvs.length - 1]!.key);
    }
    let remaining = 0;
    if (kvs.length > 0) {
      const after = keyAfter(this.kv.etcdKey(kvs[kvs.length - 1]!.key));
      remaining = Number((await this.kv.range({ key: after, end, revision: rev, countOnly: true })).count);
    }
    return { kvs, rev, more, remaining };
  }

  /** A stored object; undefined for the progress key and values this store did not write. */
  private decoded(item: WireKv): KV | undefined {
    if (this.kv.storeKey(item.key) === PROGRESS_KEY) return undefined;
    try {
      return this.kv.toKv(item);
    } catch {
      return undefined;
    }
  }

  count(prefix: string): number {
    return this.mirror.index.count(prefix);
  }

  async create(key: string, encode: (rev: number) => string): Promise<KV> {
    const result = await this.update(key, (current) => {
      if (current) throw new StorageError('KeyExists', `key already exists: ${key}`, key);
      return { kind: 'put', encode };
    });
    return result.kv!;
  }

  async update(key: string, fn: (current: KV | undefined) => Mutation): Promise<UpdateResult> {
    if (this.closed) throw new StorageError('Unavailable', 'store is closed', key);
    // First try on the mirror's state (no read); etcd's compare tells when it was stale.
    let current = this.mirror.index.get(key);
    let fresh = false;
    for (;;) {
      let mutation: Mutation;
      try {
        mutation = fn(current);
      } catch (error) {
        // A refusal based on a state etcd may already have replaced is checked again, as kube's
        // GuaranteedUpdate does with a cached object.
        if (!fresh) {
          [current, fresh] = [await this.get(key), true];
          continue;
        }
        throw error;
      }
      if (mutation.kind === 'none' || (mutation.kind === 'delete' && !current)) {
        if (!fresh) {
          [current, fresh] = [await this.get(key), true];
          continue;
        }
        if (mutation.kind === 'delete') throw new StorageError('NotFound', `key not found: ${key}`, key);
        return { kv: current, prev: current, changed: false };
      }
      const stored = mutation.kind === 'put' ? toStored(mutation.encode) : undefined;
      let committed: KV | undefined;
      const before = current;
      const res = await this.kv.write(this.kv.etcdKey(key), before ? before.modRev : 0, stored, (rev) => {
        // The watch often brings the write back before etcd's answer: the mirror then holds it.
        const seen = this.mirror.index.get(key);
        committed =
          stored === undefined ? undefined : seen?.modRev === rev ? seen : { key, value: fromStored(stored, rev), createRev: before ? before.createRev : rev, modRev: rev };
        // Applied now when it is the next change of the prefix, else once the watch has brought
        // the changes before it (the watch then sends this one without its value).
        this.mirror.acknowledge(rev, key, committed);
      });
      if ('conflict' in res) {
        [current, fresh] = [res.current ? this.kv.toKv(res.current) : undefined, true];
        continue;
      }
      // Answered once this host's watches and counts include the write. The write itself is
      // committed either way.
      if (res.rev > this.mirror.revision) await this.mirror.waiters.wait(res.rev, MIRROR_WAIT_MS).catch(() => undefined);
      return committed ? { kv: committed, prev: before, changed: true } : { prev: before, changed: true };
    }
  }

  watch(prefix: string, fromRev: number, onEvent: (ev: StoreEvent) => void): WatchHandle {
    if (this.closed) throw new StorageError('Unavailable', 'store is closed');
    return this.mirror.watch(prefix, fromRev, onEvent);
  }

  waitForRevision(rev: number, timeoutMs: number): Promise<void> {
    if (rev <= this.mirror.revision) return Promise.resolve();
    if (this.closed) return Promise.reject(new StorageError('Unavailable', 'store is closed'));
    const reached = this.mirror.waiters.wait(rev, timeoutMs);
    // Not there a moment later: the revision may belong to writes outside the prefix, which the
    // mirror's watch never reports. A put of the progress key moves the mirror past it.
    const nudge = setTimeout(() => {
      if (rev > this.mirror.revision && !this.closed) {
        this.kv.txn({ success: [{ request_put: { key: this.kv.etcdKey(PROGRESS_KEY), value: String(rev) } }] }).catch(() => undefined);
      }
    }, PROGRESS_NUDGE_MS);
    return reached.finally(() => clearTimeout(nudge));
  }

  compact(): void {
    this.mirror.history.compactBefore(this.now() - this.windowMs);
  }

  async healthy(): Promise<boolean> {
    if (this.closed) return false;
    try {
      // kube-apiserver's --etcd-healthcheck-timeout default: 2 s.
      await this.kv.range({ key: this.kv.etcdKey('/'), limit: 1, keysOnly: true, deadlineMs: 2000 });
      return true;
    } catch {
      return false;
    }
  }

  storageSizes(): Array<{ endpoint: string; bytes: number }> {
    return this.dbSizes.current();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.dbSizes.close();
    await this.mirror.stop();
    this.kv.close();
  }

  /**
   * kube-apiserver's compactor: every interval, compact etcd to the revision seen one interval
   * ago. Several hosts may do it; etcd refuses a compaction at or below the last one, harmlessly.
   */
  private async compactEtcd(): Promise<void> {
    const time = this.now();
    this.seen.push([time, this.mirror.revision]);
    let target = 0;
    while (this.seen.length > 0 && this.seen[0]![0] <= time - this.windowMs) target = this.seen.shift()![1];
    if (target <= 0) return;
    try {
      await this.kv.compact(target);
    } catch {
      // Already compacted further (another host) or etcd is down: the next interval tries again.
    }
  }
}
