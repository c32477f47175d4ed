import { describe, expect, it } from 'vitest';
import { invalid as invalidStatus } from '../meta/status';
import { rulesFor } from '../kinds';

const pvRules = rulesFor('', 'PersistentVolume')!;
const scRules = rulesFor('storage.k8s.io', 'StorageClass')!;
const pv = (spec: object): any => {
  const o: any = { metadata: { name: 'v' }, spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: '/data' }, ...spec } };
  pvRules.defaults!(o);
  return o;
};
const pvMsg = (o: any, old?: any) => invalidStatus('', 'PersistentVolume', 'v', old ? pvRules.validateUpdate!(o, old, '') : pvRules.validateCreate!(o)).message;
const sc = (o: object): any => {
  const s: any = { metadata: { name: 's' }, provisioner: 'example.com/local', ...o };
  scRules.defaults!(s);
  return s;
};
const scMsg = (o: any, old?: any) => invalidStatus('storage.k8s.io', 'StorageClass', 's', old ? scRules.validateUpdate!(o, old, '') : scRules.validateCreate!(o)).message;

describe('PersistentVolume', () => {
  it('defaults reclaim policy, volume mode, hostPath type and phase', () => {
    const o = pv({});
    expect(o.spec).toEqual({ accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: '/data', type: '' }, persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' });
    expect(o.status).toEqual({ phase: 'Pending' });
    expect(pvRules.validateCreate!(o)).toEqual([]);
  });

  it('needs access modes, a storage capacity and exactly one source', () => {
    const o: any = { metadata: { name: 'v' }, spec: {} };
    pvRules.defaults!(o);
    expect(pvMsg(o)).toBe(
      'PersistentVolume "v" is invalid: [spec.accessModes: Required value, spec.capacity: Required value, spec.capacity: Unsupported value: core.ResourceList(nil): supported values: "storage", spec: Required value: must specify a volume type]',
    );
    expect(pvMsg(pv({ nfs: { server: 'nfs.local', path: '/export' } }))).toBe('PersistentVolume "v" is invalid: spec.nfs: Forbidden: may not specify more than 1 volume type');
    expect(pvMsg(pv({ capacity: { storage: '0' } }))).toBe('PersistentVolume "v" is invalid: spec.capacity[storage]: Invalid value: "0": must be greater than zero');
    expect(pvMsg(pv({ capacity: { storage: '1Gi', cpu: '1' } }))).toBe(
      'PersistentVolume "v" is invalid: spec.capacity: Unsupported value: core.ResourceList{"cpu":resource.Quantity{i:resource.int64Amount{value:1, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1", Format:"DecimalSI"}, "storage":resource.Quantity{i:resource.int64Amount{value:1073741824, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1Gi", Format:"BinarySI"}}: supported values: "storage"',
    );
  });

  it('checks enum values and the common sources', () => {
    expect(pvMsg(pv({ accessModes: ['ReadWriteOncePod', 'ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Keep', volumeMode: 'Raw' }))).toBe(
      'PersistentVolume "v" is invalid: [spec.accessModes: Unsupported value: "ReadWriteOncePod": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes, spec.persistentVolumeReclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain", spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"]',
    );
    expect(pvMsg(pv({ hostPath: { path: '/a/../b', type: 'Dir' } }))).toBe(
      'PersistentVolume "v" is invalid: [spec.hostPath.path: Invalid value: "/a/../b": must not contain \'..\', spec.hostPath.type: Unsupported value: "Dir": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"]',
    );
    expect(pvMsg(pv({ hostPath: { path: '//' }, persistentVolumeReclaimPolicy: 'Recycle' }))).toBe(
      "PersistentVolume \"v\" is invalid: spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'",
    );
    expect(pvMsg(pv({ hostPath: undefined, nfs: { server: 'x', path: 'rel' } }))).toBe('PersistentVolume "v" is invalid: spec.nfs.path: Invalid value: "rel": must be an absolute path');
    expect(pvMsg(pv({ hostPath: undefined, local: { path: '/mnt/disk' } }))).toBe('PersistentVolume "v" is invalid: spec.nodeAffinity: Required value: Local volume requires node affinity');
    const affinity = { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-1'] }] }] } };
    expect(pvRules.validateCreate!(pv({ hostPath: undefined, local: { path: '/mnt/disk' }, nodeAffinity: affinity }))).toEqual([]);
    expect(pvMsg(pv({ hostPath: undefined, csi: { driver: '', volumeHandle: 'h' } }))).toBe(
      "PersistentVolume \"v\" is invalid: [spec.csi.driver: Required value, spec.csi.driver: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')]",
    );
  });

  it('updates: the source and volume mode are immutable; status writes are not checked', () => {
    const old = pv({});
    expect(pvRules.validateUpdate!(pv({ capacity: { storage: '2Gi' } }), old, '')).toEqual([]);
    expect(pvMsg(pv({ hostPath: { path: '/other' }, volumeMode: 'Block' }), old)).toBe(
      'PersistentVolume "v" is invalid: [spec.persistentvolumesource: Forbidden: is immutable after creation, volumeMode: Invalid value: "Block": field is immutable]',
    );
    expect(pvRules.validateUpdate!({ ...old, spec: {} }, old, 'status')).toEqual([]);
  });
});

describe('StorageClass', () => {
  it('defaults reclaimPolicy and volumeBindingMode', () => {
    const s = sc({});
    expect(s).toMatchObject({ reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
    expect(scRules.validateCreate!(s)).toEqual([]);
    expect(sc({ reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' })).toMatchObject({ reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' });
  });

  it('provisioner, reclaimPolicy and volumeBindingMode values', () => {
    expect(scMsg(sc({ provisioner: '' }))).toBe('StorageClass.storage.k8s.io "s" is invalid: provisioner: Required value');
    expect(scMsg(sc({ provisioner: 'a/b/c', reclaimPolicy: 'Recycle', volumeBindingMode: 'Later' }))).toBe(
      "StorageClass.storage.k8s.io \"s\" is invalid: [provisioner: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName'), reclaimPolicy: Unsupported value: \"Recycle\": supported values: \"Delete\", \"Retain\", volumeBindingMode: Unsupported value: \"Later\": supported values: \"Immediate\", \"WaitForFirstConsumer\"]",
    );
    // Case does not matter in provisioner names.
    expect(scRules.validateCreate!(sc({ provisioner: 'Kubernetes.io/AWS-EBS' }))).toEqual([]);
  });

  it('parameters: no empty keys, at most 512 of them', () => {
    expect(scMsg(sc({ parameters: { '': 'x' } }))).toBe('StorageClass.storage.k8s.io "s" is invalid: parameters: Invalid value: "": field can not be empty.');
    const many = Object.fromEntries(Array.from({ length: 513 }, (_, i) => [`k${i}`, 'v']));
    expect(scMsg(sc({ parameters: many }))).toBe('StorageClass.storage.k8s.io "s" is invalid: parameters: Too long: must have at most 512 bytes');
  });

  it('updates: parameters, provisioner, reclaimPolicy and volumeBindingMode are immutable', () => {
    const old = sc({ parameters: { type: 'gp2' } });
    expect(scRules.validateUpdate!(sc({ parameters: { type: 'gp2' }, metadata: { name: 's', labels: { a: 'b' } } }), old, '')).toEqual([]);
    expect(scMsg(sc({ parameters: { type: 'gp3' }, provisioner: 'example.com/other', reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' }), old)).toBe(
      'StorageClass.storage.k8s.io "s" is invalid: [parameters: Forbidden: updates to parameters are forbidden., provisioner: Forbidden: updates to provisioner are forbidden., reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden., volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable]',
    );
  });
});
