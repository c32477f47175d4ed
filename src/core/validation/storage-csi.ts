// storage.k8s.io CSI kinds, v1.23 (pkg/apis/storage/validation, pkg/apis/storage/v1 defaults and
// the registry strategies): CSIDriver, CSINode, VolumeAttachment (v1) and CSIStorageCapacity
// (v1beta1). Each strategy validates the new object in full on update and then adds the
// immutability checks; where upstream reports the same error twice, kube's aggregated message
// shows it once, and so it is reported once here.
import { type FieldError, child, duplicate, forbidden, index, invalid, notSupported, required, tooLong, nonNegative, IS_NEGATIVE, FIELD_IMMUTABLE } from './errors';
import { goLabelSelector, goStringSlice, semanticEqual } from './gofmt';
import type { KindRules } from './kind-rules';
import { utf8Length, validateImmutable, validateLabelSelector } from './meta';
import { isDNS1123Subdomain, isQualifiedName } from './names';
import { canonicalQuantity, isNegative, parseQuantity } from './quantity';
import { isObj, isSet, type Obj } from './values';


const str = (v: unknown): string => (typeof v === 'string' ? v : isSet(v) ? String(v) : '');
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (isObj(x) ? x : {})) : []);
const q = (s: string): string => JSON.stringify(s);

