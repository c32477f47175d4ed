// PersistentVolumeClaim rules (core/v1 defaults, ValidatePersistentVolumeClaim[Update], v1.23).
import { type FieldError, forbidden, invalid, key, notSupported, required, IS_NOT_POSITIVE } from './errors';
import type { KindRules } from './kind-rules';
import { validateImmutable, validateLabelSelector } from './meta';
import { isDNS1123Subdomain } from './names';
import { QUANTITY_REGEX_ERROR, compareQuantity, formatQuantity, parseQuantity } from './quantity';

type Obj = Record<string, any>;
const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce'];
const VOLUME_MODES = ['Block', 'Filesystem'];

/** SetDefaults_PersistentVolumeClaim(Spec): volumeMode Filesystem, status.phase Pending. */
export function defaultPVC(pvc: Obj): void {
  const spec: Obj = pvc.spec && typeof pvc.spec === 'object' ? pvc.spec : (pvc.spec = {});
  if (!spec.volumeMode) spec.volumeMode = 'Filesystem';
  const status: Obj = pvc.status && typeof pvc.status === 'object' ? pvc.status : (pvc.status = {});
  if (!status.phase) status.phase = 'Pending';
}

export function validatePVCSpec(spec: unknown, path: string): FieldError[] {
  const s: Obj = spec && typeof spec === 'object' ? (spec as Obj) : {};
  const errs: FieldError[] = [];
  const modes: unknown[] = Array.isArray(s.accessModes) ? s.accessModes : [];
  if (modes.length === 0) errs.push(required(`${path}.accessModes`, 'at least 1 access mode is required'));
  if (s.selector) errs.push(...validateLabelSelector(s.selector, `${path}.selector`));
  for (const m of modes) if (!ACCESS_MODES.includes(String(m))) errs.push(notSupported(`${path}.accessModes`, m, ACCESS_MODES));
  const storagePath = key(`${path}.resources`, 'storage');
  const raw = s.resources?.requests?.storage;
  if (raw === undefined || raw === null) errs.push(required(storagePath));
  else {
    const q = parseQuantity(raw);
    if (!q) errs.push(invalid(storagePath, raw, QUANTITY_REGEX_ERROR));
    else if (q.unscaled <= 0n) errs.push(invalid(storagePath, formatQuantity(q), IS_NOT_POSITIVE));
  }
  if (s.storageClassName) for (const m of isDNS1123Subdomain(String(s.storageClassName))) errs.push(invalid(`${path}.storageClassName`, s.storageClassName, m));
  if (s.volumeMode && !VOLUME_MODES.includes(s.volumeMode)) errs.push(notSupported(`${path}.volumeMode`, s.volumeMode, VOLUME_MODES));
  return errs;
}

/**
 * A Go-struct-ordered JSON of the spec, for the `spec is immutable` message, which upstream v1.23
 * follows with diff.ObjectDiff of the two specs (common prefix, then `A: ...` and `B: ...`).
 */
function specJson(s: Obj): string {
  const o: Obj = {};
  for (const f of ['accessModes', 'selector', 'resources', 'volumeName', 'storageClassName', 'volumeMode', 'dataSource', 'dataSourceRef']) {
    if (s[f] !== undefined && s[f] !== '' && s[f] !== null) o[f] = s[f];
  }
  if (!o.resources) o.resources = {};
  return JSON.stringify(o);
}

function objectDiff(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `${a.slice(0, i)}\n\nA: ${a.slice(i)}\n\nB: ${b.slice(i)}\n\n`;
}

function validatePVCUpdate(pvc: Obj, old: Obj): FieldError[] {
  const errs = validatePVCSpec(pvc.spec, 'spec');
  const spec: Obj = { ...(pvc.spec ?? {}) };
  const oldSpec: Obj = { ...(old?.spec ?? {}) };
  // volumeName may be set once (binding); storage requests may change only for bound claims.
  if (!oldSpec.volumeName) oldSpec.volumeName = spec.volumeName;
  if (pvc.status?.phase === 'Bound' && spec.resources?.requests) {
    spec.resources = { ...spec.resources, requests: { ...spec.resources.requests, storage: oldSpec.resources?.requests?.storage } };
  }
  const norm = (s: Obj) => {
    const c = { ...s };
    if (c.resources?.requests?.storage !== undefined) c.resources = { ...c.resources, requests: { ...c.resources.requests, storage: canonical(c.resources.requests.storage) } };
    return c;
  };
  const a = specJson(norm(spec));
  const b = specJson(norm(oldSpec));
  if (a !== b) {
    errs.push(forbidden('spec', `spec is immutable after creation except resources.requests for bound claims\n${objectDiff(a, b)}`));
  }
  const newSize = parseQuantity(pvc.spec?.resources?.requests?.storage);
  const oldSize = parseQuantity(old?.spec?.resources?.requests?.storage);
  if (newSize && oldSize && compareQuantity(newSize, oldSize) < 0) {
    errs.push(forbidden('spec.resources.requests.storage', 'field can not be less than previous value'));
  }
  // Upstream's path here is literally `volumeMode` (sic).
  errs.push(...validateImmutable(pvc.spec?.volumeMode, old?.spec?.volumeMode, 'volumeMode'));
  return errs;
}

function canonical(raw: unknown): unknown {
  const q = parseQuantity(raw);
  return q ? formatQuantity(q) : raw;
}

export const pvcRules: KindRules = {
  defaults: defaultPVC,
  validateCreate: (pvc) => validatePVCSpec(pvc.spec, 'spec'),
  validateUpdate: validatePVCUpdate,
};
