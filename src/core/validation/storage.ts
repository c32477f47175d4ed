// PersistentVolume (core/v1) and StorageClass (storage.k8s.io) rules, v1.23: SetDefaults_
// PersistentVolume and SetDefaults_StorageClass, ValidatePersistentVolume[Update] and
// ValidateStorageClass[Update]. Of the many volume plug-ins only the sources people create by
// hand in a playground (hostPath, local, nfs, csi) get their own checks.
import { type FieldError, child, forbidden, index, invalid, notSupported, required, tooLong, IS_NOT_POSITIVE } from './errors';
import { semanticEqual } from './gofmt';
import type { KindRules } from './kind-rules';
import { utf8Length, validateImmutable } from './meta';
import { isDNS1123Subdomain, isQualifiedName } from './names';
import { canonicalQuantity, parseQuantity } from './quantity';
import { goQuantity, wholeUnits } from './resource-names';
import { isObj, isSet, type Obj } from './values';



// ---- PersistentVolume ----

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce'];
const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
const VOLUME_MODES = ['Block', 'Filesystem'];
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

/**
 * The PersistentVolumeSource members in the order upstream checks them, with the path it names
 * when a second one is set (upstream spells cephfs's as `cephFS`).
 */
const SOURCES: [string, string][] = [
  ['hostPath', 'hostPath'], ['gcePersistentDisk', 'gcePersistentDisk'], ['awsElasticBlockStore', 'awsElasticBlockStore'],
  ['glusterfs', 'glusterfs'], ['flocker', 'flocker'], ['nfs', 'nfs'], ['rbd', 'rbd'], ['quobyte', 'quobyte'],
  ['cephfs', 'cephFS'], ['iscsi', 'iscsi'], ['cinder', 'cinder'], ['fc', 'fc'], ['flexVolume', 'flexVolume'],
  ['azureFile', 'azureFile'], ['vsphereVolume', 'vsphereVolume'], ['photonPersistentDisk', 'photonPersistentDisk'],
  ['portworxVolume', 'portworxVolume'], ['azureDisk', 'azureDisk'], ['scaleIO', 'scaleIO'], ['local', 'local'],
  ['storageos', 'storageos'], ['csi', 'csi'],
];

/** SetDefaults_PersistentVolume (+ SetDefaults_HostPathVolumeSource). */
function defaultPV(pv: Obj): void {
  const spec: Obj = isObj(pv.spec) ? pv.spec : (pv.spec = {});
  if (!spec.persistentVolumeReclaimPolicy) spec.persistentVolumeReclaimPolicy = 'Retain';
  if (!isSet(spec.volumeMode)) spec.volumeMode = 'Filesystem';
  if (isObj(spec.hostPath) && spec.hostPath.type === undefined) spec.hostPath.type = '';
  const status: Obj = isObj(pv.status) ? pv.status : (pv.status = {});
  if (!status.phase) status.phase = 'Pending';
}

/** Go's path.Clean, enough to tell whether a path is the root. */
function cleanPath(p: string): string {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!p.startsWith('/')) out.push('..');
    } else out.push(part);
  }
  const joined = out.join('/');
  return p.startsWith('/') ? `/${joined}` : joined || '.';
}

function noBacksteps(p: string, path: string): FieldError[] {
  return p.split('/').includes('..') ? [invalid(path, p, "must not contain '..'")] : [];
}

function validateHostPath(src: Obj, path: string): FieldError[] {
  if (!src.path) return [required(child(path, 'path'))];
  const errs = noBacksteps(String(src.path), child(path, 'path'));
  if (isSet(src.type) && !HOST_PATH_TYPES.includes(String(src.type))) errs.push(notSupported(child(path, 'type'), src.type, HOST_PATH_TYPES));
  return errs;
}

function validateLocal(src: Obj, path: string): FieldError[] {
  if (!src.path) return [required(child(path, 'path'))];
  return noBacksteps(String(src.path), child(path, 'path'));
}

