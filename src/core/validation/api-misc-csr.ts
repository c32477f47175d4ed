// certificates.k8s.io/v1 CertificateSigningRequest (v1.23: pkg/apis/certificates/v1 defaults,
// pkg/registry/certificates/certificates strategy PrepareForUpdate, pkg/apis/certificates/validation
// ValidateCertificateSigningRequest{Create,Update,StatusUpdate,ApprovalUpdate}). Only the v1 API is
// served, so the v1beta1 leniencies are off; the "already present in the old object" ones are kept.
// Left out: the CSR's inner ASN.1 structure and its signature (x509.ParseCertificateRequest +
// CheckSignature), and x509 parsing of status.certificate (only its PEM framing is checked).
import { type FieldError, child, duplicate, forbidden, index, invalid, notSupported, required, tooLong } from './errors';
import type { KindRules } from './kind-rules';
import { semanticEqual } from './gofmt';
import { utf8Length } from './meta';
import { DNS1123_LABEL_MAX, DNS1123_SUBDOMAIN_MAX, isDNS1123Label, isDNS1123Subdomain } from './names';
import { decodeBase64 } from './base64';
import { bytesToLatin1, checkOuterSequence, goBytes, pemDecode } from './api-misc-pem';
import { isObj, str, type Obj } from './values';



export const LEGACY_UNKNOWN_SIGNER_NAME = 'kubernetes.io/legacy-unknown';

/** allValidUsages.List(): sorted. */
export const KNOWN_USAGES = [
  'signing', 'digital signature', 'content commitment', 'key encipherment', 'key agreement', 'data encipherment',
  'cert sign', 'crl sign', 'encipher only', 'decipher only', 'any', 'server auth', 'client auth', 'code signing',
  'email protection', 's/mime', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'timestamping', 'ocsp signing',
  'microsoft sgc', 'netscape sgc',
].sort();

const APPROVED = 'Approved';
const DENIED = 'Denied';
const FAILED = 'Failed';
/** Condition types whose status may only be True. */
const TRUE_CONDITION_TYPES = [APPROVED, DENIED, FAILED];
const ALL_STATUS_VALUES = ['True', 'False', 'Unknown'];

/** A []byte field (base64 in JSON) as bytes; null when absent (Go's nil). Bad base64 is a decode error upstream. */
function bytesOf(v: unknown): Uint8Array | null {
  if (typeof v !== 'string') return null;
  return decodeBase64(v).bytes ?? new Uint8Array(0);
}

function conditionsOf(csr: unknown): unknown[] {
  const c = isObj(csr) && isObj(csr.status) ? csr.status.conditions : undefined;
  return Array.isArray(c) ? c : [];
}