/** Drop errors whose message repeats an earlier one (ErrorList.ToAggregate does the same). */
function uniq(errs: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errs.filter((e) => {
    const k = JSON.stringify([e.type, e.field, e.valueText ?? e.value ?? null, e.detail ?? '', e.supported ?? []]);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * corevalidation.ValidateCSIDriverName (v1.23): required, at most 63 bytes, and a DNS-1123
 * subdomain once lower-cased (the older csiDriverNameRexp check is no longer used).
 */
export function validateCSIDriverName(name: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!name) errs.push(required(path));
  if (utf8Length(name) > 63) errs.push(tooLong(path, 63));
  for (const m of isDNS1123Subdomain(name.toLowerCase())) errs.push(invalid(path, name, m));
  return errs;
}

// ---- CSIDriver ----

const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Persistent', 'Ephemeral'];
const MIN_TOKEN_SECONDS = 600;
const MAX_TOKEN_SECONDS = 2 ** 32;

/** SetDefaults_CSIDriver (storage/v1); every gate it consults is on in 1.23. */
function defaultCSIDriver(d: Obj): void {
  const spec: Obj = isObj(d.spec) ? d.spec : (d.spec = {});
  if (!isSet(spec.attachRequired)) spec.attachRequired = true;
  if (!isSet(spec.podInfoOnMount)) spec.podInfoOnMount = false;
  if (!isSet(spec.storageCapacity)) spec.storageCapacity = false;
  if (!isSet(spec.fsGroupPolicy)) spec.fsGroupPolicy = 'ReadWriteOnceWithFSType';
  if (!Array.isArray(spec.volumeLifecycleModes) || spec.volumeLifecycleModes.length === 0) spec.volumeLifecycleModes = ['Persistent'];
  if (!isSet(spec.requiresRepublish)) spec.requiresRepublish = false;
}

function validateTokenRequests(requests: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const audiences = new Set<string>();
  list(requests).forEach((r, i) => {
    const ip = index(path, i);
    const audience = str(r.audience);
    if (audiences.has(audience)) {
      errs.push(duplicate(child(ip, 'audience'), audience));
      return;
    }
    audiences.add(audience);
    const secs = r.expirationSeconds;
    if (typeof secs !== 'number') return;
    const sp = child(ip, 'expirationSeconds');
    if (secs < MIN_TOKEN_SECONDS) errs.push(invalid(sp, secs, 'may not specify a duration less than 10 minutes'));
    if (secs > MAX_TOKEN_SECONDS) errs.push(invalid(sp, secs, 'may not specify a duration larger than 2^32 seconds'));
  });
  return errs;
}

function validateCSIDriverSpec(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  // Upstream's path really is `attachedRequired`.
  if (!isSet(spec.attachRequired)) errs.push(required('spec.attachedRequired'));
  if (!isSet(spec.podInfoOnMount)) errs.push(required('spec.podInfoOnMount'));
  if (!isSet(spec.storageCapacity)) errs.push(required('spec.storageCapacity'));
  if (isSet(spec.fsGroupPolicy) && !FS_GROUP_POLICIES.includes(str(spec.fsGroupPolicy))) {
    errs.push(notSupported('spec.fsGroupPolicy', spec.fsGroupPolicy, FS_GROUP_POLICIES));
  }
  errs.push(...validateTokenRequests(spec.tokenRequests, 'spec.tokenRequests'));
  const modes: unknown[] = Array.isArray(spec.volumeLifecycleModes) ? spec.volumeLifecycleModes : [];
  for (const m of modes) if (!LIFECYCLE_MODES.includes(str(m))) errs.push(notSupported('spec.volumeLifecycleModes', m ?? '', LIFECYCLE_MODES));
  return errs;
}

const specOf = (o: Obj): Obj => (isObj(o?.spec) ? o.spec : {});

function validateCSIDriverUpdate(d: Obj, old: Obj): FieldError[] {
  const spec = specOf(d);
  const oldSpec = specOf(old);
  const errs = validateCSIDriverSpec(spec);
  errs.push(...validateImmutable(spec.attachRequired, oldSpec.attachRequired, 'spec.attachedRequired'));
  errs.push(...validateImmutable(spec.fsGroupPolicy, oldSpec.fsGroupPolicy, 'spec.fsGroupPolicy'));
  errs.push(...validateImmutable(spec.podInfoOnMount, oldSpec.podInfoOnMount, 'spec.podInfoOnMount'));
  const modes = Array.isArray(spec.volumeLifecycleModes) ? spec.volumeLifecycleModes.map(str) : null;
  errs.push(...validateImmutable(spec.volumeLifecycleModes, oldSpec.volumeLifecycleModes, 'spec.volumeLifecycleModes', goStringSlice(modes, 'storage.VolumeLifecycleMode')));
  // Upstream checks tokenRequests a second time here; the repeats collapse.
  return uniq(errs);
}

export const csiDriverRules: KindRules = {
  defaults: defaultCSIDriver,
  validateCreate: (d) => validateCSIDriverSpec(specOf(d)),
  validateUpdate: (d, old) => validateCSIDriverUpdate(d, old),
};

// ---- CSINode ----

const CSI_NODE_ID_MAX = 192;

function validateCSINodeDriver(d: Obj, path: string, names: Set<string>): FieldError[] {
  const name = str(d.name);
  const errs = validateCSIDriverName(name, child(path, 'name'));
  const nodeID = str(d.nodeID);
  const np = child(path, 'nodeID');
  if (!nodeID) errs.push(required(np));
  if (utf8Length(nodeID) > CSI_NODE_ID_MAX) errs.push(invalid(np, nodeID, `must be ${CSI_NODE_ID_MAX} characters or less`));
  if (isObj(d.allocatable)) errs.push(...nonNegative(d.allocatable.count, child(path, 'allocatable', 'count')));
  if (names.has(name)) errs.push(duplicate(child(path, 'name'), name));
  names.add(name);
  // Topology key errors name the driver entry itself, not `topologyKeys`.
  const keys = new Set<string>();
  for (const raw of Array.isArray(d.topologyKeys) ? d.topologyKeys : []) {
    const key = str(raw);
    if (!key) errs.push(required(path));
    if (keys.has(key)) errs.push(duplicate(path, key));
    keys.add(key);
    for (const m of isQualifiedName(key)) errs.push(invalid(path, key, m));
  }
  return errs;
}

function validateCSINode(n: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list(specOf(n).drivers).forEach((d, i) => errs.push(...validateCSINodeDriver(d, index('spec.drivers', i), names)));
  return errs;
}

/** storage.CSINodeDriver as %#v prints it (Allocatable is a pointer: a stand-in address). */
function goCSINodeDriver(d: Obj): string {
  const keys = Array.isArray(d.topologyKeys) ? d.topologyKeys.map(str) : null;
  const alloc = isSet(d.allocatable) ? '(*storage.VolumeNodeResources)(0xc000c1d0e0)' : '(*storage.VolumeNodeResources)(nil)';
  return `storage.CSINodeDriver{Name:${q(str(d.name))}, NodeID:${q(str(d.nodeID))}, TopologyKeys:${goStringSlice(keys)}, Allocatable:${alloc}}`;
}

function validateCSINodeUpdate(n: Obj, old: Obj): FieldError[] {
  const errs = validateCSINode(n);
  // An existing driver entry may not change; upstream's path is literally `CSINodeDriver`.
  const drivers = list(specOf(n).drivers);
  for (const o of list(specOf(old).drivers)) {
    for (const d of drivers) {
      if (str(o.name) === str(d.name) && !semanticEqual(o, d)) errs.push(invalid('CSINodeDriver', d, FIELD_IMMUTABLE, goCSINodeDriver(d)));
    }
  }
  return errs;
}

export const csiNodeRules: KindRules = {
  validateCreate: validateCSINode,
  validateUpdate: (n, old) => validateCSINodeUpdate(n, old),
};

// ---- VolumeAttachment ----

const MAX_ATTACHMENT_METADATA = 256 * 1024;
const MAX_VOLUME_ERROR_MESSAGE = 1024;
const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce'];
const VOLUME_MODES = ['Block', 'Filesystem'];
/** The PersistentVolumeSource members before `csi` in upstream's check order. */
const NON_CSI_SOURCES = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'glusterfs', 'flocker', 'nfs', 'rbd', 'quobyte', 'cephfs', 'iscsi',
  'cinder', 'fc', 'flexVolume', 'azureFile', 'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'scaleIO',
  'local', 'storageos',
];

/**
 * ValidatePersistentVolumeSpec in its inline-volume mode: only a CSI source, no claimRef,
 * capacity or node affinity, reclaim policy Retain. Non-CSI sources' own fields are not checked.
 */
function validateInlineVolumeSpec(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isSet(spec.claimRef)) errs.push(forbidden(child(path, 'claimRef'), 'may not be specified in the context of inline volumes'));
  if (isObj(spec.capacity) && Object.keys(spec.capacity).length > 0) errs.push(forbidden(child(path, 'capacity'), 'may not be specified in the context of inline volumes'));
  if (!isSet(spec.csi)) errs.push(required(child(path, 'csi'), 'has to be specified in the context of inline volumes'));
  const modes: unknown[] = Array.isArray(spec.accessModes) ? spec.accessModes : [];
  if (modes.length === 0) errs.push(required(child(path, 'accessModes')));
  for (const m of modes) if (!ACCESS_MODES.includes(str(m))) errs.push(notSupported(child(path, 'accessModes'), m ?? '', ACCESS_MODES));
  const policy = str(spec.persistentVolumeReclaimPolicy);
  if (policy && policy !== 'Retain') errs.push(forbidden(child(path, 'persistentVolumeReclaimPolicy'), 'may only be Retain in the context of inline volumes'));
  if (isSet(spec.nodeAffinity)) errs.push(forbidden(child(path, 'nodeAffinity'), 'may not be specified in the context of inline volumes'));
  let sources = NON_CSI_SOURCES.filter((s) => isSet(spec[s])).length > 0 ? 1 : 0;
  if (isSet(spec.csi)) {
    if (sources > 0) errs.push(forbidden(child(path, 'csi'), 'may not specify more than 1 volume type'));
    else {
      sources++;
      const csi: Obj = isObj(spec.csi) ? spec.csi : {};
      errs.push(...validateCSIDriverName(str(csi.driver), child(path, 'csi', 'driver')));
      if (!csi.volumeHandle) errs.push(required(child(path, 'csi', 'volumeHandle')));
    }
  }
  if (sources === 0) errs.push(required(path, 'must specify a volume type'));
  const sc = str(spec.storageClassName);
  if (sc) for (const m of isDNS1123Subdomain(sc)) errs.push(invalid(child(path, 'storageClassName'), sc, m));
  if (isSet(spec.volumeMode) && !VOLUME_MODES.includes(str(spec.volumeMode))) errs.push(notSupported(child(path, 'volumeMode'), spec.volumeMode, VOLUME_MODES));
  return errs;
}

