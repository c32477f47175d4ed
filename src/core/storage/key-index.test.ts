import { describe, expect, it } from 'vitest';
import { KeyIndex } from './key-index';
import type { KV } from './types';

const kv = (key: string, rev = 1): KV => ({ key, value: '{}', createRev: rev, modRev: rev });

describe('KeyIndex.count', () => {
  it('counts a prefix again after a key arrives under it, once it was found empty', () => {
    const index = KeyIndex.fromSorted([kv('/r/a/1'), kv('/r/c/1')]);
    expect(index.count('/r/b/')).toBe(0);
    index.set(kv('/r/b/1', 2));
    expect(index.count('/r/b/')).toBe(1);
    // Also for a shorter prefix the new key falls under.
    expect(index.count('/q/')).toBe(0);
    expect(index.count('/q/x/')).toBe(0);
    index.set(kv('/q/x/1', 3));
    expect(index.count('/q/')).toBe(1);
    expect(index.count('/q/x/')).toBe(1);
  });

  it('keeps an empty prefix empty when keys arrive elsewhere or existing keys change', () => {
    const index = KeyIndex.empty();
    index.set(kv('/r/a/1'));
    expect(index.count('/s/')).toBe(0);
    index.set(kv('/r/a/2', 2));
    index.set(kv('/r/a/1', 3));
    expect(index.count('/s/')).toBe(0);
    expect(index.count('/r/a/')).toBe(2);
  });

  it('counts correctly after deletes empty a prefix and a key comes back', () => {
    const index = KeyIndex.empty();
    index.set(kv('/r/a/1'));
    index.delete('/r/a/1');
    expect(index.count('/r/a/')).toBe(0);
    index.set(kv('/r/a/1', 2));
    expect(index.count('/r/a/')).toBe(1);
  });

  it('stays right past the number of empty prefixes it remembers', () => {
    const index = KeyIndex.empty();
    for (let i = 0; i < 600; i++) expect(index.count(`/quota/ns-${i}/`)).toBe(0);
    for (let i = 0; i < 600; i += 7) index.set(kv(`/quota/ns-${i}/q`, i + 1));
    // Newest first: those are the ones still remembered.
    for (let i = 599; i >= 0; i--) expect(index.count(`/quota/ns-${i}/`)).toBe(i % 7 === 0 ? 1 : 0);
  });
});
