// resourceVersion parameters of get, list and watch, and continue tokens
// (k8s.io/apiserver/pkg/storage/continue.go: the idea; the token shape is the same).
import { ApiError, badRequest, expired, timeoutError } from '../server/status';
import { StorageError, type MvccStore } from '../storage/types';

/** How long a request for a future revision waits before 504 (kube-apiserver waits up to 3 s). */
export const FUTURE_RV_WAIT_MS = 3000;

export function parseResourceVersion(v: string | null): number | undefined {
  if (v === null || v === '') return undefined;
  if (!/^[0-9]+$/.test(v)) throw badRequest(`invalid resource version: ${v}`);
  return Number(v);
}

/** Wait for a revision the store does not have yet; 504 "Too large resource version" after a while. */
export async function awaitRevision(store: MvccStore, rev: number): Promise<void> {
  if (rev <= store.revision) return;
  try {
    await store.waitForRevision(rev, FUTURE_RV_WAIT_MS);
  } catch (err) {
    if (err instanceof StorageError && err.code === 'TooLargeRevision') {
      // client-go's reflector recognises this error by its cause.
      throw timeoutError(`Timeout: Too large resource version: ${rev}, current: ${store.revision}`, 1, [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }]);
    }
    throw err;
  }
}

export function tooOld(requested: number, compacted: number): ApiError {
  return expired(`too old resource version: ${requested} (${compacted})`);
}

interface ContinueToken {
  v: string;
  rv: number;
  start: string;
}

function b64urlEncode(s: string): string {
  const bytes = new TextEncoder().encode(s);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function b64urlDecode(s: string): string {
  const norm = s.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(norm + '='.repeat((4 - (norm.length % 4)) % 4));
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** `start` is the key relative to the list prefix plus "\u0000": the next key to read. */
export function encodeContinue(rev: number, lastKeyRelative: string): string {
  return b64urlEncode(JSON.stringify({ v: 'meta.k8s.io/v1', rv: rev, start: lastKeyRelative + '\u0000' }));
}

const INVALID = 'invalid continue token: continue key is not valid: ';

export function decodeContinue(token: string): { rev: number; afterRelative: string } {
  let text: string;
  try {
    text = b64urlDecode(token);
  } catch {
    const at = token.search(/[^A-Za-z0-9_-]/);
    throw badRequest(`${INVALID}illegal base64 data at input byte ${at < 0 ? token.length : at}`);
  }
  let parsed: ContinueToken;
  try {
    parsed = JSON.parse(text) as ContinueToken;
  } catch (err) {
    throw badRequest(`${INVALID}${(err as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || parsed.v !== 'meta.k8s.io/v1') {
    throw badRequest(`${INVALID}server does not recognize this encoded key`);
  }
  // rv -1 is what an expired continue answers with: continue at the latest revision.
  if (typeof parsed.rv !== 'number' || !Number.isInteger(parsed.rv) || parsed.rv === 0 || parsed.rv < -1) {
    throw badRequest(`${INVALID}incorrect encoded start resourceVersion (version meta.k8s.io/v1)`);
  }
  if (typeof parsed.start !== 'string' || parsed.start.length === 0) throw badRequest(`${INVALID}encoded start key empty (version meta.k8s.io/v1)`);
  // Keys are relative to the list prefix; anything that could walk out of it is tampering.
  const start = parsed.start.endsWith('\u0000') ? parsed.start.slice(0, -1) : parsed.start;
  if (start.startsWith('/') || start.split('/').some((seg) => seg === '..' || seg === '.')) {
    throw badRequest(`${INVALID}${parsed.start}`);
  }
  return { rev: parsed.rv, afterRelative: start };
}

export const CONTINUE_EXPIRED_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';
