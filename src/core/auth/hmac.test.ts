import { describe, expect, it } from 'vitest';
import { hmacSha256, macEqual } from './hmac';
import { base64UrlDecode, base64UrlEncode, signHs256, verifyHs256 } from './jwt-hs256';

const enc = new TextEncoder();
const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');

describe('hmacSha256 (RFC 4231 vectors)', () => {
  it('case 2: short key', () => {
    expect(hex(hmacSha256(enc.encode('Jefe'), enc.encode('what do ya want for nothing?')))).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });
  it('case 6: key longer than a block is hashed first', () => {
    const key = new Uint8Array(131).fill(0xaa);
    expect(hex(hmacSha256(key, enc.encode('Test Using Larger Than Block-Size Key - Hash Key First')))).toBe('60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54');
  });
  it('macEqual compares lengths and bytes', () => {
    expect(macEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(macEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(macEqual(new Uint8Array([1]), new Uint8Array([1, 2]))).toBe(false);
  });
});

describe('HS256 JWS', () => {
  const key = enc.encode('secret');
  it('round-trips base64url without padding', () => {
    const bytes = new Uint8Array([251, 255, 0, 1]);
    expect(base64UrlEncode(bytes)).toBe('-_8AAQ');
    expect([...(base64UrlDecode('-_8AAQ') ?? [])]).toEqual([...bytes]);
    expect(base64UrlDecode('a+b')).toBeUndefined();
  });
  it('signs a header with alg and kid, and verifies its own signature', () => {
    const token = signHs256(key, 'k1', { sub: 'x', n: 1 });
    const [h, p] = token.split('.');
    expect(JSON.parse(new TextDecoder().decode(base64UrlDecode(h)))).toEqual({ alg: 'HS256', kid: 'k1' });
    expect(new TextDecoder().decode(base64UrlDecode(p))).toBe('{"sub":"x","n":1}');
    expect(verifyHs256(key, token)).toEqual({ claims: { sub: 'x', n: 1 } });
  });
  it('rejects a wrong key or altered claims, and ignores what is not an HS256 JWT', () => {
    const token = signHs256(key, 'k1', { sub: 'x' });
    expect(verifyHs256(enc.encode('other'), token)).toEqual({ error: 'square/go-jose: error in cryptographic primitive' });
    const [h, , s] = token.split('.');
    expect(verifyHs256(key, `${h}.${base64UrlEncode(enc.encode('{"sub":"admin"}'))}.${s}`)).toHaveProperty('error');
    expect(verifyHs256(key, 'not-a-jwt')).toBeUndefined();
    expect(verifyHs256(key, `${base64UrlEncode(enc.encode('{"alg":"RS256"}'))}.e30.abc`)).toBeUndefined();
  });
});
