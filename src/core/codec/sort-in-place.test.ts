import { describe, expect, it } from 'vitest';
import { sortInPlace } from './sort-in-place';

describe('sortInPlace', () => {
  it('sorts short and long arrays in place, stably, exactly as Array.prototype.sort does', () => {
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const byKey = (a: { k: number }, b: { k: number }) => a.k - b.k;
    for (const length of [0, 1, 2, 3, 7, 16, 17, 40]) {
      for (let round = 0; round < 50; round++) {
        // Few distinct keys, so stability shows: equal keys keep their original order (i).
        const items = Array.from({ length }, (_, i) => ({ k: next() % 4, i }));
        const expected = [...items].sort(byKey);
        const result = sortInPlace(items, byKey);
        expect(result).toBe(items);
        expect(result).toEqual(expected);
      }
    }
  });

  it('sorts strings with a comparator', () => {
    expect(sortInPlace(['spec', 'kind', 'apiVersion', 'metadata'], (a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
  });
});
