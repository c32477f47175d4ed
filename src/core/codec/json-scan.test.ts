import { describe, expect, it } from 'vitest';
import { compareUtf8, MAX_NESTING, scanJson } from './json-scan';

/** Go's order for map keys: the UTF-8 bytes, compared one by one. */
function byUtf8Bytes(a: string, b: string): number {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  for (let i = 0; i < x.length && i < y.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

describe('compareUtf8', () => {
  it('orders like the UTF-8 bytes where UTF-16 order differs (characters above U+FFFF vs U+E000–U+FFFF)', () => {
    const astral = '\u{1F600}'; // a surrogate pair in UTF-16
    const privateUse = '\uE000';
    // UTF-16 puts the pair (0xD83D…) first; UTF-8 and code points put U+E000 first.
    expect(astral < privateUse).toBe(true);
    expect(Math.sign(compareUtf8(astral, privateUse))).toBe(1);
    expect(Math.sign(compareUtf8(privateUse, astral))).toBe(-1);
    expect(Math.sign(compareUtf8(`a${astral}`, `a${privateUse}`))).toBe(1);
    expect(compareUtf8(astral, astral)).toBe(0);
  });

  it('orders prefixes first and equal strings as equal', () => {
    expect(Math.sign(compareUtf8('app', 'apple'))).toBe(-1);
    expect(Math.sign(compareUtf8('apple', 'app'))).toBe(1);
    expect(compareUtf8('', '')).toBe(0);
    expect(Math.sign(compareUtf8('', 'a'))).toBe(-1);
  });

  it('agrees with the byte order on random strings mixing ASCII, Latin, CJK, private use and astral characters', () => {
    const alphabet = ['a', 'b', 'Z', '.', '/', 'é', 'ÿ', '中', '\uE000', '\uFFFD', '\u{1F600}', '\u{10000}', '\u{1D11E}'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const word = () => Array.from({ length: next() % 4 }, () => alphabet[next() % alphabet.length]).join('');
    for (let i = 0; i < 5000; i++) {
      const a = word();
      const b = word();
      expect([a, b, Math.sign(compareUtf8(a, b))]).toEqual([a, b, Math.sign(byUtf8Bytes(a, b))]);
    }
  });
});

describe('nesting', () => {
  const nested = (n: number, open = '[', close = ']') => open.repeat(n) + close.repeat(n);
  it('reads up to MAX_NESTING levels and refuses the next with Go\'s words', () => {
    expect(() => scanJson(nested(MAX_NESTING))).not.toThrow();
    expect(() => scanJson(nested(MAX_NESTING + 1))).toThrow("invalid character '[' exceeded max depth");
    expect(() => scanJson('{"a":'.repeat(100_000))).toThrow("invalid character '{' exceeded max depth");
  });
  it('does not count brackets inside strings', () => {
    expect(() => scanJson(JSON.stringify({ a: '['.repeat(5000), b: '\\"['.repeat(600) }))).not.toThrow();
  });
});
