// Hashes the API exposes: discovery's storageVersionHash (exactly kube-apiserver's) and the
// OpenAPI v3 document hash (opaque to clients, so a fast non-cryptographic one).
import { sha256 } from './sha256';

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/**
 * kube-apiserver's storageVersionHash: base64 of the first 8 bytes of SHA-256 over
 * `<group>/<version>/<kind>` of the storage version (core group is the empty string).
 */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return toBase64(sha256(new TextEncoder().encode(`${group}/${version}/${kind}`)).subarray(0, 8));
}

/**
 * 64-bit content hash as 16 upper-case hex digits: two FNV-1a style 32-bit lanes with different
 * offsets and primes over the UTF-16 code units. Collisions only cost a cache miss in clients.
 */
export function contentHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  const hex = (n: number) => (n >>> 0).toString(16).toUpperCase().padStart(8, '0');
  return hex(a) + hex(b);
}
