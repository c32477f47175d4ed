// Protobuf wire primitives. The Writer fills its buffer from the end towards the start (as gogo's
// MarshalToSizedBuffer does): a nested message's length is known right after its content is
// written, so one pass suffices and nothing is measured twice.

import { utf8Decode } from './utf8-decode';

export class ProtobufError extends Error {
  override readonly name = 'ProtobufError';
}

const TWO_32 = 4294967296;

export class Reader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }

  /** A varint as a non-negative number (exact below 2^53); for lengths, keys, bools, enums. */
  uvarint(): number {
    const buf = this.buf;
    let pos = this.pos;
    let b = buf[pos++];
    if (b < 0x80 && pos <= this.end) {
      this.pos = pos;
      return b;
    }
    let result = b & 0x7f;
    let mul = 128;
    for (let i = 1; i < 10; i++) {
      if (pos >= this.end) throw new ProtobufError('unexpected EOF');
      b = buf[pos++];
      result += (b & 0x7f) * mul;
      if (b < 0x80) {
        this.pos = pos;
        return result;
      }
      mul *= 128;
    }
    throw new ProtobufError('proto: integer overflow');
  }

  /** A varint read as a two's complement 64-bit integer (int64 and negative int32 values). */
  svarint64(): number {
    const buf = this.buf;
    const first = buf[this.pos];
    if (first < 0x80 && this.pos < this.end) {
      this.pos++;
      return first;
    }
    let lo = 0;
    let hi = 0;
    let pos = this.pos;
    for (let i = 0; i < 10; i++) {
      if (pos >= this.end) throw new ProtobufError('unexpected EOF');
      const b = buf[pos++];
      if (i < 4) lo |= (b & 0x7f) << (7 * i);
      else if (i === 4) {
        lo |= (b & 0x0f) << 28;
        hi |= (b & 0x7f) >> 4;
      } else hi |= (b & 0x7f) << (7 * i - 32);
      if (b < 0x80) {
        this.pos = pos;
        return (hi | 0) * TWO_32 + (lo >>> 0);
      }
    }
    throw new ProtobufError('proto: integer overflow');
  }

  /** Start and end of a length-delimited payload; advances past it. */
  delimited(): number {
    const len = this.uvarint();
    const start = this.pos;
    if (start + len > this.end) throw new ProtobufError('unexpected EOF');
    this.pos = start + len;
    return start;
  }

  string(): string {
    const start = this.delimited();
    return utf8Decode(this.buf, start, this.pos);
  }

  bytes(): Uint8Array {
    const start = this.delimited();
    return this.buf.subarray(start, this.pos);
  }

  /** Skips a field of an unknown number. */
  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.uvarint();
        return;
      case 1:
        this.pos += 8;
        break;
      case 2:
        this.delimited();
        return;
      case 5:
        this.pos += 4;
        break;
      default:
        throw new ProtobufError(`proto: illegal wireType ${wireType}`);
    }
    if (this.pos > this.end) throw new ProtobufError('unexpected EOF');
  }
}

export { utf8Decode } from './utf8-decode';

/** Above this many UTF-16 units a string is encoded natively rather than by hand. */
const LONG_STRING = 64;
const encoder = new TextEncoder();

export class Writer {
  buf: Uint8Array;
  pos: number;

  constructor(initialSize = 4096) {
    this.buf = new Uint8Array(initialSize);
    this.pos = initialSize;
  }

  /** Bytes written so far (they sit at the end of buf). */
  get length(): number {
    return this.buf.length - this.pos;
  }

