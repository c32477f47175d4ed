// Entries kept sorted by their string key, as a list of small sorted chunks. A single sorted array
// needs an O(n) splice per insert: 100,000 random-order inserts measured ~11 s that way, because
// every insert moves half the array. Chunks of at most CHUNK_MAX entries keep each splice short
// while lookups stay binary searches (first over chunk tails, then inside one chunk).
//
// The chunks hold the entries themselves, not just their keys: a range visits the stored values
// in order without a map lookup per key, and a run of consecutive entries can be copied out of
// a chunk with one native slice (a list page of 500 items is a few slices).
// Keys compare by UTF-16 code units (plain `<`), the same order IndexedDB uses for strings.

const CHUNK_MAX = 512;

/** A position between entries: chunk number and offset inside it. `chunk === chunks.length` is the end. */
export interface EntryPosition {
  chunk: number;
  offset: number;
}

export class SortedEntries<T extends { readonly key: string }> {
  private chunks: T[][] = [];
  private count = 0;

  /** Builds from entries already in ascending key order (the bulk path used when a store opens). */
  static fromSorted<T extends { readonly key: string }>(entries: readonly T[]): SortedEntries<T> {
    const set = new SortedEntries<T>();
    for (let i = 0; i < entries.length; i += CHUNK_MAX / 2) {
      set.chunks.push(entries.slice(i, i + CHUNK_MAX / 2));
    }
    set.count = entries.length;
    return set;
  }

  get size(): number {
    return this.count;
  }

  /** Adds the entry, or replaces the one with the same key; true when it was added. */
  put(entry: T): boolean {
    const key = entry.key;
    if (this.chunks.length === 0) {
      this.chunks.push([entry]);
      this.count = 1;
      return true;
    }
    // The first chunk whose last key is >= key; past the end means "append to the last chunk".
    let c = this.firstChunkNotBefore((k) => k < key);
    if (c === this.chunks.length) c--;
    const chunk = this.chunks[c]!;
    const offset = lowerBound(chunk, (k) => k < key);
    if (offset < chunk.length && chunk[offset]!.key === key) {
      chunk[offset] = entry;
      return false;
    }
    chunk.splice(offset, 0, entry);
    this.count++;
    if (chunk.length > CHUNK_MAX) this.chunks.splice(c + 1, 0, chunk.splice(CHUNK_MAX / 2));
    return true;
  }

  /** Removes the entry with this key; false when there was none. */
  remove(key: string): boolean {
    const pos = this.seek((k) => k < key);
    const chunk = this.chunks[pos.chunk];
    if (!chunk || pos.offset >= chunk.length || chunk[pos.offset]!.key !== key) return false;
    chunk.splice(pos.offset, 1);
    this.count--;
    if (chunk.length === 0) this.chunks.splice(pos.chunk, 1);
    return true;
  }

  /**
   * The position of the first entry whose key `before` rejects. `before` must be monotone over
   * the sorted keys (true for a leading run, then false), e.g. `k => k < prefix`.
   */
  seek(before: (key: string) => boolean): EntryPosition {
    const c = this.firstChunkNotBefore(before);
    if (c === this.chunks.length) return { chunk: c, offset: 0 };
    return { chunk: c, offset: lowerBound(this.chunks[c]!, before) };
  }

  /** The entry at the position, if any. */
  at(pos: EntryPosition): T | undefined {
    return this.chunks[pos.chunk]?.[pos.offset];
  }

  /** Number of entries before the position. O(number of chunks). */
  rank(pos: EntryPosition): number {
    let n = 0;
    for (let c = 0; c < pos.chunk && c < this.chunks.length; c++) n += this.chunks[c]!.length;
    return n + pos.offset;
  }

  /** Visits entries in order from the position until `visit` returns false or they run out. */
  forEachFrom(pos: EntryPosition, visit: (entry: T) => boolean): void {
    let offset = pos.offset;
    for (let c = pos.chunk; c < this.chunks.length; c++) {
      const chunk = this.chunks[c]!;
      for (; offset < chunk.length; offset++) {
        if (!visit(chunk[offset]!)) return;
      }
      offset = 0;
    }
  }

  /** Up to `n` entries from the position, in order, copied out chunk by chunk. */
  takeFrom(pos: EntryPosition, n: number): T[] {
    let out: T[] | undefined;
    let offset = pos.offset;
    for (let c = pos.chunk; c < this.chunks.length && n > 0; c++) {
      const chunk = this.chunks[c]!;
      const end = Math.min(chunk.length, offset + n);
      const part = chunk.slice(offset, end);
      n -= part.length;
      out = out === undefined ? part : out.concat(part);
      offset = 0;
    }
    return out ?? [];
  }

  private firstChunkNotBefore(before: (key: string) => boolean): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = this.chunks[mid]!;
      if (before(chunk[chunk.length - 1]!.key)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function lowerBound<T extends { readonly key: string }>(entries: readonly T[], before: (key: string) => boolean): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(entries[mid]!.key)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
