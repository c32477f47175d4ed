import { describe, expect, it } from 'vitest';
import { canonicalQuantity, canonicalQuantityIfValid, compareQuantity, parseQuantity } from './quantity';

describe('Quantity', () => {
  it.each([
    ['1Gi', '1Gi'],
    ['1024Mi', '1Gi'],
    ['1536Mi', '1536Mi'],
    ['0.5Gi', '512Mi'],
    ['100m', '100m'],
    ['0.1', '100m'],
    ['1.5', '1500m'],
    ['1000', '1k'],
    ['2000000', '2M'],
    ['1e3', '1e3'],
    ['500', '500'],
    ['512', '512'],
    ['0', '0'],
    ['-1Gi', '-1Gi'],
    [2, '2'],
  ])('canonical form of %s is %s', (raw, want) => {
    expect(canonicalQuantity(raw)).toBe(want);
  });

  it.each(['', 'abc', '1GB', '1.2.3', 'Gi', '1 Gi'])('rejects %j', (raw) => {
    expect(parseQuantity(raw)).toBeUndefined();
  });

  it('compares across formats', () => {
    expect(compareQuantity(parseQuantity('1Gi')!, parseQuantity('1073741824')!)).toBe(0);
    expect(compareQuantity(parseQuantity('500m')!, parseQuantity('1')!)).toBe(-1);
    expect(compareQuantity(parseQuantity('2')!, parseQuantity('1500m')!)).toBe(1);
  });

  it('refuses suffixes named as Object.prototype members (a lookup must not find inherited ones)', () => {
    for (const name of Object.getOwnPropertyNames(Object.prototype)) {
      expect(parseQuantity(`1${name}`)).toBeUndefined();
    }
    expect(parseQuantity('1Ki')).toBeDefined();
  });
});

describe('canonicalQuantityIfValid', () => {
  it('answers canonicalQuantity for what parses, numbers as their text, and undefined for the rest (remembered or not)', () => {
    for (let pass = 0; pass < 2; pass++) {
      expect(canonicalQuantityIfValid('0.5')).toBe('500m');
      expect(canonicalQuantityIfValid('1.5Gi')).toBe(canonicalQuantity('1.5Gi'));
      expect(canonicalQuantityIfValid(2)).toBe('2');
      expect(canonicalQuantityIfValid(0.25)).toBe('250m');
      expect(canonicalQuantityIfValid('abc')).toBeUndefined();
      expect(canonicalQuantityIfValid(Number.NaN)).toBeUndefined();
    }
  });
});