  private grow(need: number): void {
    const used = this.buf.length - this.pos;
    let size = this.buf.length * 2;
    while (size - used < need) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(this.pos), size - used);
    this.buf = next;
    this.pos = size - used;
  }

  byte(b: number): void {
    if (this.pos < 1) this.grow(1);
    this.buf[--this.pos] = b;
  }

  /** A non-negative integer below 2^53 as a varint. */
  uvarint(v: number): void {
    if (v < 0x80) {
      if (this.pos < 1) this.grow(1);
      this.buf[--this.pos] = v;
      return;
    }
    if (v < 0x4000) {
      // Two bytes: most lengths and keys of fields numbered 16 and up.
      if (this.pos < 2) this.grow(2);
      const p = (this.pos -= 2);
      this.buf[p] = (v & 0x7f) | 0x80;
      this.buf[p + 1] = v >>> 7;
      return;
    }
    let size = 1;
    for (let t = v; t >= 0x80; t = Math.floor(t / 128)) size++;
    if (this.pos < size) this.grow(size);
    let p = (this.pos -= size);
    const buf = this.buf;
    while (v >= 0x80) {
      buf[p++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    buf[p] = v;
  }

  /** An int32/int64 value: negatives take ten bytes (two's complement, sign-extended). */
  svarint(v: number): void {
    if (v >= 0) {
      this.uvarint(v);
      return;
    }
    let hi = Math.floor(v / TWO_32);
    let lo = v - hi * TWO_32; // 0 <= lo < 2^32
    hi = hi >>> 0;
    if (this.pos < 10) this.grow(10);
    let p = (this.pos -= 10);
    const buf = this.buf;
    for (let i = 0; i < 9; i++) {
      buf[p++] = (lo & 0x7f) | 0x80;
      lo = (lo >>> 7) | ((hi & 0x7f) << 25);
      hi = hi >>> 7;
    }
    buf[p] = lo & 0x01;
  }

  raw(bytes: Uint8Array): void {
    const n = bytes.length;
    if (this.pos < n) this.grow(n);
    const p = (this.pos -= n);
    // A loop beats TypedArray.set's call overhead for the few bytes of a zero value.
    if (n < 32) for (let i = 0; i < n; i++) this.buf[p + i] = bytes[i];
    else this.buf.set(bytes, p);
  }

  /** A length-delimited string field: key, length, UTF-8 bytes. */
  stringField(s: string, key: number): void {
    const mark = this.length;
    this.utf8(s);
    this.lengthSince(mark);
    this.uvarint(key);
  }

  /** The UTF-8 bytes of s (no length prefix). */
  utf8(s: string): void {
    const n = s.length;
    if (n > LONG_STRING) {
      this.utf8Native(s);
      return;
    }
    if (this.pos < n) this.grow(n);
    // ASCII fast path, written backwards in place.
    let p = this.pos;
    const buf = this.buf;
    let i = n - 1;
    for (; i >= 0; i--) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      buf[--p] = c;
    }
    if (i < 0) {
      this.pos = p;
      return;
    }
    // Non-ASCII: measure the remaining prefix s[0..i], then encode it forwards.
    const head = s.slice(0, i + 1);
    const len = utf8Length(head);
    this.pos = p;
    if (this.pos < len) this.grow(len);
    encodeUtf8Into(head, this.buf, this.pos - len);
    this.pos -= len;
  }

  /**
   * Long strings (embedded JSON, annotations): the native encoder writes forwards into room for
   * the worst case (3 bytes per UTF-16 unit), then the bytes move up against what follows.
   * Lone surrogates become U+FFFD either way.
   */
  private utf8Native(s: string): void {
    const room = s.length * 3;
    if (this.pos < room) this.grow(room);
    const start = this.pos - room;
    const { written } = encoder.encodeInto(s, this.buf.subarray(start, this.pos));
    this.buf.copyWithin(this.pos - written, start, start + written);
    this.pos -= written;
  }

  /** Length prefix for content written since `mark` (= this.length before the content). */
  lengthSince(mark: number): void {
    this.uvarint(this.length - mark);
  }

  finish(): Uint8Array {
    return this.buf.slice(this.pos);
  }
}

function utf8Length(s: string): number {
  let len = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) len += 1;
    else if (c < 0x800) len += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      len += 4;
      i++;
    } else len += 3;
  }
  return len;
}

function encodeUtf8Into(s: string, buf: Uint8Array, p: number): void {
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) buf[p++] = c;
    else if (c < 0x800) {
      buf[p++] = 0xc0 | (c >> 6);
      buf[p++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
      buf[p++] = 0xf0 | (c >> 18);
      buf[p++] = 0x80 | ((c >> 12) & 0x3f);
      buf[p++] = 0x80 | ((c >> 6) & 0x3f);
      buf[p++] = 0x80 | (c & 0x3f);
    } else {
      // Lone surrogates become U+FFFD, as Go's string conversion does.
      if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
      buf[p++] = 0xe0 | (c >> 12);
      buf[p++] = 0x80 | ((c >> 6) & 0x3f);
      buf[p++] = 0x80 | (c & 0x3f);
    }
  }
}

/** Bytes → standard base64 (JSON form of Go []byte). */
export function toBase64(bytes: Uint8Array): string {
  let bin = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    bin += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return btoa(bin);
}

/** Standard base64 → bytes; throws ProtobufError for text Go's decoder would reject. */
export function fromBase64(text: string): Uint8Array {
  let bin: string;
  try {
    bin = atob(text);
  } catch {
    throw new ProtobufError(`illegal base64 data: ${JSON.stringify(text.slice(0, 30))}`);
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
