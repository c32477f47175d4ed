import { describe, expect, it } from 'vitest';
import { invalid as invalidStatus } from '../meta/status';
import type { KindRules } from './kind-rules';
import { runtimeClassRules } from './node';
import { csiDriverRules, csiNodeRules, csiStorageCapacityRules, volumeAttachmentRules } from './storage-csi';

const DNS_LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS_SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

function msg(rules: KindRules, group: string, kind: string, obj: any, old?: any, sub = ''): string {
  const errs = old ? rules.validateUpdate!(obj, old, sub) : rules.validateCreate!(obj);
  return errs.length ? invalidStatus(group, kind, 'x', errs).message : '';
}

describe('RuntimeClass', () => {
  const m = (o: any, old?: any) => msg(runtimeClassRules, 'node.k8s.io', 'RuntimeClass', o, old);
  const rc = (o: object = {}): any => ({ metadata: { name: 'x' }, handler: 'runc', ...o });

  it('accepts a full valid object', () => {
    const o = rc({
      overhead: { podFixed: { cpu: '250m', memory: '64Mi' } },
      scheduling: { nodeSelector: { 'kubernetes.io/os': 'linux' }, tolerations: [{ key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' }, { operator: 'Exists' }] },
    });
    expect(runtimeClassRules.validateCreate!(o)).toEqual([]);
    expect(runtimeClassRules.validateUpdate!(o, rc(), '')).toEqual([]);
  });

  it('handler must be a DNS label (empty included)', () => {
    expect(m(rc({ handler: '' }))).toBe(`RuntimeClass.node.k8s.io "x" is invalid: handler: Invalid value: "": ${DNS_LABEL}`);
    expect(m(rc({ handler: undefined }))).toBe(`RuntimeClass.node.k8s.io "x" is invalid: handler: Invalid value: "": ${DNS_LABEL}`);
    expect(m(rc({ handler: 'Run_C' }))).toBe(`RuntimeClass.node.k8s.io "x" is invalid: handler: Invalid value: "Run_C": ${DNS_LABEL}`);
  });

  it('handler is immutable', () => {
    expect(m(rc({ handler: 'kata' }), rc())).toBe('RuntimeClass.node.k8s.io "x" is invalid: handler: Invalid value: "kata": field is immutable');
  });

  it('overhead uses the container resource rules at overhead.limits', () => {
    expect(m(rc({ overhead: { podFixed: { cpu: '-1' } } }))).toBe('RuntimeClass.node.k8s.io "x" is invalid: overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0');
    expect(m(rc({ overhead: { podFixed: { 'bad name!': '1' } } }))).toContain('overhead.limits[bad name!]: Invalid value: "bad name!"');
  });

  it('scheduling: node selector labels and tolerations (with upstream doubled path) and duplicates', () => {
    expect(m(rc({ scheduling: { nodeSelector: { 'a/b/c': 'x' } } }))).toContain('scheduling.nodeSelector: Invalid value: "a/b/c"');
    expect(m(rc({ scheduling: { tolerations: [{ operator: 'Equal', value: 'v' }] } }))).toBe(
      'RuntimeClass.node.k8s.io "x" is invalid: scheduling.tolerations.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
    );
    expect(m(rc({ scheduling: { tolerations: [{ key: 'k', operator: 'Bogus', effect: 'Never' }] } }))).toBe(
      'RuntimeClass.node.k8s.io "x" is invalid: [scheduling.tolerations.tolerations[0].operator: Unsupported value: "Bogus": supported values: "Equal", "Exists", scheduling.tolerations.tolerations[0].effect: Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"]',
    );
    expect(m(rc({ scheduling: { tolerations: [{ key: 'k', effect: 'NoSchedule' }, { key: 'k', effect: 'NoSchedule' }] } }))).toBe(
      'RuntimeClass.node.k8s.io "x" is invalid: scheduling.tolerations[1]: Duplicate value: core.Toleration{Key:"k", Operator:"", Value:"", Effect:"NoSchedule", TolerationSeconds:(*int64)(nil)}',
    );
    expect(m(rc({ scheduling: { tolerations: [null, { key: 'k', tolerationSeconds: 5, effect: 'NoSchedule' }] } }))).toContain(
      "scheduling.tolerations.tolerations[1].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
    );
  });

  it('never throws on garbage', () => {
    for (const o of [{}, { handler: 5, overhead: 'x', scheduling: { tolerations: 'x', nodeSelector: 3 } }, { scheduling: { tolerations: [null, 1, []] } }]) {
      expect(() => runtimeClassRules.validateCreate!(o)).not.toThrow();
      expect(() => runtimeClassRules.validateUpdate!(o, {}, '')).not.toThrow();
    }
  });
});

describe('CSIDriver', () => {
  const m = (o: any, old?: any) => msg(csiDriverRules, 'storage.k8s.io', 'CSIDriver', o, old);
  const drv = (spec: object = {}): any => {
    const o: any = { metadata: { name: 'csi.example.com' }, spec: { ...spec } };
    csiDriverRules.defaults!(o);
    return o;
  };

  it('defaults the v1.23 spec fields', () => {
    expect(drv().spec).toEqual({
      attachRequired: true,
      podInfoOnMount: false,
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      volumeLifecycleModes: ['Persistent'],
      requiresRepublish: false,
    });
    expect(drv({ attachRequired: false, volumeLifecycleModes: ['Ephemeral'] }).spec).toMatchObject({ attachRequired: false, volumeLifecycleModes: ['Ephemeral'] });
    const bare: any = {};
    csiDriverRules.defaults!(bare);
    expect(bare.spec.attachRequired).toBe(true);
    expect(csiDriverRules.validateCreate!(drv())).toEqual([]);
  });

  it('requires the defaulted booleans when defaults did not run', () => {
    expect(m({ spec: {} })).toBe('CSIDriver.storage.k8s.io "x" is invalid: [spec.attachedRequired: Required value, spec.podInfoOnMount: Required value, spec.storageCapacity: Required value]');
  });

  it('fsGroupPolicy and volumeLifecycleModes values', () => {
    expect(m(drv({ fsGroupPolicy: 'Sometimes', volumeLifecycleModes: ['Persistent', 'Forever'] }))).toBe(
      'CSIDriver.storage.k8s.io "x" is invalid: [spec.fsGroupPolicy: Unsupported value: "Sometimes": supported values: "File", "None", "ReadWriteOnceWithFSType", spec.volumeLifecycleModes: Unsupported value: "Forever": supported values: "Persistent", "Ephemeral"]',
    );
  });

  it('tokenRequests: unique audiences and expiration bounds', () => {
    expect(m(drv({ tokenRequests: [{ audience: 'a' }, { audience: 'a', expirationSeconds: 1 }, { audience: 'b', expirationSeconds: 599 }, { audience: 'c', expirationSeconds: 2 ** 32 + 1 }, { audience: 'd', expirationSeconds: 2 ** 32 }] }))).toBe(
      'CSIDriver.storage.k8s.io "x" is invalid: [spec.tokenRequests[1].audience: Duplicate value: "a", spec.tokenRequests[2].expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes, spec.tokenRequests[3].expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds]',
    );
    expect(csiDriverRules.validateCreate!(drv({ tokenRequests: [{ audience: '' }, { audience: 'x', expirationSeconds: 600 }] }))).toEqual([]);
  });

  it('updates: attachRequired, podInfoOnMount, fsGroupPolicy and lifecycle modes are immutable; others are not', () => {
    const old = drv();
    expect(csiDriverRules.validateUpdate!(drv({ storageCapacity: true, requiresRepublish: true, tokenRequests: [{ audience: 'a' }] }), old, '')).toEqual([]);
    expect(m(drv({ attachRequired: false, podInfoOnMount: true, fsGroupPolicy: 'File', volumeLifecycleModes: ['Persistent', 'Ephemeral'] }), old)).toBe(
      'CSIDriver.storage.k8s.io "x" is invalid: [spec.attachedRequired: Invalid value: false: field is immutable, spec.fsGroupPolicy: Invalid value: "File": field is immutable, spec.podInfoOnMount: Invalid value: true: field is immutable, spec.volumeLifecycleModes: Invalid value: []storage.VolumeLifecycleMode{"Persistent", "Ephemeral"}: field is immutable]',
    );
    // tokenRequests are checked twice upstream; the message shows each error once.
    expect(csiDriverRules.validateUpdate!(drv({ tokenRequests: [{ audience: 'a' }, { audience: 'a' }] }), old, '')).toHaveLength(1);
  });
});

describe('CSINode', () => {
  const m = (o: any, old?: any) => msg(csiNodeRules, 'storage.k8s.io', 'CSINode', o, old);
  const node = (...drivers: any[]): any => ({ metadata: { name: 'node-1' }, spec: { drivers } });
  const d = (o: object = {}) => ({ name: 'csi.example.com', nodeID: 'n1', topologyKeys: ['topology.example.com/zone'], allocatable: { count: 10 }, ...o });

  it('accepts valid drivers', () => {
    expect(csiNodeRules.validateCreate!(node(d(), d({ name: 'other.example.com' })))).toEqual([]);
    expect(csiNodeRules.validateCreate!(node())).toEqual([]);
    expect(csiNodeRules.validateCreate!({ spec: { drivers: null } })).toEqual([]);
  });

  it('driver name, nodeID, allocatable count and duplicates', () => {
    expect(m(node(d({ name: '', nodeID: '', allocatable: { count: -1 } })))).toBe(
      `CSINode.storage.k8s.io "x" is invalid: [spec.drivers[0].name: Required value, spec.drivers[0].name: Invalid value: "": ${DNS_SUBDOMAIN}, spec.drivers[0].nodeID: Required value, spec.drivers[0].allocatable.count: Invalid value: -1: must be greater than or equal to 0]`,
    );
    expect(m(node(d({ name: 'a'.repeat(64) })))).toBe('CSINode.storage.k8s.io "x" is invalid: spec.drivers[0].name: Too long: must have at most 63 bytes');
    expect(m(node(d({ nodeID: 'n'.repeat(193) })))).toContain('spec.drivers[0].nodeID: Invalid value: "nnn');
    expect(m(node(d({ nodeID: 'n'.repeat(193) })))).toContain(': must be 192 characters or less');
    expect(csiNodeRules.validateCreate!(node(d({ nodeID: 'n'.repeat(192) })))).toEqual([]);
    // Upper case is fine: the name is lower-cased before the subdomain check.
    expect(csiNodeRules.validateCreate!(node(d({ name: 'CSI.Example.com' })))).toEqual([]);
    expect(m(node(d(), d()))).toBe('CSINode.storage.k8s.io "x" is invalid: spec.drivers[1].name: Duplicate value: "csi.example.com"');
  });

  it('topology keys are reported at the driver entry', () => {
    expect(m(node(d({ topologyKeys: ['zone', 'zone', 'a/b/c'] })))).toBe(
      'CSINode.storage.k8s.io "x" is invalid: [spec.drivers[0]: Duplicate value: "zone", spec.drivers[0]: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\') with an optional DNS subdomain prefix and \'/\' (e.g. \'example.com/MyName\')]',
    );
    expect(m(node(d({ topologyKeys: [''] })))).toContain('spec.drivers[0]: Required value');
  });

  it('updates: an existing driver entry may not change; drivers may be added or removed', () => {
    const old = node(d());
    expect(csiNodeRules.validateUpdate!(node(d(), d({ name: 'new.example.com' })), old, '')).toEqual([]);
    expect(csiNodeRules.validateUpdate!(node(), old, '')).toEqual([]);
    expect(m(node(d({ nodeID: 'n2' })), old)).toBe(
      'CSINode.storage.k8s.io "x" is invalid: CSINodeDriver: Invalid value: storage.CSINodeDriver{Name:"csi.example.com", NodeID:"n2", TopologyKeys:[]string{"topology.example.com/zone"}, Allocatable:(*storage.VolumeNodeResources)(0xc000c1d0e0)}: field is immutable',
    );
  });
});

describe('VolumeAttachment', () => {
  const m = (o: any, old?: any, sub = '') => msg(volumeAttachmentRules, 'storage.k8s.io', 'VolumeAttachment', o, old, sub);
  const va = (spec: object = {}, status?: object): any => ({
    metadata: { name: 'x' },
    spec: { attacher: 'csi.example.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' }, ...spec },
    ...(status ? { status } : {}),
  });

  it('accepts a valid attachment', () => {
    expect(volumeAttachmentRules.validateCreate!(va())).toEqual([]);
    const inline = { csi: { driver: 'csi.example.com', volumeHandle: 'h' }, accessModes: ['ReadWriteOnce'] };
    expect(volumeAttachmentRules.validateCreate!(va({ source: { inlineVolumeSpec: inline } }))).toEqual([]);
  });

  it('attacher (a CSI driver name on v1) and nodeName', () => {
    expect(m(va({ attacher: '', nodeName: '' }))).toBe(
      `VolumeAttachment.storage.k8s.io "x" is invalid: [spec.attacher: Required value, spec.nodeName: Invalid value: "": ${DNS_SUBDOMAIN}, spec.attacher: Invalid value: "": ${DNS_SUBDOMAIN}]`,
    );
    expect(m(va({ attacher: 'bad_driver!' }))).toBe(`VolumeAttachment.storage.k8s.io "x" is invalid: spec.attacher: Invalid value: "bad_driver!": ${DNS_SUBDOMAIN}`);
  });

  it('source: exactly one of persistentVolumeName and inlineVolumeSpec', () => {
    const one = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';
    expect(m(va({ source: {} }))).toBe(`VolumeAttachment.storage.k8s.io "x" is invalid: spec.source: Required value: ${one}`);
    expect(m(va({ source: null }))).toBe(`VolumeAttachment.storage.k8s.io "x" is invalid: spec.source: Required value: ${one}`);
    expect(m(va({ source: { persistentVolumeName: 'pv', inlineVolumeSpec: {} } }))).toBe(`VolumeAttachment.storage.k8s.io "x" is invalid: spec.source: Forbidden: ${one}`);
    expect(m(va({ source: { persistentVolumeName: '' } }))).toBe(
      `VolumeAttachment.storage.k8s.io "x" is invalid: [spec.source.persistentVolumeName: Required value: must specify non empty persistentVolumeName, spec.source.persistentVolumeName: Invalid value: "": ${DNS_SUBDOMAIN}]`,
    );
  });

  it('inline volume spec: CSI only, no capacity', () => {
    expect(m(va({ source: { inlineVolumeSpec: { capacity: { storage: '1Gi' }, nfs: { server: 's', path: '/p' } } } }))).toBe(
      'VolumeAttachment.storage.k8s.io "x" is invalid: [spec.source.inlineVolumeSpec.capacity: Forbidden: may not be specified in the context of inline volumes, spec.source.inlineVolumeSpec.csi: Required value: has to be specified in the context of inline volumes, spec.source.inlineVolumeSpec.accessModes: Required value]',
    );
    expect(m(va({ source: { inlineVolumeSpec: { accessModes: ['ReadWriteOnce'], csi: { driver: 'csi.example.com' } } } }))).toBe(
      'VolumeAttachment.storage.k8s.io "x" is invalid: spec.source.inlineVolumeSpec.csi.volumeHandle: Required value',
    );
  });

  it('status error messages are limited to 1024 bytes', () => {
    expect(m(va({}, { attached: false, attachError: { message: 'e'.repeat(1025) }, detachError: { message: 'e'.repeat(1024) } }))).toBe(
      'VolumeAttachment.storage.k8s.io "x" is invalid: status.attachError.message: Too long: must have at most 262144 bytes',
    );
  });

  it('updates: the spec is immutable; status writes are checked but keep the spec', () => {
    const old = va();
    expect(volumeAttachmentRules.validateUpdate!(va({}, { attached: true }), old, '')).toEqual([]);
    expect(m(va({ nodeName: 'node-2' }), old)).toBe(
      'VolumeAttachment.storage.k8s.io "x" is invalid: spec: Invalid value: storage.VolumeAttachmentSpec{Attacher:"csi.example.com", Source:storage.VolumeAttachmentSource{PersistentVolumeName:(*string)(0xc000d1e0f0), InlineVolumeSpec:(*core.PersistentVolumeSpec)(nil)}, NodeName:"node-2"}: field is immutable',
    );
    expect(m(va({}, { detachError: { message: 'x'.repeat(2000) } }), old, 'status')).toBe(
      'VolumeAttachment.storage.k8s.io "x" is invalid: status.detachError.message: Too long: must have at most 262144 bytes',
    );
  });

  it('never throws on garbage', () => {
    for (const o of [{}, { spec: 'x' }, { spec: { source: { inlineVolumeSpec: 'x' } }, status: { attachError: 'x' } }, { spec: { source: { inlineVolumeSpec: { csi: null, accessModes: [null] } } } }]) {
      expect(() => volumeAttachmentRules.validateCreate!(o)).not.toThrow();
      expect(() => volumeAttachmentRules.validateUpdate!(o, {}, '')).not.toThrow();
    }
  });
});

describe('CSIStorageCapacity', () => {
  const m = (o: any, old?: any) => msg(csiStorageCapacityRules, 'storage.k8s.io', 'CSIStorageCapacity', o, old);
  const cap = (o: object = {}): any => ({
    metadata: { name: 'x', namespace: 'default' },
    storageClassName: 'fast',
    nodeTopology: { matchLabels: { 'topology.example.com/zone': 'a' } },
    capacity: '10Gi',
    ...o,
  });

  it('accepts a valid object', () => {
    expect(csiStorageCapacityRules.validateCreate!(cap())).toEqual([]);
    expect(csiStorageCapacityRules.validateCreate!(cap({ nodeTopology: undefined, capacity: undefined, maximumVolumeSize: '1Gi' }))).toEqual([]);
    expect(csiStorageCapacityRules.validateCreate!(cap({ capacity: '0' }))).toEqual([]);
  });

  it('storageClassName, node topology selector and capacity', () => {
    expect(m(cap({ storageClassName: '' }))).toBe(`CSIStorageCapacity.storage.k8s.io "x" is invalid: storageClassName: Invalid value: "": ${DNS_SUBDOMAIN}`);
    expect(m(cap({ storageClassName: 'Fast' }))).toBe(`CSIStorageCapacity.storage.k8s.io "x" is invalid: storageClassName: Invalid value: "Fast": ${DNS_SUBDOMAIN}`);
    expect(m(cap({ capacity: '-1Gi' }))).toBe('CSIStorageCapacity.storage.k8s.io "x" is invalid: capacity: Invalid value: "-1Gi": must be greater than or equal to 0');
    expect(m(cap({ nodeTopology: { matchExpressions: [{ key: 'zone', operator: 'Near' }] } }))).toBe(
      'CSIStorageCapacity.storage.k8s.io "x" is invalid: nodeTopology.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
    );
  });

  it('updates: storageClassName and nodeTopology are immutable, capacity is not', () => {
    const old = cap();
    expect(csiStorageCapacityRules.validateUpdate!(cap({ capacity: '20Gi', maximumVolumeSize: '5Gi' }), old, '')).toEqual([]);
    expect(m(cap({ storageClassName: 'slow', nodeTopology: { matchLabels: { zone: 'b' } } }), old)).toBe(
      'CSIStorageCapacity.storage.k8s.io "x" is invalid: [nodeTopology: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"zone":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable, storageClassName: Invalid value: "slow": field is immutable]',
    );
  });

  it('never throws on garbage', () => {
    for (const o of [{}, { nodeTopology: 'x', capacity: {}, storageClassName: 3 }, { nodeTopology: { matchExpressions: [null] } }]) {
      expect(() => csiStorageCapacityRules.validateCreate!(o)).not.toThrow();
      expect(() => csiStorageCapacityRules.validateUpdate!(o, {}, '')).not.toThrow();
    }
  });
});