function validateVolumeError(e: unknown, path: string): FieldError[] {
  if (!isObj(e)) return [];
  // Upstream reports the metadata limit (256KiB) here, not the 1024 bytes it checks.
  return utf8Length(str(e.message)) > MAX_VOLUME_ERROR_MESSAGE ? [tooLong(child(path, 'message'), MAX_ATTACHMENT_METADATA)] : [];
}

/** ValidateVolumeAttachment: the spec and status checks common to every version. */
function validateVolumeAttachment(va: Obj): FieldError[] {
  const spec = specOf(va);
  const errs: FieldError[] = [];
  if (!str(spec.attacher)) errs.push(required('spec.attacher'));
  const source: Obj = isObj(spec.source) ? spec.source : {};
  const hasPV = isSet(source.persistentVolumeName);
  const hasInline = isSet(source.inlineVolumeSpec);
  const EXACTLY_ONE = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';
  if (!hasPV && !hasInline) errs.push(required('spec.source', EXACTLY_ONE));
  else if (hasPV && hasInline) errs.push(forbidden('spec.source', EXACTLY_ONE));
  else if (hasPV) {
    if (!str(source.persistentVolumeName)) errs.push(required('spec.source.persistentVolumeName', 'must specify non empty persistentVolumeName'));
  } else {
    errs.push(...validateInlineVolumeSpec(isObj(source.inlineVolumeSpec) ? source.inlineVolumeSpec : {}, 'spec.source.inlineVolumeSpec'));
  }
  const nodeName = str(spec.nodeName);
  for (const m of isDNS1123Subdomain(nodeName)) errs.push(invalid('spec.nodeName', nodeName, m));
  const status: Obj = isObj(va.status) ? va.status : {};
  if (isObj(status.attachmentMetadata)) {
    let size = 0;
    for (const [k, v] of Object.entries(status.attachmentMetadata)) size += utf8Length(k) + utf8Length(str(v));
    if (size > MAX_ATTACHMENT_METADATA) errs.push(tooLong('status.attachmentMetadata', MAX_ATTACHMENT_METADATA));
  }
  errs.push(...validateVolumeError(status.attachError, 'status.attachError'));
  errs.push(...validateVolumeError(status.detachError, 'status.detachError'));
  return errs;
}

