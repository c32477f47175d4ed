// JSON list bodies as bytes, built from each item's UTF-8 encoding kept once per stored revision
// and served version. A stored revision never changes, so its encoding can be reused by every
// later list and relist (informers relist the same objects again and again); kube-apiserver's
// watch cache keeps serialisations of objects for the same reason. A page is then a copy of
// ready bytes instead of a string join plus a UTF-8 encode of the whole page.
//
// Pages themselves are kept too (decision 0011): the items of a page, joined, in one buffer,
// found again by the page's first item and checked item by item (the same KV objects in the
// same order — a changed, added or removed item makes a new page). A chunked walk, a relist or
// the UI's paging then sends one run of bytes per page instead of touching 500 small arrays.
//
// Cost: one Uint8Array per listed revision, alive as long as the revision is (the map is weak on
// the stored KV, which the store drops when the revision is replaced or compacted), plus the
// kept pages, bounded by PAGE_BUDGET_BYTES (least recently used go first).
import type { KV } from '../storage/types';

interface Encoded {
  /** The served apiVersion the bytes were made for (items differ between versions). */
  version: string;
  bytes: Uint8Array;
}

const encoded = new WeakMap<KV, Encoded>();
const utf8 = new TextEncoder();
const COMMA = 0x2c;

/** The item's bytes at `version`; `text` makes the item text when they are not cached yet. */
export function itemBytes(kv: KV, version: string, text: (kv: KV) => string): Uint8Array {
  const hit = encoded.get(kv);
  if (hit && hit.version === version) return hit.bytes;
  const bytes = utf8.encode(text(kv));
  encoded.set(kv, { version, bytes });
  return bytes;
}

/** `head` + items joined by commas + `tail`, as one byte array. */
export function joinBytes(head: string, items: Uint8Array[], tail: string): Uint8Array {
  const h = utf8.encode(head);
  const t = utf8.encode(tail);
  let size = h.length + t.length + Math.max(0, items.length - 1);
  for (const it of items) size += it.length;
  const out = new Uint8Array(size);
  out.set(h, 0);
  let at = h.length;
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out[at++] = COMMA;
    out.set(items[i], at);
    at += items[i].length;
  }
  out.set(t, at);
  return out;
}

/** Pages smaller than this are joined item by item: keeping them would save little. */
export const MIN_KEPT_PAGE_ITEMS = 32;
/** Bytes of kept pages, all lists together (a 10,000-item walk of ~500-byte items is ~5 MB). */
export const PAGE_BUDGET_BYTES = 16 * 1024 * 1024;

interface KeptPage {
  version: string;
  kvs: readonly KV[];
  /** The items joined by commas. */
  bytes: Uint8Array;
  /** ends[i]: where item i's bytes end in `bytes`, so a shorter page is a prefix of this one. */
  ends: Uint32Array;
}

/** Joined item bytes of list pages, found by first item; least recently used first in the map. */
export class KeptPages {
  private readonly pages = new Map<KV, KeptPage>();
  private size = 0;

  constructor(private readonly budget: number) {}

  /** How many bytes the kept pages hold (for tests). */
  get bytes(): number {
    return this.size;
  }

  /** The items of `kvs` at `version` joined by commas (a view into a kept page when possible). */
  joined(kvs: readonly KV[], version: string, text: (kv: KV) => string): Uint8Array {
    const first = kvs[0]!;
    const kept = this.pages.get(first);
    if (kept && kept.version === version && sameRun(kept.kvs, kvs)) {
      // Most recently used goes last.
      this.pages.delete(first);
      this.pages.set(first, kept);
      return kept.bytes.subarray(0, kept.ends[kvs.length - 1]);
    }
    const page = buildPage(kvs, version, text);
    if (kept) this.drop(first, kept);
    if (page.bytes.length <= this.budget) {
      this.pages.set(first, page);
      this.size += page.bytes.length;
      for (const [key, old] of this.pages) {
        if (this.size <= this.budget) break;
        this.drop(key, old);
      }
    }
    return page.bytes;
  }

  private drop(key: KV, page: KeptPage): void {
    this.pages.delete(key);
    this.size -= page.bytes.length;
  }
}

/** True when `kvs` is `kept` or its beginning: the very same revisions in the same order. */
function sameRun(kept: readonly KV[], kvs: readonly KV[]): boolean {
  if (kvs.length > kept.length) return false;
  for (let i = 0; i < kvs.length; i++) if (kept[i] !== kvs[i]) return false;
  return true;
}

function buildPage(kvs: readonly KV[], version: string, text: (kv: KV) => string): KeptPage {
  const items = kvs.map((kv) => itemBytes(kv, version, text));
  const bytes = joinBytes('', items, '');
  // Item i ends where its bytes do; one comma separates it from the next.
  const ends = new Uint32Array(items.length);
  for (let i = 0, at = 0; i < items.length; i++) {
    at += items[i]!.length;
    ends[i] = at++;
  }
  // Copied: the caller's array may be the store's own slice, but a kept page must never change.
  return { version, kvs: kvs.slice(), bytes, ends };
}

const keptPages = new KeptPages(PAGE_BUDGET_BYTES);

/**
 * A JSON list body: `head`, the items at `version` joined by commas, `tail`. Large pages come in
 * parts around the kept page's bytes, which are sent as they are (never copied into the body).
 */
export function listBody(head: string, kvs: readonly KV[], tail: string, version: string, text: (kv: KV) => string): Uint8Array | Uint8Array[] {
  if (kvs.length < MIN_KEPT_PAGE_ITEMS) return joinBytes(head, kvs.map((kv) => itemBytes(kv, version, text)), tail);
  return [utf8.encode(head), keptPages.joined(kvs, version, text), utf8.encode(tail)];
}
