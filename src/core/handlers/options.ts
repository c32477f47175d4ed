// Query options shared by the write verbs.
import { ApiError, badRequest } from '../server/status';
import { managerFromUserAgent } from '../fieldmanager';
import type { FieldOwner } from '../registry/managed-fields';

/**
 * `dryRun=All` (or a bare `?dryRun`) → true; any other value is refused with kube-apiserver's
 * wording (`CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ...`).
 */
export function parseDryRun(values: string[], optionsKind = 'CreateOptions'): boolean {
  if (values.length === 0) return false;
  if (values.every((v) => v === 'All' || v === '')) return true;
  const list = `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
  throw badRequest(`${optionsKind}.meta.k8s.io "" is invalid: dryRun: Unsupported value: ${list}: supported values: "All"`);
}

/**
 * The manager a write is recorded under: `fieldManager`, or (when unset) the User-Agent up to its
 * first '/', as kube-apiserver derives it. `fieldManager` is at most 128 characters.
 */
export function fieldOwner(query: URLSearchParams, userAgent: string | undefined, optionsKind: string): FieldOwner {
  const fm = query.get('fieldManager');
  if (fm !== null && fm !== '') {
    if (fm.length > 128) throw badRequestInvalid(optionsKind, 'fieldManager: Too long: must have at most 128 bytes', 'FieldValueTooLong');
    if (/[^\x20-\x7e]/.test(fm)) throw badRequestInvalid(optionsKind, `fieldManager: Invalid value: ${JSON.stringify(fm)}: must only contain printable characters`);
    return { manager: fm };
  }
  return { manager: managerFromUserAgent(userAgent) };
}

/** `<Options>.meta.k8s.io "" is invalid: ...` as a 422, the way kube rejects bad write options. */
export function badRequestInvalid(optionsKind: string, detail: string, reason = 'FieldValueInvalid'): ApiError {
  const [field, ...rest] = detail.split(': ');
  return new ApiError(422, 'Invalid', `${optionsKind}.meta.k8s.io "" is invalid: ${detail}`, {
    group: 'meta.k8s.io',
    kind: optionsKind,
    causes: [{ reason, message: rest.join(': '), field }],
  });
}