/** ValidateVolumeAttachmentV1: create through storage.k8s.io/v1 only. */
function validateVolumeAttachmentV1(va: Obj): FieldError[] {
  const spec = specOf(va);
  const errs = validateCSIDriverName(str(spec.attacher), 'spec.attacher');
  const source: Obj = isObj(spec.source) ? spec.source : {};
  if (isSet(source.persistentVolumeName)) {
    const pv = str(source.persistentVolumeName);
    for (const m of isDNS1123Subdomain(pv)) errs.push(invalid('spec.source.persistentVolumeName', pv, m));
  }
  return errs;
}

/** storage.VolumeAttachmentSpec as %#v prints it (pointers get stand-in addresses). */
function goVolumeAttachmentSpec(spec: Obj): string {
  const source: Obj = isObj(spec.source) ? spec.source : {};
  const pv = isSet(source.persistentVolumeName) ? '(*string)(0xc000d1e0f0)' : '(*string)(nil)';
  const inline = isSet(source.inlineVolumeSpec) ? '(*core.PersistentVolumeSpec)(0xc000d1e100)' : '(*core.PersistentVolumeSpec)(nil)';
  return (
    `storage.VolumeAttachmentSpec{Attacher:${q(str(spec.attacher))}, ` +
    `Source:storage.VolumeAttachmentSource{PersistentVolumeName:${pv}, InlineVolumeSpec:${inline}}, NodeName:${q(str(spec.nodeName))}}`
  );
}

function validateVolumeAttachmentUpdate(va: Obj, old: Obj, subresource = ''): FieldError[] {
  const errs = validateVolumeAttachment(va);
  // A status write keeps the stored spec (the status strategy copies it), so only a main write can change it.
  if (subresource !== 'status' && !semanticEqual(specOf(va), specOf(old))) {
    errs.push(invalid('spec', specOf(va), FIELD_IMMUTABLE, goVolumeAttachmentSpec(specOf(va))));
  }
  return errs;
}

export const volumeAttachmentRules: KindRules = {
  validateCreate: (va) => uniq([...validateVolumeAttachment(va), ...validateVolumeAttachmentV1(va)]),
  validateUpdate: (va, old, subresource) => validateVolumeAttachmentUpdate(va, old, subresource),
};

// ---- CSIStorageCapacity ----

function validateCSIStorageCapacity(c: Obj): FieldError[] {
  const errs = validateLabelSelector(c?.nodeTopology, 'nodeTopology');
  const sc = str(c?.storageClassName);
  // ValidateClassName: an empty name gets the regex message, not `Required value`.
  for (const m of isDNS1123Subdomain(sc)) errs.push(invalid('storageClassName', sc, m));
  if (isSet(c?.capacity)) {
    const parsed = parseQuantity(c.capacity);
    if (parsed && isNegative(parsed)) errs.push(invalid('capacity', canonicalQuantity(c.capacity), IS_NEGATIVE));
  }
  return errs;
}

function validateCSIStorageCapacityUpdate(c: Obj, old: Obj): FieldError[] {
  const errs = validateCSIStorageCapacity(c);
  if (!semanticEqual(c?.nodeTopology, old?.nodeTopology)) {
    errs.push(invalid('nodeTopology', c?.nodeTopology ?? null, FIELD_IMMUTABLE, goLabelSelector(c?.nodeTopology)));
  }
  if (str(c?.storageClassName) !== str(old?.storageClassName)) errs.push(invalid('storageClassName', str(c?.storageClassName), FIELD_IMMUTABLE));
  return errs;
}

export const csiStorageCapacityRules: KindRules = {
  validateCreate: validateCSIStorageCapacity,
  validateUpdate: (c, old) => validateCSIStorageCapacityUpdate(c, old),
};
