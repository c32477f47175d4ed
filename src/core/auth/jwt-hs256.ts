// Compact JWS with HS256: the encoding of the service-account tokens this server signs.
// Verification answers with kube's error wording so TokenReview and logs read like the real thing.
import { hmacSha256, macEqual } from './hmac';

const enc = new TextEncoder();
const dec = new TextDecoder();

export function base64UrlEncode(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function base64UrlDecode(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  try {
    const bin = atob(padded);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

/** Signs the claims (serialised in the given key order) with HS256. */
export function signHs256(key: Uint8Array, kid: string, claims: Record<string, unknown>): string {
  const signingInput = `${base64UrlEncode(enc.encode(JSON.stringify({ alg: 'HS256', kid })))}.${base64UrlEncode(enc.encode(JSON.stringify(claims)))}`;
  return `${signingInput}.${base64UrlEncode(hmacSha256(key, enc.encode(signingInput)))}`;
}

export type VerifyResult = { claims: Record<string, unknown> } | { error: string } | undefined;

/**
 * Checks the signature and returns the claims. `undefined` means "not a token of ours" (not a
 * JWT, another algorithm): kube's JWT authenticator then stays silent so other authenticators
 * may try; `error` means it is ours and is invalid.
 */
export function verifyHs256(key: Uint8Array, token: string): VerifyResult {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const header = parseJsonPart(parts[0]);
  const claims = parseJsonPart(parts[1]);
  if (!header || !claims || header.alg !== 'HS256') return undefined;
  const sig = base64UrlDecode(parts[2]);
  if (!sig || !macEqual(sig, hmacSha256(key, enc.encode(`${parts[0]}.${parts[1]}`)))) return { error: 'square/go-jose: error in cryptographic primitive' };
  return { claims };
}

function parseJsonPart(part: string): Record<string, any> | undefined {
  const bytes = base64UrlDecode(part);
  if (!bytes) return undefined;
  try {
    const v = JSON.parse(dec.decode(bytes)) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, any>) : undefined;
  } catch {
    return undefined;
  }
}
