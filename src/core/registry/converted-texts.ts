// Converted texts of stored revisions, kept so that each revision is converted to a served
// version once, not on every read (decision 0012). Keys are stored texts: a stored text carries
// its own metadata.resourceVersion, so one text is one revision of one object, and a new
// revision is a new key — nothing ever needs invalidating, only evicting.
//
// One budget for every codec of an API server (codecs are rebuilt with the catalog, the budget
// is not), counted in UTF-16 code units of keys and values. Eviction is first in, first out: a
// hit costs one Map lookup and no bookkeeping, and an evicted text that is still read is simply
// converted again.

/** Code units (key + converted text) kept across all codecs: ~32 MiB of UTF-16. */
export const CONVERTED_TEXT_BUDGET = 16 * 1024 * 1024;

export class ConvertedTexts {
  private used = 0;
  /** Insertion order across codecs: [map, key] pairs, oldest first from `head`. */
  private order: Array<[Map<string, string>, string]> = [];
  private head = 0;

  constructor(private readonly budget = CONVERTED_TEXT_BUDGET) {}

  add(cache: Map<string, string>, storedText: string, converted: string): void {
    if (cache.has(storedText)) return;
    cache.set(storedText, converted);
    this.order.push([cache, storedText]);
    this.used += storedText.length + converted.length;
    while (this.used > this.budget && this.head < this.order.length) this.evictOldest();
    // Drop the evicted prefix of `order` once it is most of the array (amortised O(1)).
    if (this.head > 1024 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
  }

  /** Code units held now (for tests and the memory bench). */
  get size(): number {
    return this.used;
  }

  private evictOldest(): void {
    const [cache, key] = this.order[this.head]!;
    this.order[this.head] = undefined as unknown as [Map<string, string>, string];
    this.head++;
    const text = cache.get(key);
    if (text === undefined) return;
    cache.delete(key);
    this.used -= key.length + text.length;
  }
}
