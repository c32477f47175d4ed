import { describe, expect, it } from 'vitest';
import type { KV } from '../storage/types';
import { bodyBytes } from '../meta/types';
import { itemBytes, joinBytes, KeptPages, listBody, MIN_KEPT_PAGE_ITEMS } from './list-bytes';

const dec = new TextDecoder();
const kv = (value: string): KV => ({ key: '/k', value, createRev: 1, modRev: 1 }) as KV;

describe('list item bytes', () => {
  it('encodes an item once per revision and served version', () => {
    const item = kv('{"metadata":{"name":"ü"}}');
    let calls = 0;
    const text = (k: KV) => (calls++, k.value);
    const a = itemBytes(item, 'v1', text);
    expect(itemBytes(item, 'v1', text)).toBe(a);
    expect(calls).toBe(1);
    expect(dec.decode(a)).toBe('{"metadata":{"name":"ü"}}');
    const other = itemBytes(item, 'v2', (k) => k.value.replace('ü', 'x'));
    expect(dec.decode(other)).toBe('{"metadata":{"name":"x"}}');
  });

  it('joins items with commas between head and tail, multi-byte text intact', () => {
    const enc = new TextEncoder();
    const body = joinBytes('{"items":[', [enc.encode('{"a":"€"}'), enc.encode('{"b":2}')], ']}\n');
    expect(dec.decode(body)).toBe('{"items":[{"a":"€"},{"b":2}]}\n');
    expect(JSON.parse(dec.decode(joinBytes('{"items":[', [], ']}')))).toEqual({ items: [] });
  });
});

describe('kept list pages', () => {
  const page = (n: number, from = 0) => Array.from({ length: n }, (_, i) => kv(`{"i":${from + i},"s":"é"}`));
  const text = (k: KV) => k.value;
  const expected = (kvs: KV[]) => kvs.map((k) => k.value).join(',');

  it('answers a page again from the kept bytes, and a shorter page as their beginning', () => {
    const kept = new KeptPages(1 << 20);
    const kvs = page(40);
    const a = kept.joined(kvs, 'v1', text);
    expect(dec.decode(a)).toBe(expected(kvs));
    let calls = 0;
    const counting = (k: KV) => (calls++, k.value);
    const b = kept.joined([...kvs], 'v1', counting);
    expect(b.buffer).toBe(a.buffer);
    expect(dec.decode(kept.joined(kvs.slice(0, 7), 'v1', counting))).toBe(expected(kvs.slice(0, 7)));
    expect(calls).toBe(0);
  });

  it('builds a new page when an item was replaced, added or removed, or the version differs', () => {
    const kept = new KeptPages(1 << 20);
    const kvs = page(40);
    kept.joined(kvs, 'v1', text);
    const replaced = [...kvs];
    replaced[20] = kv('{"i":"new"}');
    expect(dec.decode(kept.joined(replaced, 'v1', text))).toBe(expected(replaced));
    const added = [...replaced.slice(0, 10), kv('{"added":true}'), ...replaced.slice(10)];
    expect(dec.decode(kept.joined(added, 'v1', text))).toBe(expected(added));
    const removed = added.filter((_, i) => i !== 3);
    expect(dec.decode(kept.joined(removed, 'v1', text))).toBe(expected(removed));
    const longer = [...removed, ...page(5, 100)];
    expect(dec.decode(kept.joined(longer, 'v1', text))).toBe(expected(longer));
    expect(dec.decode(kept.joined(longer, 'v2', (k) => k.value.replace('é', 'e')))).toBe(expected(longer).replaceAll('é', 'e'));
  });

  it('stays within its byte budget, dropping the least recently used pages first', () => {
    const one = dec.decode(new KeptPages(1 << 20).joined(page(40), 'v1', text)).length;
    const kept = new KeptPages(Math.floor(one * 2.5) + 200);
    const pages = [page(40, 0), page(40, 1000), page(40, 2000)];
    kept.joined(pages[0]!, 'v1', text);
    kept.joined(pages[1]!, 'v1', text);
    kept.joined(pages[0]!, 'v1', text); // page 0 is now the most recently used
    kept.joined(pages[2]!, 'v1', text); // over budget: page 1 goes
    expect(kept.bytes).toBeLessThanOrEqual(Math.floor(one * 2.5) + 200);
    let calls = 0;
    const counting = (k: KV) => (calls++, k.value);
    kept.joined(pages[0]!, 'v1', counting);
    kept.joined(pages[2]!, 'v1', counting);
    expect(calls).toBe(0);
    // Page 1 was dropped: it is built again (its items' bytes are still cached per revision, so
    // the text function is not called either) and the bytes are right.
    expect(dec.decode(kept.joined(pages[1]!, 'v1', counting))).toBe(expected(pages[1]!));
  });

  it('list bodies are the same with and without kept pages', () => {
    const kvs = page(MIN_KEPT_PAGE_ITEMS + 3);
    const head = '{"kind":"ConfigMapList","items":[';
    const first = bodyBytes(listBody(head, kvs, ']}\n', 'v1', text));
    const again = bodyBytes(listBody(head, kvs, ']}\n', 'v1', text));
    expect(dec.decode(again)).toBe(dec.decode(first));
    expect(JSON.parse(dec.decode(first)).items).toHaveLength(kvs.length);
    expect(dec.decode(bodyBytes(listBody(head, kvs.slice(0, 2), ']}\n', 'v1', text)))).toBe(`${head}${expected(kvs.slice(0, 2))}]}\n`);
    expect(dec.decode(bodyBytes(listBody(head, [], ']}\n', 'v1', text)))).toBe(`${head}]}\n`);
  });
});
