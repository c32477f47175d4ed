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
