// JSON list bodies as bytes, built from each item's UTF-8 encoding kept once per stored revision
// and served version. A stored revision never changes, so its encoding can be reused by every
// later list and relist (informers relist the same objects again and again); kube-apiserver's
// watch cache keeps serialisations of objects for the same reason. A page is then a copy of
// ready bytes instead of a string join plus a UTF-8 encode of the whole page.
//
// Cost: one Uint8Array per listed revision, alive as long as the revision is (the map is weak on
// the stored KV, which the store drops when the revision is replaced or compacted).
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
