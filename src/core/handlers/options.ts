// Query options shared by the write verbs.
import { ApiError, invalid } from '../meta/status';
import { managerFromUserAgent } from '../fieldmanager';
import { goQuote } from '../codec/go-quote';
import type { FieldOwner } from '../registry/managed-fields';

/**
 * `dryRun=All` → true, no dryRun → false. Any other value, an empty one included (a bare
 * `?dryRun` reads as `[""]`), is refused as kube-apiserver v1.23 refuses it: ValidateDryRun's
 * NotSupported error in a 422 Invalid on the verb's options kind (`CreateOptions.meta.k8s.io ""
 * is invalid: dryRun: Unsupported value: ...`).
 */
export function parseDryRun(values: string[], optionsKind = 'CreateOptions'): boolean {
  if (values.length === 0) return false;
  if (values.every((v) => v === 'All')) return true;
  throw invalid('meta.k8s.io', optionsKind, '', [{ type: 'FieldValueNotSupported', field: 'dryRun', value: values, valueText: goStringSlice(values), supported: ['All'] }]);
}

/** A []string as Go's %#v prints it: `[]string{"a", "b"}` (strconv.Quote for each). */
function goStringSlice(values: string[]): string {
  return `[]string{${values.map(goQuote).join(', ')}}`;
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
