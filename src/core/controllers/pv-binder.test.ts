import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const NS = '/api/v1/namespaces/default';

function pv(name: string, storage: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name, labels: { size: storage } }, spec: { capacity: { storage }, accessModes: ['ReadWriteOnce'], hostPath: { path: `/data/${name}` }, storageClassName: 'manual', ...extra } };
}

function pvc(name: string, storage: string, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, ...spec } };
}

function podWithClaim(name: string, claim: string): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName: claim } }] } };
}

const get = async (path: string) => (await t!.get(path)).json;
const eventsOf = async (name: string) => ((await get(`${NS}/events`)).items as any[]).filter((e) => e.involvedObject.name === name).map((e) => [e.type, e.reason, e.message]);

describe('persistentvolume-binder', () => {
  it('binds a claim to the smallest matching volume, with kube annotations, claimRef and phases', async () => {
    t = await startCluster('persistentvolume-binder');
    await t.post('/api/v1/persistentvolumes', pv('small', '1Gi'));
    await t.post('/api/v1/persistentvolumes', pv('big', '10Gi'));
    await t.post('/api/v1/persistentvolumes', pv('medium', '5Gi'));
    await t.post('/api/v1/persistentvolumes', pv('other-class', '2Gi', { storageClassName: 'fast' }));
    await t.settle();
    expect((await get('/api/v1/persistentvolumes/small')).status).toEqual({ phase: 'Available' });
    const created = (await t.post(`${NS}/persistentvolumeclaims`, pvc('data', '2Gi', { storageClassName: 'manual' }))).json;
    await t.settle();
    const claim = await get(`${NS}/persistentvolumeclaims/data`);
    expect(claim.spec.volumeName).toBe('medium');
    expect(claim.metadata.annotations).toEqual({ 'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes' });
    expect(claim.status).toEqual({ phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '5Gi' } });
    const volume = await get('/api/v1/persistentvolumes/medium');
    expect(volume.metadata.annotations).toEqual({ 'pv.kubernetes.io/bound-by-controller': 'yes' });
    expect(volume.spec.claimRef).toEqual({ kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data', uid: created.metadata.uid, apiVersion: 'v1', resourceVersion: expect.any(String) });
    expect(volume.status).toEqual({ phase: 'Bound' });
    const managers = claim.metadata.managedFields.map((m: any) => `${m.manager}/${m.operation}/${m.subresource ?? ''}`);
    expect(managers).toEqual(expect.arrayContaining(['kube-controller-manager/Update/', 'kube-controller-manager/Update/status']));

    // The claim goes: Retain keeps the volume, Released.
    await t.del(`${NS}/persistentvolumeclaims/data`);
    await t.settle();
    expect((await get('/api/v1/persistentvolumes/medium')).status).toEqual({ phase: 'Released' });
  });

  it('honours volumeName and selectors; a static volume under Delete fails as kube has no deleter for it', async () => {
    t = await startCluster('persistentvolume-binder');
    await t.post('/api/v1/persistentvolumes', pv('a', '1Gi', { persistentVolumeReclaimPolicy: 'Delete' }));
    await t.post('/api/v1/persistentvolumes', pv('b', '3Gi'));
    await t.post(`${NS}/persistentvolumeclaims`, pvc('named', '1Gi', { storageClassName: 'manual', volumeName: 'a' }));
    await t.post(`${NS}/persistentvolumeclaims`, pvc('picky', '1Gi', { storageClassName: 'manual', selector: { matchLabels: { size: '3Gi' } } }));
    await t.post(`${NS}/persistentvolumeclaims`, pvc('none', '100Gi', { storageClassName: '' }));
    await t.settle();
    const named = await get(`${NS}/persistentvolumeclaims/named`);
    expect(named.status.phase).toBe('Bound');
    // The user chose the volume: only bind-completed on the claim, bound-by-controller on the volume.
    expect(named.metadata.annotations).toEqual({ 'pv.kubernetes.io/bind-completed': 'yes' });
    expect((await get('/api/v1/persistentvolumes/a')).metadata.annotations).toEqual({ 'pv.kubernetes.io/bound-by-controller': 'yes' });
    expect((await get(`${NS}/persistentvolumeclaims/picky`)).spec.volumeName).toBe('b');
    expect((await get(`${NS}/persistentvolumeclaims/none`)).status.phase).toBe('Pending');
    expect(await eventsOf('none')).toEqual([['Normal', 'FailedBinding', 'no persistent volumes available for this claim and no storage class is set']]);

    await t.del(`${NS}/persistentvolumeclaims/named`);
    await t.settle();
    const failed = await get('/api/v1/persistentvolumes/a');
    expect(failed.status).toEqual({ phase: 'Failed', message: 'error getting deleter volume plugin for volume "a": no deletable volume plugin matched' });
    expect(await eventsOf('a')).toEqual([['Warning', 'VolumeFailedDelete', 'error getting deleter volume plugin for volume "a": no deletable volume plugin matched']]);
  });

  it('the default StorageClass: WaitForFirstConsumer, then provisioned for the pod\'s node, bound, and deleted with the claim', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    const sc = await get('/apis/storage.k8s.io/v1/storageclasses/standard');
    expect(sc).toMatchObject({ provisioner: 'kube-playground.io/hostpath', reclaimPolicy: 'Delete', volumeBindingMode: 'WaitForFirstConsumer', metadata: { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } });
    const created = (await t.post(`${NS}/persistentvolumeclaims`, pvc('data', '1Gi'))).json;
    expect(created.spec.storageClassName).toBe('standard');
    await t.settle();
    expect((await get(`${NS}/persistentvolumeclaims/data`)).status.phase).toBe('Pending');
    expect(await eventsOf('data')).toEqual([['Normal', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding']]);

    await t.post(`${NS}/pods`, podWithClaim('app', 'data'));
    await t.settle();
    const pod = await get(`${NS}/pods/app`);
    const claim = await get(`${NS}/persistentvolumeclaims/data`);
    expect(claim.status.phase).toBe('Bound');
    expect(claim.metadata.annotations).toEqual({
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
      'volume.beta.kubernetes.io/storage-provisioner': 'kube-playground.io/hostpath',
      'volume.kubernetes.io/selected-node': pod.spec.nodeName,
      'volume.kubernetes.io/storage-provisioner': 'kube-playground.io/hostpath',
    });
    const volume = await get(`/api/v1/persistentvolumes/${claim.spec.volumeName}`);
    expect(volume.metadata.name).toBe(`pvc-${created.metadata.uid}`);
    expect(volume.metadata.annotations).toEqual({ 'pv.kubernetes.io/provisioned-by': 'kube-playground.io/hostpath' });
    expect(volume.spec).toMatchObject({ persistentVolumeReclaimPolicy: 'Delete', storageClassName: 'standard', capacity: { storage: '1Gi' } });
    expect(volume.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values).toEqual([pod.spec.nodeName]);
    expect(pod.status.phase).toBe('Running');
    // (Events of one instant list in name order, not in order of creation.)
    expect((await eventsOf('data')).map((e) => e[1]).sort()).toEqual(['ExternalProvisioning', 'Provisioning', 'ProvisioningSucceeded', 'WaitForFirstConsumer']);

    await t.del(`${NS}/pods/app`);
    await t.del(`${NS}/persistentvolumeclaims/data`);
    await t.settle();
    expect((await t.get(`/api/v1/persistentvolumes/${volume.metadata.name}`)).status).toBe(404);
  });

  it('the scheduler waits for claims: a missing claim, an unbound immediate claim; a static local volume pins the pod to its node', async () => {
    t = await startCluster('nodes,scheduler,persistentvolume-binder');
    await t.post(`${NS}/pods`, podWithClaim('orphan', 'nope'));
    await t.post(`${NS}/persistentvolumeclaims`, pvc('later', '1Gi', { storageClassName: 'manual' }));
    await t.post(`${NS}/pods`, podWithClaim('waiting', 'later'));
    await t.settle();
    const message = async (name: string) => (await get(`${NS}/pods/${name}`)).status.conditions[0].message;
    expect(await message('orphan')).toBe('0/3 nodes are available: 3 persistentvolumeclaim "nope" not found.');
    expect(await message('waiting')).toBe('0/3 nodes are available: 3 pod has unbound immediate PersistentVolumeClaims.');
    const onNode2 = { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-2'] }] }] } };
    await t.post('/api/v1/persistentvolumes', pv('local', '1Gi', { nodeAffinity: onNode2 }));
    await t.settle();
    expect((await get(`${NS}/pods/waiting`)).spec.nodeName).toBe('node-2');

    // WaitForFirstConsumer without a provisioner: the scheduler pre-binds a static volume on a node that fits.
    await t.post('/apis/storage.k8s.io/v1/storageclasses', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'local' }, provisioner: 'kubernetes.io/no-provisioner', volumeBindingMode: 'WaitForFirstConsumer' });
    await t.post(`${NS}/persistentvolumeclaims`, pvc('wffc', '1Gi', { storageClassName: 'local' }));
    await t.post(`${NS}/pods`, podWithClaim('nowhere', 'wffc'));
    await t.settle();
    expect(await message('nowhere')).toBe("0/3 nodes are available: 3 node(s) didn't find available persistent volumes to bind.");
    const onNode3 = { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-3'] }] }] } };
    await t.post('/api/v1/persistentvolumes', pv('local-3', '1Gi', { storageClassName: 'local', nodeAffinity: onNode3 }));
    await t.settle();
    expect((await get(`${NS}/pods/nowhere`)).spec.nodeName).toBe('node-3');
    expect((await get(`${NS}/persistentvolumeclaims/wffc`)).spec.volumeName).toBe('local-3');
  });
});
