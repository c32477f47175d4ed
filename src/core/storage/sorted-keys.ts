// A sorted set of strings kept as a list of small sorted chunks. A single sorted array needs an
// O(n) splice per insert: 100,000 random-order inserts measured ~11 s that way, because every
// insert moves half the array. Chunks of at most CHUNK_MAX keys keep each splice short while
// lookups stay binary searches (first over chunk tails, then inside one chunk).
// Keys compare by UTF-16 code units (plain `<`), the same order IndexedDB uses for strings.

const CHUNK_MAX = 512;

/** A position between keys: chunk number and offset inside it. `chunk === chunks.length` is the end. */
export interface KeyPosition {
  chunk: number;
  offset: number;
}

export class SortedKeys {
  private chunks: string[][] = [];
  private count = 0;

  /** Builds from keys already in ascending order (the bulk path used when a store opens). */
  static fromSorted(keys: readonly string[]): SortedKeys {
    const set = new SortedKeys();
    for (let i = 0; i < keys.length; i += CHUNK_MAX / 2) {
      set.chunks.push(keys.slice(i, i + CHUNK_MAX / 2));
    }
    set.count = keys.length;
    return set;
  }

  get size(): number {
    return this.count;
  }

  /** Adds the key; false when it was already present. */
  insert(key: string): boolean {
    if (this.chunks.length === 0) {
      this.chunks.push([key]);
      this.count = 1;
      return true;
    }
    // The first chunk whose last key is >= key; past the end means "append to the last chunk".
    let c = this.firstChunkNotBefore((k) => k < key);
    if (c === this.chunks.length) c--;
    const chunk = this.chunks[c]!;
    const offset = lowerBound(chunk, (k) => k < key);
    if (chunk[offset] === key) return false;
    chunk.splice(offset, 0, key);
    this.count++;
    if (chunk.length > CHUNK_MAX) this.chunks.splice(c + 1, 0, chunk.splice(CHUNK_MAX / 2));
    return true;
  }

  /** Removes the key; false when it was absent. */
  remove(key: string): boolean {
    const pos = this.seek((k) => k < key);
    const chunk = this.chunks[pos.chunk];
    if (!chunk || chunk[pos.offset] !== key) return false;
    chunk.splice(pos.offset, 1);
    this.count--;
    if (chunk.length === 0) this.chunks.splice(pos.chunk, 1);
    return true;
  }

  /**
   * The position of the first key for which `before` is false. `before` must be monotone over the
   * sorted keys (true for a leading run, then false), e.g. `k => k < prefix`.
   */
  seek(before: (key: string) => boolean): KeyPosition {
    const c = this.firstChunkNotBefore(before);
    if (c === this.chunks.length) return { chunk: c, offset: 0 };
    return { chunk: c, offset: lowerBound(this.chunks[c]!, before) };
  }

  /** Number of keys before the position. O(number of chunks). */
  rank(pos: KeyPosition): number {
    let n = 0;
    for (let c = 0; c < pos.chunk && c < this.chunks.length; c++) n += this.chunks[c]!.length;
    return n + pos.offset;
  }

  /** Visits keys in order from the position until `visit` returns false or the keys run out. */
  forEachFrom(pos: KeyPosition, visit: (key: string) => boolean): void {
    let offset = pos.offset;
    for (let c = pos.chunk; c < this.chunks.length; c++) {
      const chunk = this.chunks[c]!;
      for (; offset < chunk.length; offset++) {
        if (!visit(chunk[offset]!)) return;
      }
      offset = 0;
    }
  }

  private firstChunkNotBefore(before: (key: string) => boolean): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = this.chunks[mid]!;
      if (before(chunk[chunk.length - 1]!)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function lowerBound(keys: readonly string[], before: (key: string) => boolean): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(keys[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
