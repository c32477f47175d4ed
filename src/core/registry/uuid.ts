// Version-4 UUIDs (object uids, Audit-Id headers) from a pooled buffer of random bytes. In the
// Service Worker each crypto.randomUUID() call cost 10-15 µs on the create path (a call into the
// browser's CSPRNG per UUID); one getRandomValues for 256 UUIDs and table lookups cost well under
// 1 µs each. Same source of randomness (the platform CSPRNG), same RFC 4122 layout.

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const POOL = new Uint8Array(16 * 256);
let next = POOL.length;

export function newUuid(): string {
  if (next === POOL.length) {
    crypto.getRandomValues(POOL);
    next = 0;
  }
  const b = POOL;
  const o = next;
  next += 16;
  // Version 4 in the high nibble of byte 6, the RFC 4122 variant (10xx) in byte 8.
  const version = (b[o + 6]! & 0x0f) | 0x40;
  const variant = (b[o + 8]! & 0x3f) | 0x80;
  return (
    HEX[b[o]!]! + HEX[b[o + 1]!] + HEX[b[o + 2]!] + HEX[b[o + 3]!] + '-' +
    HEX[b[o + 4]!] + HEX[b[o + 5]!] + '-' +
    HEX[version] + HEX[b[o + 7]!] + '-' +
    HEX[variant] + HEX[b[o + 9]!] + '-' +
    HEX[b[o + 10]!] + HEX[b[o + 11]!] + HEX[b[o + 12]!] + HEX[b[o + 13]!] + HEX[b[o + 14]!] + HEX[b[o + 15]!]
  );
}