function validateNFS(src: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!src.server) errs.push(required(child(path, 'server')));
  if (!src.path) errs.push(required(child(path, 'path')));
  if (!String(src.path ?? '').startsWith('/')) errs.push(invalid(child(path, 'path'), src.path ?? '', 'must be an absolute path'));
  return errs;
}

/** ValidateCSIDriverName and the volume handle; secret references are not checked. */
function validateCSI(src: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const driver = String(src.driver ?? '');
  const dp = child(path, 'driver');
  if (!driver) errs.push(required(dp));
  if (driver.length > 63) errs.push(tooLong(dp, 63));
  for (const m of isDNS1123Subdomain(driver.toLowerCase())) errs.push(invalid(dp, driver, m));
  if (!src.volumeHandle) errs.push(required(child(path, 'volumeHandle')));
  return errs;
}

const SOURCE_CHECKS: Record<string, (src: Obj, path: string) => FieldError[]> = {
  hostPath: validateHostPath,
  local: validateLocal,
  nfs: validateNFS,
  csi: validateCSI,
};

/** validateVolumeNodeAffinity + ValidateNodeSelector's match expressions (matchFields not checked). */
function validateNodeAffinity(na: Obj, path: string): FieldError[] {
  if (!isObj(na.required)) return [required(child(path, 'required'), 'must specify required node constraints')];
  const tp = child(path, 'required', 'nodeSelectorTerms');
  const terms: unknown[] = Array.isArray(na.required.nodeSelectorTerms) ? na.required.nodeSelectorTerms : [];
  if (terms.length === 0) return [required(tp, 'must have at least one node selector term')];
  const errs: FieldError[] = [];
  terms.forEach((t, i) => {
    const exprs: unknown[] = isObj(t) && Array.isArray(t.matchExpressions) ? t.matchExpressions : [];
    exprs.forEach((e, j) => {
      const r: Obj = isObj(e) ? e : {};
      const rp = index(child(index(tp, i), 'matchExpressions'), j);
      const n = Array.isArray(r.values) ? r.values.length : 0;
      const op = String(r.operator ?? '');
      if (op === 'In' || op === 'NotIn') {
        if (n === 0) errs.push(required(child(rp, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      } else if (op === 'Exists' || op === 'DoesNotExist') {
        if (n > 0) errs.push(forbidden(child(rp, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      } else if (op === 'Gt' || op === 'Lt') {
        if (n !== 1) errs.push(required(child(rp, 'values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      } else errs.push(invalid(child(rp, 'operator'), op, 'not a valid selector operator'));
      for (const m of isQualifiedName(String(r.key ?? ''))) errs.push(invalid(child(rp, 'key'), String(r.key ?? ''), m));
    });
  });
  return errs;
}

/** core.ResourceList as %#v prints it (keys sorted, quantities as structs). */
function goResourceList(m: unknown): string {
  if (!isObj(m)) return 'core.ResourceList(nil)';
  return `core.ResourceList{${Object.keys(m).sort().map((k) => `${JSON.stringify(k)}:${goQuantity(m[k])}`).join(', ')}}`;
}

function validateCapacity(capacity: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const keys = isObj(capacity) ? Object.keys(capacity).sort() : [];
  if (keys.length === 0) errs.push(required('spec.capacity'));
  if (!keys.includes('storage') || keys.length > 1) errs.push(notSupported('spec.capacity', capacity ?? null, ['storage'], goResourceList(capacity)));
  for (const k of keys) {
    const q = parseQuantity((capacity as Obj)[k]);
    if (!q) continue;
    const p = `spec.capacity[${k}]`;
    // validateBasicResource prints Value(), an int64; the positive check prints the quantity.
    if (q.unscaled < 0n) errs.push(invalid(p, Number(wholeUnits(q)), 'must be a valid resource quantity'));
    if (q.unscaled <= 0n) errs.push(invalid(p, canonicalQuantity((capacity as Obj)[k]), IS_NOT_POSITIVE));
  }
  return errs;
}

function validatePVSpec(pv: Obj): FieldError[] {
  const spec: Obj = isObj(pv.spec) ? pv.spec : {};
  const errs: FieldError[] = [];
  const modes: unknown[] = Array.isArray(spec.accessModes) ? spec.accessModes : [];
  if (modes.length === 0) errs.push(required('spec.accessModes'));
  // ReadWriteOncePod is alpha (off) in v1.23: unsupported, and never mixed with the others.
  for (const m of modes) if (!ACCESS_MODES.includes(String(m))) errs.push(notSupported('spec.accessModes', m, ACCESS_MODES));
  if (modes.includes('ReadWriteOncePod') && modes.some((m) => ACCESS_MODES.includes(String(m)))) {
    errs.push(forbidden('spec.accessModes', 'may not use ReadWriteOncePod with other access modes'));
  }
  errs.push(...validateCapacity(spec.capacity));
  const policy = spec.persistentVolumeReclaimPolicy;
  if (policy && !RECLAIM_POLICIES.includes(String(policy))) errs.push(notSupported('spec.persistentVolumeReclaimPolicy', policy, RECLAIM_POLICIES));
  const hasAffinity = isObj(spec.nodeAffinity);
  if (hasAffinity) errs.push(...validateNodeAffinity(spec.nodeAffinity, 'spec.nodeAffinity'));
  let sources = 0;
  for (const [field, name] of SOURCES) {
    if (!isSet(spec[field])) continue;
    // flexVolume is counted but never refused as a second source (upstream's own quirk).
    if (sources > 0 && field !== 'flexVolume') {
      errs.push(forbidden(`spec.${name}`, 'may not specify more than 1 volume type'));
      continue;
    }
    sources++;
    const src: Obj = isObj(spec[field]) ? spec[field] : {};
    errs.push(...(SOURCE_CHECKS[field]?.(src, `spec.${field}`) ?? []));
    if (field === 'local' && !hasAffinity) errs.push(required('spec.nodeAffinity', 'Local volume requires node affinity'));
  }
  if (sources === 0) errs.push(required('spec', 'must specify a volume type'));
  if (isObj(spec.hostPath) && spec.hostPath.path && cleanPath(String(spec.hostPath.path)) === '/' && policy === 'Recycle') {
    errs.push(forbidden('spec.persistentVolumeReclaimPolicy', "may not be 'recycle' for a hostPath mount of '/'"));
  }
  if (spec.storageClassName) for (const m of isDNS1123Subdomain(String(spec.storageClassName))) errs.push(invalid('spec.storageClassName', spec.storageClassName, m));
  if (isSet(spec.volumeMode) && !VOLUME_MODES.includes(String(spec.volumeMode))) errs.push(notSupported('spec.volumeMode', spec.volumeMode, VOLUME_MODES));
  return errs;
}

function sourceOf(spec: Obj): Obj {
  const out: Obj = {};
  for (const [field] of SOURCES) if (isSet(spec[field])) out[field] = spec[field];
  return out;
}

function validatePVUpdate(pv: Obj, old: Obj, subresource = ''): FieldError[] {
  // Status writes keep the spec; upstream checks only metadata there.
  if (subresource === 'status') return [];
  // Upstream's strategy validates the new object twice (the update check repeats it); the
  // duplicates collapse in the message, so each error is reported once here.
  const errs = validatePVSpec(pv);
  const spec: Obj = isObj(pv.spec) ? pv.spec : {};
  const oldSpec: Obj = isObj(old?.spec) ? old.spec : {};
  const source = sourceOf(spec);
  // A CSI volume may gain a controllerExpandSecretRef after creation.
  if (isObj(oldSpec.csi) && !isSet(oldSpec.csi.controllerExpandSecretRef) && isObj(source.csi) && isSet(source.csi.controllerExpandSecretRef)) {
    source.csi = { ...source.csi };
    delete source.csi.controllerExpandSecretRef;
  }
  if (!semanticEqual(source, sourceOf(oldSpec))) errs.push(forbidden('spec.persistentvolumesource', 'is immutable after creation'));
  // Upstream's paths here are literally `volumeMode` and `nodeAffinity` (no `spec.`).
  errs.push(...validateImmutable(spec.volumeMode, oldSpec.volumeMode, 'volumeMode'));
  if (isSet(oldSpec.nodeAffinity)) errs.push(...validateImmutable(spec.nodeAffinity, oldSpec.nodeAffinity, 'nodeAffinity'));
  return errs;
}

export const persistentVolumeRules: KindRules = {
  defaults: defaultPV,
  validateCreate: validatePVSpec,
  validateUpdate: validatePVUpdate,
};

// ---- StorageClass ----

const SC_RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];
const MAX_PARAMETERS = 512;
const MAX_PARAMETERS_SIZE = 256 * 1024;

/** SetDefaults_StorageClass (v1 and v1beta1): reclaimPolicy Delete, volumeBindingMode Immediate. */
function defaultStorageClass(sc: Obj): void {
  if (!isSet(sc.reclaimPolicy)) sc.reclaimPolicy = 'Delete';
  if (!isSet(sc.volumeBindingMode)) sc.volumeBindingMode = 'Immediate';
}

function validateParameters(params: unknown): FieldError[] {
  if (!isObj(params)) return [];
  const entries = Object.entries(params);
  if (entries.length > MAX_PARAMETERS) return [tooLong('parameters', MAX_PARAMETERS)];
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of entries) {
    if (k.length < 1) errs.push(invalid('parameters', k, 'field can not be empty.'));
    // Go's len() counts bytes.
    size += utf8Length(k) + utf8Length(String(v ?? ''));
  }
  if (size > MAX_PARAMETERS_SIZE) errs.push(tooLong('parameters', MAX_PARAMETERS_SIZE));
  return errs;
}

function validateStorageClass(sc: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const provisioner = String(sc.provisioner ?? '');
  if (!provisioner) errs.push(required('provisioner'));
  else for (const m of isQualifiedName(provisioner.toLowerCase())) errs.push(invalid('provisioner', provisioner, m));
  errs.push(...validateParameters(sc.parameters));
  if (sc.reclaimPolicy && !SC_RECLAIM_POLICIES.includes(String(sc.reclaimPolicy))) errs.push(notSupported('reclaimPolicy', sc.reclaimPolicy, SC_RECLAIM_POLICIES));
  if (!isSet(sc.volumeBindingMode)) errs.push(required('volumeBindingMode'));
  else if (!BINDING_MODES.includes(String(sc.volumeBindingMode))) errs.push(notSupported('volumeBindingMode', sc.volumeBindingMode, BINDING_MODES));
  return errs;
}

function validateStorageClassUpdate(sc: Obj, old: Obj): FieldError[] {
  const errs = validateStorageClass(sc);
  // reflect.DeepEqual upstream; an absent and an empty map are taken as equal here, since a
  // stored empty map reads back absent in kube (omitempty) and a patch would otherwise trip on it.
  if (!semanticEqual(sc.parameters, old?.parameters)) errs.push(forbidden('parameters', 'updates to parameters are forbidden.'));
  if (String(sc.provisioner ?? '') !== String(old?.provisioner ?? '')) errs.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (String(sc.reclaimPolicy ?? '') !== String(old?.reclaimPolicy ?? '')) errs.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  errs.push(...validateImmutable(sc.volumeBindingMode, old?.volumeBindingMode, 'volumeBindingMode'));
  return errs;
}

export const storageClassRules: KindRules = {
  defaults: defaultStorageClass,
  validateCreate: validateStorageClass,
  validateUpdate: validateStorageClassUpdate,
};
