// The in-memory key index: key → current KV (createRev, modRev, value) plus the KVs in key order.
// Existence checks, counts and current-revision ranges never touch the backend.
//
// KV objects are immutable and shared: the same object is the index entry, the record handed to
// the backend in a commit batch and the value returned from get/range. Callers must treat them as
// read-only. (Values are all loaded at open today; lazy value loading would make `value` a cache
// filled from `KvBackend.read`, without changing the sorted side of this index.)

import { SortedEntries, type EntryPosition } from './sorted-entries';
import type { KV } from './types';

/** How many empty prefixes count() remembers (a few per namespace in practice). */
const EMPTY_PREFIXES_MAX = 256;

export class KeyIndex {
  private readonly entries = new Map<string, KV>();
  private sorted: SortedEntries<KV>;
  /**
   * Prefixes count() last found empty. Admission asks the same few on every write (the write's
   * namespace's quotas, the webhook configurations), and in the worker the seek through a large
   * index cost ~10 µs each, cold. Only a new key can make one non-empty; it drops those it falls
   * under.
   */
  private readonly emptyPrefixes = new Set<string>();

  private constructor(sorted: SortedEntries<KV>) {
    this.sorted = sorted;
  }

  static empty(): KeyIndex {
    return new KeyIndex(new SortedEntries<KV>());
  }

  /** Builds from entries in ascending key order. */
  static fromSorted(kvs: readonly KV[]): KeyIndex {
    const index = new KeyIndex(SortedEntries.fromSorted(kvs));
    for (const kv of kvs) index.entries.set(kv.key, kv);
    return index;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): KV | undefined {
    return this.entries.get(key);
  }

  set(kv: KV): void {
    if (this.sorted.put(kv) && this.emptyPrefixes.size > 0) {
      for (const prefix of this.emptyPrefixes) if (kv.key.startsWith(prefix)) this.emptyPrefixes.delete(prefix);
    }
    this.entries.set(kv.key, kv);
  }

  delete(key: string): void {
    if (this.entries.delete(key)) this.sorted.remove(key);
  }

  /** Number of current keys that start with `prefix`. */
  count(prefix: string): number {
    if (this.emptyPrefixes.has(prefix)) return 0;
    const start = this.sorted.seek((k) => k < prefix);
    // Most counts are admission checks of prefixes that hold nothing (quotas, webhook
    // configurations): one seek answers them, without walking the chunks for two ranks.
    if (!this.sorted.at(start)?.key.startsWith(prefix)) {
      if (this.emptyPrefixes.size >= EMPTY_PREFIXES_MAX) this.emptyPrefixes.clear();
      this.emptyPrefixes.add(prefix);
      return 0;
    }
    return this.sorted.rank(this.prefixEnd(prefix)) - this.sorted.rank(start);
  }

  /**
   * Visits current entries under `prefix` (strictly after `after` when given) in key order until
   * `visit` returns false. Returns how many keys the whole visited span holds, so callers can
   * compute how many were left unvisited.
   */
  scan(prefix: string, after: string | undefined, visit: (kv: KV) => boolean): number {
    const { start, span } = this.span(prefix, after);
    let left = span;
    this.sorted.forEachFrom(start, (kv) => left-- > 0 && visit(kv));
    return span;
  }

  /**
   * The first `limit` current entries under `prefix` (strictly after `after`), all of them when
   * `limit` is Infinity, and how many the whole span holds. Unfiltered ranges (most lists) take
   * this path: whole runs of a chunk are sliced out instead of visited one by one.
   */
  take(prefix: string, after: string | undefined, limit: number): { kvs: KV[]; span: number } {
    const { start, span } = this.span(prefix, after);
    return { kvs: this.sorted.takeFrom(start, Math.min(span, limit)), span };
  }

  private span(prefix: string, after: string | undefined): { start: EntryPosition; span: number } {
    const start = this.sorted.seek(after === undefined ? (k) => k < prefix : (k) => k < prefix || k <= after);
    const span = this.sorted.rank(this.prefixEnd(prefix)) - this.sorted.rank(start);
    return { start, span: Math.max(span, 0) };
  }

  private prefixEnd(prefix: string): EntryPosition {
    return this.sorted.seek((k) => k < prefix || k.startsWith(prefix));
  }
}
