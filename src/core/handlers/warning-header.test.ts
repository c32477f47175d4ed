import { describe, expect, it } from 'vitest';
import { headerByteString, warningHeaderValue } from './warning-header';

/** What a byte string puts on the wire: one byte per char (what Node and fetch do with it). */
const wire = (value: string) => Buffer.from(value, 'latin1');

describe('warningHeaderValue', () => {
  it('writes 299 - "text" with only quotes and backslashes escaped, joined by ", "', () => {
    expect(warningHeaderValue(['unknown field "spec.x"', 'a\\b'])).toBe('299 - "unknown field \\"spec.x\\"", 299 - "a\\\\b"');
  });

  it('sends non-ASCII text as its UTF-8 bytes, every char of the value a byte', () => {
    const value = warningHeaderValue(['unknown field "日本"'])!;
    expect([...value].every((c) => c.charCodeAt(0) <= 0xff)).toBe(true);
    expect(wire(value).toString('utf8')).toBe('299 - "unknown field "日本""'.replace('"日本"', '\\"日本\\"'));
  });

  it('drops texts with control characters (Go refuses them) and repeats, as the warning recorder does', () => {
    expect(warningHeaderValue(['a\u0001b', 'tab\there', 'c1\u0085'])).toBeUndefined();
    expect(warningHeaderValue(['x', 'bad\n', 'x', '', 'y'])).toBe('299 - "x", 299 - "y"');
  });

  it('turns a lone surrogate into U+FFFD, as Go decoded it', () => {
    expect(wire(warningHeaderValue(['k \ud800'])!).toString('utf8')).toBe('299 - "k \ufffd"');
  });
});

describe('headerByteString', () => {
  it('leaves ASCII alone and spells anything else as UTF-8 bytes', () => {
    expect(headerByteString('plain')).toBe('plain');
    expect(headerByteString('é')).toBe('\u00c3\u00a9');
  });
});

describe('the recorder\'s size limits', () => {
  const texts = (value: string | undefined) => (value === undefined ? [] : wire(value).toString('utf8').slice('299 - "'.length, -1).split('", 299 - "'));

  it('sends texts whole while they stay within 4096 runes in all', () => {
    const within = ['a'.repeat(2000), 'b'.repeat(2000), 'ç'.repeat(96)];
    expect(texts(warningHeaderValue(within)).map((t) => t.length)).toEqual([2000, 2000, 96]);
    // One rune more and the recorder starts cutting.
    expect(texts(warningHeaderValue([...within, 'd'])).map((t) => t.length)).toEqual([256, 256, 96, 1]);
  });

  it('past 4096 runes sends every text again cut to 256 runes, later ones too, until 4096 cut runes went out', () => {
    const many = ['a'.repeat(3000), 'b'.repeat(2000), 'c'.repeat(300), ...Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(300, 'x'))];
    const out = texts(warningHeaderValue(many));
    expect(out.slice(0, 3)).toEqual(['a'.repeat(256), 'b'.repeat(256), 'c'.repeat(256)]);
    expect(out.every((t) => t.length <= 256)).toBe(true);
    // 256-rune items are added while fewer than 4096 runes went out: 16 of them.
    expect(out.length).toBe(16);
  });
});
