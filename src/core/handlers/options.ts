// Query options shared by the write verbs.
import { badRequest } from '../server/status';

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