/** certificates.ParseCSR followed by the (partial) x509 parse; '' when it passes. */
function csrRequestError(request: Uint8Array | null): string {
  const { block } = pemDecode(bytesToLatin1(request ?? new Uint8Array(0)));
  if (!block || block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  return checkOuterSequence(block.bytes, 'certificateRequest');
}

/** validateCertificate (status.certificate): PEM framing of each block; '' when it passes. */
function certificateError(data: Uint8Array | null): string {
  if (!data || data.length === 0) return '';
  let rest = bytesToLatin1(data);
  let blocks = 0;
  for (;;) {
    const d = pemDecode(rest);
    if (!d.block) break;
    if (d.block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(d.block.type)}`;
    if (Object.keys(d.block.headers).length !== 0) return 'no PEM block headers are permitted';
    blocks++;
    // x509.ParseCertificates(block.Bytes): only the outer structure is checked here.
    const err = checkOuterSequence(d.block.bytes, 'certificate');
    if (err) return err;
    if (d.block.bytes.length === 0) return 'found CERTIFICATE PEM block containing 0 certificates';
    rest = d.rest;
  }
  return blocks === 0 ? 'must contain at least one CERTIFICATE PEM block' : '';
}

/** ValidateSignerName: `<fqdn>/<path>`, at most 571 bytes. */
export function validateSignerName(path: string, signerName: string): FieldError[] {
  if (!signerName) return [required(path)];
  const segments = signerName.split('/');
  if (segments.length !== 2) return [invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const [domain, rest] = segments as [string, string];
  const errs: FieldError[] = [];
  if (utf8Length(domain) > DNS1123_SUBDOMAIN_MAX) errs.push(tooLong(path, DNS1123_SUBDOMAIN_MAX));
  const domainLabels = domain.split('.');
  for (const lbl of domainLabels) {
    const msgs = isDNS1123Label(lbl);
    if (msgs.length === 0) continue;
    for (const m of msgs) errs.push(invalid(path, domain, `validating label ${JSON.stringify(lbl)}: ${m}`));
    break;
  }
  if (domainLabels.length < 2) errs.push(invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  for (const lbl of rest.split('.')) {
    const msgs = isDNS1123Subdomain(lbl);
    if (msgs.length === 0) continue;
    for (const m of msgs) errs.push(invalid(path, rest, `validating component ${JSON.stringify(lbl)}: ${m}`));
    break;
  }
  const maxSignerNameLength = DNS1123_SUBDOMAIN_MAX + (DNS1123_SUBDOMAIN_MAX + DNS1123_LABEL_MAX + 1) + 1;
  if (utf8Length(signerName) > maxSignerNameLength) errs.push(tooLong(path, maxSignerNameLength));
  return errs;
}

interface Options {
  allowSettingApprovalConditions?: boolean;
  allowSettingCertificate?: boolean;
  allowBothApprovedAndDenied: boolean;
  allowLegacySignerName: boolean;
  allowDuplicateConditionTypes: boolean;
  allowEmptyConditionType: boolean;
  allowArbitraryCertificate: boolean;
  allowDuplicateUsages: boolean;
  allowUnknownUsages: boolean;
}

function hasDuplicates(values: unknown[]): boolean {
  const seen = new Set<string>();
  for (const v of values) {
    const k = JSON.stringify(v ?? null);
    if (seen.has(k)) return true;
    seen.add(k);
  }
  return false;
}

/** getValidationOptions for the v1 API: a leniency applies only when the old object already had the problem. */
function optionsFor(old: Obj | null): Options {
  const oldUsages = old && isObj(old.spec) && Array.isArray(old.spec.usages) ? (old.spec.usages as unknown[]) : [];
  const oldConds = old ? conditionsOf(old).map((c) => (isObj(c) ? c : {})) : [];
  const types = oldConds.map((c) => str(c.type));
  return {
    allowBothApprovedAndDenied: types.includes(APPROVED) && types.includes(DENIED),
    allowLegacySignerName: !!old && str(old.spec?.signerName) === LEGACY_UNKNOWN_SIGNER_NAME,
    allowDuplicateConditionTypes: hasDuplicates(types),
    allowEmptyConditionType: types.includes(''),
    allowArbitraryCertificate: !!old && certificateError(bytesOf(old.status?.certificate)) !== '',
    allowDuplicateUsages: hasDuplicates(oldUsages),
    allowUnknownUsages: oldUsages.some((u) => !KNOWN_USAGES.includes(str(u))),
  };
}

function validateConditions(csr: Obj, opts: Options): FieldError[] {
  const path = 'status.conditions';
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let hasApproved = false;
  let hasDenied = false;
  conditionsOf(csr).forEach((raw, i) => {
    const c: Obj = isObj(raw) ? raw : {};
    const type = str(c.type);
    const status = str(c.status);
    const p = index(path, i);
    if (!opts.allowEmptyConditionType && !type) errs.push(required(child(p, 'type')));
    const allowed = TRUE_CONDITION_TYPES.includes(type) ? ['True'] : ALL_STATUS_VALUES;
    // Upstream v1.23 lists the true-only condition types as the supported values here.
    if (!status) errs.push(required(child(p, 'status')));
    else if (!allowed.includes(status)) errs.push(notSupported(child(p, 'status'), status, [...TRUE_CONDITION_TYPES].sort()));
    if (!opts.allowBothApprovedAndDenied) {
      if (type === APPROVED) {
        hasApproved = true;
        if (hasDenied) errs.push(invalid(child(p, 'type'), type, 'Approved and Denied conditions are mutually exclusive'));
      } else if (type === DENIED) {
        hasDenied = true;
        if (hasApproved) errs.push(invalid(child(p, 'type'), type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (!opts.allowDuplicateConditionTypes) {
      if (seen.has(type)) errs.push(duplicate(child(p, 'type'), type));
      seen.add(type);
    }
  });
  return errs;
}

function validateCSR(csr: Obj, opts: Options): FieldError[] {
  const spec: Obj = isObj(csr.spec) ? csr.spec : {};
  const errs: FieldError[] = [];
  const request = bytesOf(spec.request);
  const reqErr = csrRequestError(request);
  if (reqErr) errs.push(invalid('spec.request', spec.request ?? null, reqErr, goBytes(request)));
  const usages: unknown[] = Array.isArray(spec.usages) ? spec.usages : [];
  if (usages.length === 0) errs.push(required('spec.usages'));
  if (!opts.allowUnknownUsages) {
    usages.forEach((u, i) => {
      if (!KNOWN_USAGES.includes(str(u))) errs.push(notSupported(index('spec.usages', i), u ?? '', KNOWN_USAGES));
    });
  }
  if (!opts.allowDuplicateUsages) {
    const seen = new Set<string>();
    usages.forEach((u, i) => {
      const k = str(u);
      if (seen.has(k)) errs.push(duplicate(index('spec.usages', i), u ?? ''));
      seen.add(k);
    });
  }
  const signerName = str(spec.signerName);
  if (!opts.allowLegacySignerName && signerName === LEGACY_UNKNOWN_SIGNER_NAME) {
    errs.push(invalid('spec.signerName', signerName, 'the legacy signerName is not allowed via this API version'));
  } else errs.push(...validateSignerName('spec.signerName', signerName));
  const exp = spec.expirationSeconds;
  if (typeof exp === 'number' && exp < 600) errs.push(invalid('spec.expirationSeconds', exp, 'may not specify a duration less than 600 seconds (10 minutes)'));
  errs.push(...validateConditions(csr, opts));
  if (!opts.allowArbitraryCertificate) {
    const certErr = certificateError(bytesOf(csr.status?.certificate));
    if (certErr) errs.push(invalid('status.certificate', '<certificate data>', certErr));
  }
  return errs;
}

/** json.Marshal of the internal condition slice (nil → null; zero times marshal as null). */
function marshalConditions(conds: Obj[]): string {
  if (conds.length === 0) return 'null';
  const one = (c: Obj) => {
    const parts = [`"type":${JSON.stringify(str(c.type))}`, `"status":${JSON.stringify(str(c.status))}`];
    if (str(c.reason)) parts.push(`"reason":${JSON.stringify(c.reason)}`);
    if (str(c.message)) parts.push(`"message":${JSON.stringify(c.message)}`);
    parts.push(`"lastUpdateTime":${c.lastUpdateTime ? JSON.stringify(c.lastUpdateTime) : 'null'}`);
    parts.push(`"lastTransitionTime":${c.lastTransitionTime ? JSON.stringify(c.lastTransitionTime) : 'null'}`);
    return `{${parts.join(',')}}`;
  };
  return `[${conds.map(one).join(',')}]`;
}

/** diff.ObjectDiff: common prefix, then `A: ` / `B: ` remainders. */
function objectDiff(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `${a.slice(0, i)}\n\nA: ${a.slice(i)}\n\nB: ${b.slice(i)}\n\n`;
}

function findConditions(csr: Obj, type: string): Obj[] {
  return conditionsOf(csr).filter((c): c is Obj => isObj(c) && str(c.type) === type);
}

function validateCSRUpdate(csr: Obj, old: Obj, opts: Options): FieldError[] {
  const errs = validateCSR(csr, opts);
  for (const t of [APPROVED, DENIED, FAILED]) {
    if (findConditions(csr, t).length < findConditions(old, t).length) errs.push(forbidden('status.conditions', `updates may not remove a condition of type ${JSON.stringify(t)}`));
  }
  if (!opts.allowSettingApprovalConditions) {
    for (const t of [APPROVED, DENIED]) {
      const oldConds = findConditions(old, t);
      const newConds = findConditions(csr, t);
      if (newConds.length < oldConds.length) continue;
      if (newConds.length > oldConds.length) errs.push(forbidden('status.conditions', `updates may not add a condition of type ${JSON.stringify(t)}`));
      else if (!semanticEqual(oldConds, newConds)) {
        const d = objectDiff(marshalConditions(oldConds), marshalConditions(newConds));
        errs.push(forbidden('status.conditions', `updates may not modify a condition of type ${JSON.stringify(t)}\n${d}`));
      }
    }
  }
  const newCert = bytesOf(csr.status?.certificate) ?? new Uint8Array(0);
  const oldCert = bytesOf(old.status?.certificate) ?? new Uint8Array(0);
  const same = newCert.length === oldCert.length && newCert.every((b, i) => b === oldCert[i]);
  if (!same) {
    if (!opts.allowSettingCertificate) errs.push(forbidden('status.certificate', 'updates may not set certificate content'));
    // allowResettingCertificate is a v1beta1-only leniency.
    else if (oldCert.length > 0) errs.push(forbidden('status.certificate', 'updates may not modify existing certificate content'));
  }
  return errs;
}

/** SetDefaults_CertificateSigningRequestCondition: a condition without a status is True. */
function defaults(csr: unknown): void {
  for (const c of conditionsOf(csr)) if (isObj(c) && !str(c.status)) c.status = 'True';
}

/** csrStrategy.PrepareForUpdate (main resource): spec cannot change through an update; status is reset by the store. */
function prepareForUpdate(csr: Obj, old: Obj): void {
  if (!isObj(old)) return;
  if (old.spec === undefined) delete csr.spec;
  else csr.spec = JSON.parse(JSON.stringify(old.spec));
}

function validateCreate(csr: Obj): FieldError[] {
  return validateCSR(isObj(csr) ? csr : {}, optionsFor(null));
}

/** `subresource`: '' (main), 'status' (may set status.certificate) or 'approval' (may set Approved/Denied). */
function validateUpdate(csr: Obj, old: Obj, subresource = ''): FieldError[] {
  const n: Obj = isObj(csr) ? csr : {};
  const o: Obj = isObj(old) ? old : {};
  const opts = optionsFor(o);
  if (subresource === 'status') opts.allowSettingCertificate = true;
  if (subresource === 'approval') opts.allowSettingApprovalConditions = true;
  return validateCSRUpdate(n, o, opts);
}

export const certificateSigningRequestRules: KindRules = { defaults, prepareForUpdate, validateCreate, validateUpdate };
