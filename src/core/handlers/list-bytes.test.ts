import { describe, expect, it } from 'vitest';
import type { KV } from '../storage/types';
import { itemBytes, joinBytes } from './list-bytes';

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
