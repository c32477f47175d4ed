// The in-memory key index: key → current KV (createRev, modRev, value) plus the keys in sorted
// order. Existence checks, counts and current-revision ranges never touch the backend.
//
// KV objects are immutable and shared: the same object is the index entry, the record handed to
// the backend in a commit batch and the value returned from get/range. Callers must treat them as
// read-only. (Values are all loaded at open today; lazy value loading would make `value` a cache
// filled from `KvBackend.read`, without changing the sorted-key side of this index.)

import { SortedKeys, type KeyPosition } from './sorted-keys';
import type { KV } from './types';

export class KeyIndex {
  private readonly entries = new Map<string, KV>();
  private keys: SortedKeys;

  private constructor(keys: SortedKeys) {
    this.keys = keys;
  }

  static empty(): KeyIndex {
    return new KeyIndex(new SortedKeys());
  }

  /** Builds from entries in ascending key order. */
  static fromSorted(kvs: readonly KV[]): KeyIndex {
    const index = new KeyIndex(SortedKeys.fromSorted(kvs.map((kv) => kv.key)));
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
    if (!this.entries.has(kv.key)) this.keys.insert(kv.key);
    this.entries.set(kv.key, kv);
  }

  delete(key: string): void {
    if (this.entries.delete(key)) this.keys.remove(key);
  }

  /** Number of current keys that start with `prefix`. */
  count(prefix: string): number {
    return this.keys.rank(this.prefixEnd(prefix)) - this.keys.rank(this.keys.seek((k) => k < prefix));
  }

  /**
   * Visits current entries under `prefix` (strictly after `after` when given) in key order until
   * `visit` returns false. Returns how many keys the whole visited span holds, so callers can
   * compute how many were left unvisited.
   */
  scan(prefix: string, after: string | undefined, visit: (kv: KV) => boolean): number {
    const start = this.keys.seek(
      after === undefined ? (k) => k < prefix : (k) => k < prefix || k <= after,
    );
    const span = this.keys.rank(this.prefixEnd(prefix)) - this.keys.rank(start);
    let left = span;
    this.keys.forEachFrom(start, (key) => left-- > 0 && visit(this.entries.get(key)!));
    return Math.max(span, 0);
  }

  private prefixEnd(prefix: string): KeyPosition {
    return this.keys.seek((k) => k < prefix || k.startsWith(prefix));
  }
}
