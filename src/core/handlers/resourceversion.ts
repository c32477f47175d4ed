// The resourceVersion query parameter of get, list and watch, read as kube-apiserver v1.23 reads
// it: APIObjectVersioner.ParseResourceVersion, i.e. strconv.ParseUint(s, 10, 64), never a float.
// Where it is parsed decides the answer to a malformed one: the etcd3 store (a list with a
// limit, resourceVersionMatch=Exact, or a continue token) wraps the error in a 400
// `invalid resource version: ...`; the watch cache (get, watch, any other list) returns it as an
// error that is no API status, which kube-apiserver answers with a 500 and no reason.
import { ApiError, badRequest, expired, timeoutError } from '../meta/status';
import { StorageError, type MvccStore } from '../storage/types';
import { goQuote } from '../codec/go-quote';
import { parseUint64 } from '../codec/go-parse-uint';

export { CONTINUE_EXPIRED_MESSAGE, decodeContinue, encodeContinue } from './continue-token';

/** How long a request for a future revision waits before 504 (kube-apiserver waits up to 3 s). */
export const FUTURE_RV_WAIT_MS = 3000;

/** Which part of kube-apiserver would parse the parameter (see the top of this file). */
export type ResourceVersionReader = 'watch cache' | 'etcd3 store';

/**
 * The resourceVersion parameter: undefined when unset or empty, else its value. Values past what a
 * number holds exactly can only name revisions far in the future, which is all the callers need;
 * messages print them with canonicalRevision.
 */
export function parseResourceVersion(text: string | null, reader: ResourceVersionReader): number | undefined {
  if (text === null || text === '') return undefined;
  // Every revision a client echoes back: up to 15 digits, exact as a number.
  if (text.length <= 15 && /^[0-9]+$/.test(text)) return Number(text);
  const parsed = parseUint64(text);
  if ('error' in parsed) {
    // storage.NewInvalidError(field.Invalid(field.NewPath("resourceVersion"), rv, err.Error())).
    const message = `resourceVersion: Invalid value: ${goQuote(text)}: ${parsed.error}`;
    if (reader === 'etcd3 store') throw badRequest(`invalid resource version: ${message}`);
    throw new ApiError(500, '', message);
  }
  return Number(parsed.value);
}

/** The revision a (valid) resourceVersion names, printed as Go prints the uint64: exactly. */
export function canonicalRevision(text: string): string {
  return BigInt(text).toString();
}

/**
 * Wait for a revision the store does not have yet; 504 "Too large resource version" after a while.
 * `requested` is the parameter's text, so the message shows the revision exactly.
 */
export async function awaitRevision(store: MvccStore, rev: number, requested?: string): Promise<void> {
  if (rev <= store.revision) return;
  try {
    await store.waitForRevision(rev, FUTURE_RV_WAIT_MS);
  } catch (err) {
    if (err instanceof StorageError && err.code === 'TooLargeRevision') {
      const shown = requested !== undefined ? canonicalRevision(requested) : String(rev);
      // client-go's reflector recognises this error by its cause.
      throw timeoutError(`Timeout: Too large resource version: ${shown}, current: ${store.revision}`, 1, [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }]);
    }
    throw err;
  }
}

export function tooOld(requested: number, compacted: number): ApiError {
  return expired(`too old resource version: ${requested} (${compacted})`);
}
