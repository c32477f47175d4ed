// UTF-8 bytes → JS string, tuned for the short ASCII strings that dominate Kubernetes objects
// (names, label keys and values, enum values such as "TCP" or "IfNotPresent"). TextDecoder has
// a fixed per-call cost that dwarfs the work for such strings, and building them one character
// at a time allocates a string per character; so short strings go through a small cache of
// recently decoded strings (objects repeat the same few values) and, on a miss, one
// String.fromCharCode call over a reused array of char codes.

const decoder = new TextDecoder('utf-8');

/** Strings up to this many bytes take the hand-written path. */
const SHORT = 64;
/** Cache slots (a power of two); a slot holds the last string whose bytes hashed to it. */
const CACHE_SIZE = 2048;
const cachedText: string[] = new Array<string>(CACHE_SIZE).fill('');
/** The bytes of each cached string (slot i at i * SHORT), compared to confirm a hit. */
const cachedBytes = new Uint8Array(CACHE_SIZE * SHORT);
/** Byte length of each cached string; 0 = empty slot. */
const cachedLength = new Uint8Array(CACHE_SIZE);

/** Reused char-code arrays, one per length, so fromCharCode.apply sees an exact-length array. */
const codes: number[][] = [];
for (let n = 0; n <= SHORT; n++) codes.push(new Array<number>(n).fill(0));

export function utf8Decode(buf: Uint8Array, start: number, end: number): string {
  const len = end - start;
  if (len === 0) return '';
  if (len > SHORT) return decoder.decode(buf.subarray(start, end));
  // The slot comes from the length and a few sampled bytes (hashing every byte costs as much
  // as the comparison that must confirm a hit anyway); strings that share a slot just evict
  // each other.
  const q = len >> 2;
  const hash = Math.imul(len, 0x9e3779b1) ^ (buf[start] << 3) ^ (buf[start + q] << 7) ^ (buf[start + (len >> 1)] << 11) ^ (buf[end - 1 - q] << 14) ^ buf[end - 1];
  const slot = (hash ^ (hash >>> 12)) & (CACHE_SIZE - 1);
  const at = slot * SHORT;
  if (cachedLength[slot] === len && sameBytes(at, buf, start, len)) return cachedText[slot];
  // A miss: check for non-ASCII while collecting the char codes.
  const chars = codes[len];
  let high = 0;
  for (let i = 0; i < len; i++) {
    const c = buf[start + i];
    high |= c;
    chars[i] = c;
  }
  if (high >= 0x80) return decoder.decode(buf.subarray(start, end));
  const text = String.fromCharCode.apply(null, chars);
  cachedText[slot] = text;
  cachedLength[slot] = len;
  cachedBytes.set(buf.subarray(start, end), at);
  return text;
}

function sameBytes(at: number, buf: Uint8Array, start: number, len: number): boolean {
  for (let i = 0; i < len; i++) if (cachedBytes[at + i] !== buf[start + i]) return false;
  return true;
}
