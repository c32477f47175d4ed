import { describe, expect, it } from 'vitest';
import { fromBase64, ProtobufError, Reader, toBase64, Writer } from './wire';

const written = (fn: (w: Writer) => void) => {
  const w = new Writer(2); // tiny on purpose: exercises growth
  fn(w);
  return Array.from(w.finish());
};

describe('varints', () => {
  it('writes unsigned and two-complement signed varints as protobuf does', () => {
    expect(written((w) => w.uvarint(0))).toEqual([0]);
    expect(written((w) => w.uvarint(300))).toEqual([0xac, 0x02]);
    expect(written((w) => w.uvarint(2 ** 40))).toEqual([0x80, 0x80, 0x80, 0x80, 0x80, 0x20]);
    expect(written((w) => w.svarint(-1))).toEqual([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect(written((w) => w.svarint(-2147483648))).toEqual([0x80, 0x80, 0x80, 0x80, 0xf8, 0xff, 0xff, 0xff, 0xff, 0x01]);
  });

  it('reads back what it writes', () => {
    for (const v of [0, 1, 127, 128, 300, 2 ** 31 - 1, 2 ** 32, 2 ** 53 - 1, -1, -300, -(2 ** 31), -(2 ** 40)]) {
      const bytes = Uint8Array.from(written((w) => w.svarint(v)));
      expect(new Reader(bytes, 0, bytes.length).svarint64(), String(v)).toBe(v);
    }
  });

  it('reports truncated input', () => {
    const bytes = Uint8Array.from([0x80, 0x80]);
    expect(() => new Reader(bytes, 0, 2).uvarint()).toThrow(ProtobufError);
    expect(() => new Reader(Uint8Array.from([0x05, 0x61]), 0, 2).string()).toThrow('unexpected EOF');
  });
});

describe('strings and bytes', () => {
  it('writes UTF-8 backwards, including surrogate pairs', () => {
    const text = 'a€😀b';
    const bytes = Uint8Array.from(written((w) => w.utf8(text)));
    expect(Array.from(bytes)).toEqual(Array.from(new TextEncoder().encode(text)));
    expect(new TextDecoder().decode(bytes)).toBe(text);
  });

  it('converts base64 both ways and rejects invalid input', () => {
    expect(toBase64(Uint8Array.from([0, 1, 2, 255]))).toBe('AAEC/w==');
    expect(Array.from(fromBase64('AAEC/w=='))).toEqual([0, 1, 2, 255]);
    expect(() => fromBase64('***')).toThrow(ProtobufError);
  });
});
