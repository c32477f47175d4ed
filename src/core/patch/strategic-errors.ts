// The errors of kube's strategic merge patch (k8s.io/apimachinery/pkg/util/mergepatch and
// strategicpatch) with their exact texts, and how kube-apiserver's PATCH handler answers each:
// a few well-known format errors are 400 BadRequest, lists of lists are a bare 422 Invalid, and
// everything else is an error that is not an API status, which the server writes as 500 with no
// reason (kubectl shows it as `Error from server: <message>`).
import { ApiError, badRequest } from '../meta/status';

/** How the PATCH handler turns a strategic-merge error into a response. */
export type StrategicErrorClass = 'BadRequest' | 'Unprocessable' | 'Internal';

export class StrategicPatchError extends Error {
  constructor(
    readonly errorClass: StrategicErrorClass,
    message: string,
  ) {
    super(message);
  }

  toApiError(): ApiError {
    if (this.errorClass === 'BadRequest') return badRequest(this.message);
    // NewGenericServerResponse(422, ...) drops the real message and leaves empty details.
    if (this.errorClass === 'Unprocessable') return new ApiError(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
    return new ApiError(500, '', this.message);
  }
}

// The sentinel errors the handler recognises by identity (interpretStrategicMergePatchError).
export const errBadPatchFormatForPrimitiveList = (): StrategicPatchError => new StrategicPatchError('BadRequest', 'invalid patch format of primitive list');
export const errBadPatchFormatForRetainKeys = (): StrategicPatchError => new StrategicPatchError('BadRequest', 'invalid patch format of retainKeys');
export const errBadPatchFormatForSetElementOrderList = (): StrategicPatchError =>
  new StrategicPatchError('BadRequest', 'invalid patch format of setElementOrder list');
export const errNoListOfLists = (): StrategicPatchError => new StrategicPatchError('Unprocessable', 'lists of lists are not supported');

/** Any other error: the message is what clients see (500, no reason). */
export const internalPatchError = (message: string): StrategicPatchError => new StrategicPatchError('Internal', message);

export function errNoMergeKey(m: unknown, mergeKey: string): StrategicPatchError {
  return internalPatchError(`map: ${goValue(m)} does not contain declared merge key: ${mergeKey}`);
}

/** mergepatch.ErrBadArgType: `expected a map[string]interface {}, but received a string`. */
export function errBadArgType(expected: 'map' | 'slice', actual: unknown): StrategicPatchError {
  const want = expected === 'map' ? 'map[string]interface {}' : '[]interface {}';
  const got = actual === null || actual === undefined ? '%!s(<nil>)' : goTypeName(actual);
  return internalPatchError(`expected a ${want}, but received a ${got}`);
}

/** mergepatch.ErrBadPatchType: an unknown `$patch` value. */
export function errBadPatchType(directive: unknown, m: unknown): StrategicPatchError {
  return internalPatchError(`unknown patch type: ${goString(directive)} in map: ${goValue(m)}`);
}

/** The Go type a decoded JSON value has (json.Unmarshal into interface{} with ints preserved). */
export function goTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** Go's `%s` of a decoded JSON value: strings as they are, other scalars as `%!s(type=value)`. */
function goString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '%!s(<nil>)';
  if (typeof v === 'object') return goValue(v);
  return `%!s(${goTypeName(v)}=${goValue(v)})`;
}

/** Go's `%v` of a decoded JSON value: `map[a:1 b:[x y]]`, keys sorted, `<nil>` for null. */
export function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return goNumber(v);
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[${keys.map((k) => `${k}:${goValue(o[k])}`).join(' ')}]`;
}

/** int64 prints plainly; float64 `%v` (shortest %g) switches to exponent form below 1e-4 and from 1e6 on. */
function goNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return BigInt(n).toString();
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  const exp = Math.floor(Math.log10(Math.abs(n)));
  if (exp >= -4 && exp < 6) return String(n);
  // JS writes `1.5e-7`; Go writes `1.5e-07` (at least two exponent digits).
  const [mant, e] = n.toExponential().split('e');
  const sign = e.startsWith('-') ? '-' : '+';
  const digits = e.replace(/^[+-]/, '');
  return `${mant}e${sign}${digits.length < 2 ? `0${digits}` : digits}`;
}
