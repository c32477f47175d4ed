import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';
import { watchPods } from '../testing/rollout-invariants';
import { collectStream } from '../testing/api-server';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const STS = '/apis/apps/v1/namespaces/default/statefulsets';
const statefulSet = (name: string, replicas: number, extra: Record<string, unknown> = {}, image = 'nginx:1.21') => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name },
  spec: { replicas, serviceName: name, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image }] } }, ...extra },
});
const pods = async () => ((await t!.get('/api/v1/namespaces/default/pods')).json.items as any[]).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
const getSet = async (name = 'web') => (await t!.get(`${STS}/${name}`)).json;
const revisions = async () => ((await t!.get('/apis/apps/v1/namespaces/default/controllerrevisions')).json.items as any[]).sort((a, b) => a.revision - b.revision);

describe('statefulset controller', () => {
  it('creates pods one ordinal at a time, each after its predecessor is running and ready (OrderedReady)', async () => {
    t = await startCluster('*', { kubeletDelayMs: 1000 });
    await t.post(STS, statefulSet('web', 3));
    await t.settle();
    expect((await pods()).map((p) => p.metadata.name)).toEqual(['web-0']);
    await t.advance(1000);
    expect((await pods()).map((p) => p.metadata.name)).toEqual(['web-0', 'web-1']);
    await t.advance(1000);
    await t.advance(1000);
    const ps = await pods();
    expect(ps.map((p) => p.metadata.name)).toEqual(['web-0', 'web-1', 'web-2']);
    const set = await getSet();
    const [rev] = await revisions();
    expect(rev.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{6,10}$/);
    expect(rev.revision).toBe(1);
    expect(rev.metadata.labels).toEqual({ app: 'web', 'controller.kubernetes.io/hash': rev.metadata.name.slice(4) });
    expect(rev.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: set.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(rev.data.spec.template.$patch).toBe('replace');
    const p0 = ps[0];
    expect(p0.metadata.generateName).toBe('web-');
    expect(p0.metadata.labels).toEqual({ app: 'web', 'controller-revision-hash': rev.metadata.name, 'statefulset.kubernetes.io/pod-name': 'web-0' });
    expect(p0.spec.hostname).toBe('web-0');
    expect(p0.spec.subdomain).toBe('web');
    expect(set.status).toEqual({ observedGeneration: 1, replicas: 3, readyReplicas: 3, availableReplicas: 3, currentReplicas: 3, updatedReplicas: 3, currentRevision: rev.metadata.name, updateRevision: rev.metadata.name, collisionCount: 0 });
    const events = (await t.get('/api/v1/namespaces/default/events?fieldSelector=involvedObject.kind%3DStatefulSet')).json.items.map((e: any) => [e.reason, e.message, e.source.component]);
    expect(events).toContainEqual(['SuccessfulCreate', 'create Pod web-0 in StatefulSet web successful', 'statefulset-controller']);
  });

  it('Parallel creates every pod at once and scales down from the highest ordinal', async () => {
    t = await startCluster('*', { kubeletDelayMs: 1000 });
    await t.post(STS, statefulSet('web', 3, { podManagementPolicy: 'Parallel' }));
    await t.settle();
    expect((await pods()).map((p) => p.metadata.name)).toEqual(['web-0', 'web-1', 'web-2']);
    await t.advance(1000);
    await t.patch(`${STS}/web`, { spec: { replicas: 1 } });
    await t.settle();
    expect((await pods()).map((p) => p.metadata.name)).toEqual(['web-0']);
    expect((await getSet()).status).toMatchObject({ replicas: 1, readyReplicas: 1 });
  });

  it('makes claims from volumeClaimTemplates before the pod and keeps them when scaling down', async () => {
    // As kube-scheduler's VolumeBinding, the scheduler places a pod only once its claims can be
    // bound: without the PV binder and a provisioner (the default StorageClass comes with the
    // storage add-on) db-0 would stay Pending and OrderedReady would never make db-1.
    t = await startCluster('nodes,kubelet,scheduler,statefulset,persistentvolume-binder,storage-provisioner', { kubeletDelayMs: 0 });
    // The claims as the statefulset controller made them: their first watch event, before the
    // scheduler, binder and provisioner annotate and bind them.
    const list = (await t.get('/api/v1/namespaces/default/persistentvolumeclaims')).json;
    const claimWatch = collectStream((await t.request('GET', `/api/v1/namespaces/default/persistentvolumeclaims?watch=1&resourceVersion=${list.metadata.resourceVersion}`)).raw);
    const claim = { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    await t.post(STS, statefulSet('db', 2, { volumeClaimTemplates: [claim] }));
    await t.advance(10);
    const claims = async () => ((await t!.get('/api/v1/namespaces/default/persistentvolumeclaims')).json.items as any[]).map((c) => [c.metadata.name, c.metadata.labels]).sort();
    expect(await claims()).toEqual([
      ['data-db-0', { app: 'db' }],
      ['data-db-1', { app: 'db' }],
    ]);
    const bound = ((await t.get('/api/v1/namespaces/default/persistentvolumeclaims')).json.items as any[]).map((c) => [c.metadata.name, c.spec.storageClassName, c.status.phase]);
    expect(bound).toEqual([
      ['data-db-0', 'standard', 'Bound'],
      ['data-db-1', 'standard', 'Bound'],
    ]);
    // The claims are the controller's: one Update entry of kube-controller-manager, labels and spec.
    claimWatch.cancel();
    const pvc = claimWatch.events.find((e) => e.type === 'ADDED' && e.object.metadata.name === 'data-db-0')!.object;
    expect(pvc.metadata.managedFields.map((m: any) => [m.manager, m.operation, m.subresource])).toEqual([['kube-controller-manager', 'Update', undefined]]);
    expect(pvc.metadata.managedFields[0].fieldsV1['f:metadata']).toEqual({ 'f:labels': { '.': {}, 'f:app': {} } });
    expect(Object.keys(pvc.metadata.managedFields[0].fieldsV1['f:spec'])).toEqual(expect.arrayContaining(['f:accessModes', 'f:resources']));
    const [rev] = await revisions();
    expect(rev.metadata.managedFields.map((m: any) => [m.manager, m.operation])).toEqual([['kube-controller-manager', 'Update']]);
    expect(rev.metadata.managedFields[0].fieldsV1['f:metadata']).toEqual({ 'f:labels': { '.': {}, 'f:app': {}, 'f:controller.kubernetes.io/hash': {} }, 'f:ownerReferences': expect.any(Object) });
    const p1 = (await pods()).find((p) => p.metadata.name === 'db-1');
    expect(p1.spec.volumes[0]).toEqual({ name: 'data', persistentVolumeClaim: { claimName: 'data-db-1' } });
    await t.patch(`${STS}/db`, { spec: { replicas: 0 } });
    await t.advance(10);
    expect(await pods()).toEqual([]);
    expect((await claims()).map((c) => c[0])).toEqual(['data-db-0', 'data-db-1']);
  });

  it('rolls from the highest ordinal down, stops at the partition, and moves currentRevision when done', async () => {
    t = await startCluster('*', { kubeletDelayMs: 1000 });
    await t.post(STS, statefulSet('web', 3, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } }));
    await t.advance(3000);
    const first = (await getSet()).status.currentRevision;
    await t.patch(`${STS}/web`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.22' }] } } } });
    await t.advance(5000);
    const images = async () => (await pods()).map((p) => [p.metadata.name, p.spec.containers[0].image]);
    expect(await images()).toEqual([
      ['web-0', 'nginx:1.21'],
      ['web-1', 'nginx:1.22'],
      ['web-2', 'nginx:1.22'],
    ]);
    const mid = (await getSet()).status;
    expect(mid.currentRevision).toBe(first);
    expect(mid).toMatchObject({ currentReplicas: 1, updatedReplicas: 2, readyReplicas: 3 });
    expect((await revisions()).map((r) => r.revision)).toEqual([1, 2]);
    await t.patch(`${STS}/web`, { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } });
    await t.advance(3000);
    expect((await images()).every(([, image]) => image === 'nginx:1.22')).toBe(true);
    const done = (await getSet()).status;
    expect(done.currentRevision).toBe(done.updateRevision);
    expect(done).toMatchObject({ currentReplicas: 3, updatedReplicas: 3 });
    // Rolling back to the first template renumbers its revision instead of making a third.
    await t.patch(`${STS}/web`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.21' }] } } } });
    await t.advance(5000);
    const revs = await revisions();
    expect(revs.map((r) => [r.metadata.name, r.revision])).toEqual([
      [done.updateRevision, 2],
      [first, 3],
    ]);
    expect((await getSet()).status.currentRevision).toBe(first);
  });

  it('a rolling update takes down one pod at a time, highest ordinal first, checked at every watch event', async () => {
    t = await startCluster('*', { kubeletDelayMs: 1000 });
    await t.post(STS, statefulSet('web', 4));
    for (let i = 0; i < 4; i++) await t.advance(1000);
    const watch = await watchPods(t, 'default', 'app=web', () => t!.clock.now());
    await t.patch(`${STS}/web`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.22' }] } } } });
    for (let i = 0; i < 12; i++) await t.advance(1000);
    const deleted: string[] = [];
    const checked = watch.checkEach((c, e) => {
      expect(c.pods).toBeLessThanOrEqual(4);
      expect(c.available).toBeGreaterThanOrEqual(3);
      if (e.type === 'DELETED') deleted.push(e.object.metadata.name);
    });
    watch.stop();
    expect(checked).toBeGreaterThan(8);
    expect(deleted).toEqual(['web-3', 'web-2', 'web-1', 'web-0']);
    expect((await pods()).every((p) => p.spec.containers[0].image === 'nginx:1.22')).toBe(true);
  });

  it('OnDelete leaves running pods alone; a deleted pod comes back at the update revision', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post(STS, statefulSet('web', 2, { updateStrategy: { type: 'OnDelete' } }));
    await t.advance(10);
    await t.patch(`${STS}/web`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.22' }] } } } });
    await t.advance(10);
    expect((await pods()).map((p) => p.spec.containers[0].image)).toEqual(['nginx:1.21', 'nginx:1.21']);
    await t.del('/api/v1/namespaces/default/pods/web-1');
    await t.advance(10);
    expect((await pods()).map((p) => p.spec.containers[0].image)).toEqual(['nginx:1.21', 'nginx:1.22']);
    expect((await getSet()).status).toMatchObject({ currentReplicas: 1, updatedReplicas: 1 });
  });

  it('records kube-controller-manager as the manager of the status and of the pods it makes', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post(STS, statefulSet('web', 1));
    await t.advance(10);
    const set = await getSet();
    const entry = set.metadata.managedFields.find((m: any) => m.manager === 'kube-controller-manager');
    expect(entry).toMatchObject({ operation: 'Update', apiVersion: 'apps/v1', subresource: 'status' });
    expect(entry.fieldsV1).toEqual({
      'f:status': { 'f:availableReplicas': {}, 'f:collisionCount': {}, 'f:currentReplicas': {}, 'f:currentRevision': {}, 'f:observedGeneration': {}, 'f:readyReplicas': {}, 'f:replicas': {}, 'f:updateRevision': {}, 'f:updatedReplicas': {} },
    });
    const [pod] = await pods();
    const podEntry = pod.metadata.managedFields.find((m: any) => m.manager === 'kube-controller-manager');
    expect(podEntry.operation).toBe('Update');
    expect(Object.keys(podEntry.fieldsV1['f:metadata']).sort()).toEqual(['f:generateName', 'f:labels', 'f:ownerReferences']);
    expect(podEntry.fieldsV1['f:spec']['f:hostname']).toEqual({});
    expect(podEntry.fieldsV1['f:spec']['f:subdomain']).toEqual({});
    const audit = t.api.audit!.events().filter((e) => e.objectRef?.resource === 'statefulsets' && e.objectRef.subresource === 'status');
    expect(new Set(audit.map((e) => e.user.username))).toEqual(new Set(['system:serviceaccount:kube-system:statefulset-controller']));
  });

  it('OrderedReady waits minReadySeconds after each pod is ready before the next, and counts availableReplicas', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post(STS, statefulSet('web', 2, { minReadySeconds: 5 }));
    await t.settle();
    expect((await pods()).map((p) => p.metadata.name)).toEqual(['web-0']);
    expect((await getSet()).status).toMatchObject({ readyReplicas: 1, availableReplicas: 0 });
    await t.advance(5000);
    expect((await pods()).map((p) => p.metadata.name)).toEqual(['web-0', 'web-1']);
    await t.advance(5000);
    expect((await getSet()).status).toMatchObject({ readyReplicas: 2, availableReplicas: 2 });
  });

  it('deletes a failed pod and makes it again under the same name', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post(STS, statefulSet('web', 1));
    await t.settle();
    const before = (await pods())[0];
    await t.patch('/api/v1/namespaces/default/pods/web-0/status', { status: { phase: 'Failed' } });
    await t.settle();
    const after = (await pods())[0];
    expect(after.metadata.name).toBe('web-0');
    expect(after.metadata.uid).not.toBe(before.metadata.uid);
    expect(after.status.phase).toBe('Running');
    const reasons = (await t.get('/api/v1/namespaces/default/events?fieldSelector=involvedObject.kind%3DStatefulSet')).json.items.map((e: any) => e.message);
    expect(reasons).toContain('delete Pod web-0 in StatefulSet web successful');
  });

  it('a foreign pod holding an ordinal’s name is reported with FailedCreate, and the ordinal is made once it goes', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post('/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', labels: { app: 'other' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    await t.settle();
    await t.post(STS, statefulSet('web', 1));
    await t.advance(100);
    const messages = (await t.get('/api/v1/namespaces/default/events?fieldSelector=involvedObject.kind%3DStatefulSet')).json.items.map((e: any) => [e.type, e.reason, e.message]);
    expect(messages).toContainEqual(['Warning', 'FailedCreate', 'create Pod web-0 in StatefulSet web failed error: pods "web-0" already exists']);
    await t.del('/api/v1/namespaces/default/pods/web-0');
    await t.advance(60_000);
    const [pod] = await pods();
    expect(pod.metadata.labels.app).toBe('web');
    expect(pod.metadata.ownerReferences[0].kind).toBe('StatefulSet');
  });

  it('with RBAC on, the statefulset, daemon-set and replication controllers are authorized by their bootstrap roles', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0, nodes: 2 }, { authorization: 'RBAC' });
    const claim = { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    expect((await t.post(STS, statefulSet('web', 2, { volumeClaimTemplates: [claim] }))).status).toBe(201);
    const ds = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'logs' }, spec: { selector: { matchLabels: { app: 'logs' } }, template: { metadata: { labels: { app: 'logs' } }, spec: { containers: [{ name: 'c', image: 'fluentd' }] } } } };
    expect((await t.post('/apis/apps/v1/namespaces/default/daemonsets', ds)).status).toBe(201);
    const rc = { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'old' }, spec: { replicas: 1, selector: { app: 'old' }, template: { metadata: { labels: { app: 'old' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
    expect((await t.post('/api/v1/namespaces/default/replicationcontrollers', rc)).status).toBe(201);
    await t.advance(100);
    expect((await getSet()).status.readyReplicas).toBe(2);
    expect((await t.get('/apis/apps/v1/namespaces/default/daemonsets/logs')).json.status.numberReady).toBe(2);
    expect((await t.get('/api/v1/namespaces/default/replicationcontrollers/old')).json.status.readyReplicas).toBe(1);
    expect(t.api.audit!.events().filter((e) => e.responseStatus?.code === 403)).toEqual([]);
    const roles = (await t.get('/apis/rbac.authorization.k8s.io/v1/clusterroles')).json.items.map((r: any) => r.metadata.name);
    expect(roles).toEqual(expect.arrayContaining(['system:controller:statefulset-controller', 'system:controller:daemon-set-controller', 'system:controller:replication-controller']));
  });
});
