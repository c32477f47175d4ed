// CertificateSigningRequest: v1.23's printer — signer, requestor (spec.username), requested
// duration (spec.expirationSeconds) and a condition summary: Denied over Approved over Pending,
// then `,Failed` and `,Issued` when those apply.
import { AGE_COLUMN, NAME_COLUMN, asArray, asRecord, column, str } from '../format';
import { age, humanDuration } from '../time';
import type { Printer } from '../types';

export const certificateSigningRequestPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    AGE_COLUMN,
    column('SignerName', 'string', 'The signer asked to sign the certificate.'),
    column('Requestor', 'string', 'The user who created the request.'),
    column('RequestedDuration', 'string', 'The certificate validity the request asks for.'),
    column('Condition', 'string', 'Approved, Denied or Pending, with Failed and Issued when they apply.'),
  ],
  print(obj, now) {
    const meta = asRecord(obj.metadata);
    const spec = asRecord(obj.spec);
    const seconds = spec.expirationSeconds;
    const requested = typeof seconds === 'number' ? humanDuration(seconds * 1000) : '<none>';
    return { cells: [str(meta.name), age(meta.creationTimestamp, now), str(spec.signerName) || '<none>', str(spec.username), requested, conditionSummary(obj)] };
  },
};

function conditionSummary(obj: Record<string, unknown>): string {
  const status = asRecord(obj.status);
  const types = new Set(asArray(status.conditions).map((c) => str(c.type)));
  let out = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) out += ',Failed';
  if (str(status.certificate)) out += ',Issued';
  return out;
}
