// Validation for three kinds that had none:
// - apiregistration.k8s.io/v1 APIService (kube-aggregator v1.23 pkg/apis/apiregistration/v1
//   SetDefaults_ServiceReference; pkg/apis/apiregistration/validation ValidateAPIService[Update],
//   ValidateAPIServiceStatusUpdate);
// - certificates.k8s.io/v1 CertificateSigningRequest (api-misc-csr.ts);
// - apps/v1 ControllerRevision (pkg/apis/apps/validation ValidateControllerRevision[Update]).
// Metadata is checked by validateObjectMeta (APIService names with the path-segment rule); the
// `name must be version.group` part of APIService's name function is checked here.
import { type FieldError, child, index, invalid, notSupported, required, nonNegative, FIELD_IMMUTABLE } from './errors';
import type { KindRules } from './kind-rules';
import { decodeBase64 } from './base64';
import { isDNS1035Label, isDNS1123Subdomain, isValidPathSegmentName, isValidPortNum } from './names';
import { goBytes } from './api-misc-pem';
import { isObj, str, type Obj } from './values';

export { certificateSigningRequestRules } from './api-misc-csr';


const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

// ---------------------------------------------------------------- APIService

/** SetDefaults_ServiceReference: a service without a port uses 443. */
function apiServiceDefaults(apiService: Obj): void {
  const service = isObj(apiService?.spec) ? apiService.spec.service : undefined;
  if (isObj(service) && (service.port === undefined || service.port === null)) service.port = 443;
}

function caBundleLength(v: unknown): number {
  if (typeof v !== 'string') return 0;
  const r = decodeBase64(v);
  return r.bytes ? r.bytes.length : v.length;
}

function validateAPIService(apiService: Obj): FieldError[] {
  const spec: Obj = isObj(apiService.spec) ? apiService.spec : {};
  const group = str(spec.group);
  const version = str(spec.version);
  const errs: FieldError[] = [];

  // The rest of the name function: a valid path segment must also be `<version>.<group>`.
  const name = str(apiService.metadata?.name);
  const requiredName = `${version}.${group}`;
  if (name && isValidPathSegmentName(name).length === 0 && name !== requiredName) {
    errs.push(invalid('metadata.name', name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(requiredName)}`));
  }

  // Only the legacy core group (`v1.`) may leave the group empty.
  if (!group && version !== 'v1') errs.push(required('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
  if (group) for (const m of isDNS1123Subdomain(group)) errs.push(invalid('spec.group', group, m));
  for (const m of isDNS1035Label(version)) errs.push(invalid('spec.version', version, m));

  const gpm = num(spec.groupPriorityMinimum);
  if (gpm <= 0 || gpm > 20000) errs.push(invalid('spec.groupPriorityMinimum', gpm, 'must be positive and less than 20000'));
  const vp = num(spec.versionPriority);
  if (vp <= 0 || vp > 1000) errs.push(invalid('spec.versionPriority', vp, 'must be positive and less than 1000'));

  const caLen = caBundleLength(spec.caBundle);
  const insecure = spec.insecureSkipTLSVerify === true;
  const service = spec.service;
  if (!isObj(service)) {
    // A local APIService (served by this server) has nothing to dial.
    if (caLen !== 0) errs.push(invalid('spec.caBundle', `${caLen} bytes`, 'local APIServices may not have a caBundle'));
    if (insecure) errs.push(invalid('spec.insecureSkipTLSVerify', true, 'local APIServices may not have insecureSkipTLSVerify'));
    return errs;
  }
  if (!str(service.namespace)) errs.push(required('spec.service.namespace'));
  if (!str(service.name)) errs.push(required('spec.service.name'));
  // The internal port is an int32 defaulted to 443; a missing one (no defaults run) reads 0.
  const port = num(service.port);
  const portErrs = isValidPortNum(port);
  if (portErrs.length) errs.push(invalid('spec.service.port', port, `port is not valid: ${portErrs.join(', ')}`));
  if (insecure && caLen > 0) errs.push(invalid('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'));
  return errs;
}

/** ValidateAPIServiceStatus: each condition's status is True, False or Unknown. */
function validateAPIServiceStatus(apiService: Obj): FieldError[] {
  const conds = isObj(apiService.status) && Array.isArray(apiService.status.conditions) ? apiService.status.conditions : [];
  const errs: FieldError[] = [];
  conds.forEach((c: unknown, i: number) => {
    const status = str(isObj(c) ? c.status : undefined);
    if (!['True', 'False', 'Unknown'].includes(status)) {
      errs.push(notSupported(child(index('status.conditions', i), 'status'), status, ['True', 'False', 'Unknown']));
    }
  });
  return errs;
}

export const apiServiceRules: KindRules = {
  defaults: apiServiceDefaults,
  validateCreate: (obj) => validateAPIService(isObj(obj) ? obj : {}),
  // The status subresource validates only the status; the main resource the whole spec again.
  validateUpdate: (obj, _old, subresource = '') => {
    const o: Obj = isObj(obj) ? obj : {};
    return subresource === 'status' ? validateAPIServiceStatus(o) : validateAPIService(o);
  },
};

// ---------------------------------------------------------------- ControllerRevision

/** Go's runtime.Unknown as %#v prints it (field.Error dereferences the pointer first). */
function goUnknown(data: unknown): string {
  const raw = new TextEncoder().encode(JSON.stringify(data));
  return `runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:"", Kind:""}, Raw:${goBytes(raw, 'uint8')}, ContentEncoding:"", ContentType:"application/json"}`;
}

const hasData = (v: unknown): boolean => v !== undefined && v !== null;

function validateControllerRevision(rev: Obj): FieldError[] {
  const errs: FieldError[] = [];
  // v1's RawExtension converts to a nil runtime.Object when absent or `null`.
  if (!hasData(rev.data)) errs.push(required('data', 'data is mandatory'));
  errs.push(...nonNegative(rev.revision, 'revision'));
  return errs;
}

/**
 * data is immutable. Upstream compares the raw JSON bytes, so the comparison is on the
 * serialized value (key order counts, as it does in kube).
 */
function validateControllerRevisionUpdate(rev: Obj, old: Obj): FieldError[] {
  const errs = validateControllerRevision(rev);
  const a = hasData(rev.data) ? JSON.stringify(rev.data) : null;
  const b = hasData(old.data) ? JSON.stringify(old.data) : null;
  if (a !== b) errs.push(invalid('data', rev.data ?? null, FIELD_IMMUTABLE, hasData(rev.data) ? goUnknown(rev.data) : 'null'));
  return errs;
}

export const controllerRevisionRules: KindRules = {
  validateCreate: (obj) => validateControllerRevision(isObj(obj) ? obj : {}),
  validateUpdate: (obj, old) => validateControllerRevisionUpdate(isObj(obj) ? obj : {}, isObj(old) ? old : {}),
};
