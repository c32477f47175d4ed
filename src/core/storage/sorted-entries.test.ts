import { describe, expect, it } from 'vitest';
import { SortedEntries } from './sorted-entries';

interface Entry {
  key: string;
  n?: number;
}
const e = (key: string, n?: number): Entry => ({ key, n });

// A small deterministic PRNG so failures reproduce.
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

function allKeys(set: SortedEntries<Entry>): string[] {
  const out: string[] = [];
  set.forEachFrom({ chunk: 0, offset: 0 }, (entry) => {
    out.push(entry.key);
    return true;
  });
  return out;
}

describe('SortedEntries', () => {
  it('matches a sorted reference through thousands of random inserts and removals', () => {
    const rnd = random(7);
    const set = new SortedEntries<Entry>();
    const reference = new Set<string>();
    for (let i = 0; i < 6000; i++) {
      const key = `k${Math.floor(rnd() * 3000).toString().padStart(4, '0')}`;
      if (rnd() < 0.65) {
        expect(set.put(e(key))).toBe(!reference.has(key));
        reference.add(key);
      } else {
        expect(set.remove(key)).toBe(reference.delete(key));
      }
    }
    const expected = [...reference].sort();
    expect(set.size).toBe(expected.length);
    expect(allKeys(set)).toEqual(expected);
    // seek + rank agree with the reference for every probe.
    for (const probe of ['k0000', 'k1500', 'k2999', 'k9', 'a']) {
      const pos = set.seek((k) => k < probe);
      expect(set.rank(pos)).toBe(expected.filter((k) => k < probe).length);
    }
  });

  it('bulk-loads sorted keys and keeps working after edits', () => {
    const keys = Array.from({ length: 2000 }, (_, i) => `/p/${i.toString().padStart(5, '0')}`);
    const set = SortedEntries.fromSorted(keys.map((k) => e(k)));
    expect(set.size).toBe(2000);
    expect(set.put(e('/p/00000'))).toBe(false);
    expect(set.put(e('/p/00000a'))).toBe(true);
    expect(set.remove('/p/01999')).toBe(true);
    expect(set.remove('/p/01999')).toBe(false);
    const all = allKeys(set);
    expect(all[1]).toBe('/p/00000a');
    expect(all).toHaveLength(2000);
    expect(all.at(-1)).toBe('/p/01998');
  });

  it('handles an empty set and positions past the end', () => {
    const set = new SortedEntries<Entry>();
    const pos = set.seek((k) => k < 'x');
    expect(pos).toEqual({ chunk: 0, offset: 0 });
    expect(set.rank(pos)).toBe(0);
    expect(set.remove('x')).toBe(false);
    set.put(e('b'));
    set.put(e('a'));
    expect(set.rank(set.seek(() => true))).toBe(2);
    expect(allKeys(set)).toEqual(['a', 'b']);
  });

  it('keeps 100,000 random keys in order', () => {
    const rnd = random(3);
    const set = new SortedEntries<Entry>();
    for (let i = 0; i < 100_000; i++) set.put(e(`/registry/configmaps/ns/${Math.floor(rnd() * 1e12).toString(36)}`));
    const all = allKeys(set);
    expect(all.every((k, i) => i === 0 || all[i - 1]! < k)).toBe(true);
  });

  it('replaces the entry of an existing key in place and takes runs across chunks', () => {
    const set = SortedEntries.fromSorted(Array.from({ length: 1500 }, (_, i) => e(`/p/${i.toString().padStart(5, '0')}`, i)));
    expect(set.put(e('/p/00700', -1))).toBe(false);
    expect(set.size).toBe(1500);
    const pos = set.seek((k) => k < '/p/00600');
    const run = set.takeFrom(pos, 300);
    expect(run.map((x) => x.n)).toEqual(Array.from({ length: 300 }, (_, i) => (600 + i === 700 ? -1 : 600 + i)));
    // Past the end: as many as there are.
    expect(set.takeFrom(set.seek((k) => k < '/p/01490'), 100).map((x) => x.key)).toEqual(allKeys(set).slice(1490));
    expect(set.takeFrom(set.seek(() => true), 10)).toEqual([]);
    // The copy does not follow later edits.
    set.put(e('/p/00601', -2));
    expect(run[1]!.n).toBe(601);
  });
});
