import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, deployment, type ClusterTest } from '../testing/controllers';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const D = '/apis/apps/v1/namespaces/default/deployments';
const RS_DEFAULT = '/apis/apps/v1/namespaces/default/replicasets';
const getD = async (name = 'web') => (await t!.get(`${D}/${name}`)).json;
const replicaSets = async () => (await t!.get('/apis/apps/v1/namespaces/default/replicasets')).json.items as any[];
const pods = async () => (await t!.get('/api/v1/namespaces/default/pods')).json.items as any[];
const ready = (p: any) => p.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True');

describe('deployment controller', () => {
  it('creates a ReplicaSet named by the pod-template hash, with kube’s labels, annotations and owner', async () => {
    t = await startCluster('*', { kubeletDelayMs: 1000 });
    await t.post(D, deployment('web', 3));
    await t.settle();
    const [rs] = await replicaSets();
    const hash = rs.metadata.labels['pod-template-hash'];
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{6,10}$/);
    expect(rs.metadata.name).toBe(`web-${hash}`);
    expect(rs.metadata.annotations).toEqual({ 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4', 'deployment.kubernetes.io/revision': '1' });
    const d = await getD();
    expect(rs.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(rs.spec.selector).toEqual({ matchLabels: { app: 'web', 'pod-template-hash': hash } });
    expect(d.metadata.annotations).toEqual({ 'deployment.kubernetes.io/revision': '1' });
    // Before the kubelets report: the new ReplicaSet was created, nothing is available yet.
    expect(d.status.conditions.map((c: any) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.'],
      ['Progressing', 'True', 'ReplicaSetUpdated', `ReplicaSet "web-${hash}" is progressing.`],
    ]);
    await t.advance(1000);
    const done = await getD();
    expect(done.status).toMatchObject({ observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 });
    expect(done.status.unavailableReplicas).toBeUndefined();
    expect(done.status.conditions.map((c: any) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'],
      ['Progressing', 'True', 'NewReplicaSetAvailable', `ReplicaSet "web-${hash}" has successfully progressed.`],
    ]);
    // The Progressing condition kept its first transition time; Available moved when it turned True.
    expect(done.status.conditions[1].lastTransitionTime).toBe('2022-01-01T00:00:00Z');
    expect(done.status.conditions[0].lastTransitionTime).toBe('2022-01-01T00:00:01Z');
  });

  it('records the managedFields a v1.23 cluster does: kube-controller-manager on status (with the revision annotation) and on the ReplicaSet', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post(`${D}?fieldManager=kubectl-create`, deployment('web', 1));
    await t.settle();
    const d = await getD();
    const condition = { '.': {}, 'f:lastTransitionTime': {}, 'f:lastUpdateTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {}, 'f:type': {} };
    // Entries of the same second are ordered by manager name, as kube sorts them.
    expect(d.metadata.managedFields.map((m: any) => [m.manager, m.operation, m.subresource])).toEqual([
      ['kube-controller-manager', 'Update', 'status'],
      ['kubectl-create', 'Update', undefined],
    ]);
    expect(d.metadata.managedFields[0].fieldsV1).toEqual({
      'f:metadata': { 'f:annotations': { '.': {}, 'f:deployment.kubernetes.io/revision': {} } },
      'f:status': {
        'f:availableReplicas': {},
        'f:conditions': { '.': {}, 'k:{"type":"Available"}': condition, 'k:{"type":"Progressing"}': condition },
        'f:observedGeneration': {},
        'f:readyReplicas': {},
        'f:replicas': {},
        'f:updatedReplicas': {},
      },
    });
    const [rs] = await replicaSets();
    expect(rs.metadata.managedFields.map((m: any) => [m.manager, m.operation, m.subresource])).toEqual([
      ['kube-controller-manager', 'Update', undefined],
      ['kube-controller-manager', 'Update', 'status'],
    ]);
    expect(rs.metadata.managedFields[1].fieldsV1).toEqual({ 'f:status': { 'f:availableReplicas': {}, 'f:fullyLabeledReplicas': {}, 'f:observedGeneration': {}, 'f:readyReplicas': {}, 'f:replicas': {} } });
    const [p] = await pods();
    expect(p.metadata.managedFields.map((m: any) => [m.manager, m.operation, m.subresource])).toEqual([
      ['kube-controller-manager', 'Update', undefined],
      ['kubelet', 'Update', 'status'],
    ]);
    expect(Object.keys(p.metadata.managedFields[0].fieldsV1['f:metadata'])).toEqual(['f:generateName', 'f:labels', 'f:ownerReferences']);
    // Bound by the scheduler, so PodScheduled and the list itself are not the kubelet's.
    expect(Object.keys(p.metadata.managedFields[1].fieldsV1['f:status']['f:conditions'])).toEqual(['k:{"type":"ContainersReady"}', 'k:{"type":"Initialized"}', 'k:{"type":"Ready"}']);
    expect(Object.keys(p.metadata.managedFields[1].fieldsV1['f:status'])).toEqual(['f:conditions', 'f:containerStatuses', 'f:hostIP', 'f:phase', 'f:podIP', 'f:podIPs', 'f:startTime']);
  });

  it('rolls out a new template within maxSurge and maxUnavailable at every step', async () => {
    t = await startCluster('*', { kubeletDelayMs: 1000 });
    await t.post(D, deployment('web', 4, 'nginx', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } } }));
    await t.advance(1000);
    expect((await getD()).status.availableReplicas).toBe(4);
    await t.patch(`${D}/web`, { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } } }, 'application/strategic-merge-patch+json');
    let steps = 0;
    for (;;) {
      await t.settle();
      const all = await pods();
      expect(all.length).toBeLessThanOrEqual(5);
      expect(all.filter(ready).length).toBeGreaterThanOrEqual(3);
      const d = await getD();
      if (d.status.updatedReplicas === 4 && d.status.availableReplicas === 4 && d.status.replicas === 4) break;
      await t.advance(1000);
      expect(++steps).toBeLessThan(20);
    }
    expect(steps).toBeGreaterThan(1);
    const sets = await replicaSets();
    expect(sets.map((rs) => [rs.metadata.annotations['deployment.kubernetes.io/revision'], rs.spec.replicas]).sort()).toEqual([
      ['1', 0],
      ['2', 4],
    ]);
    expect((await pods()).every((p) => p.spec.containers[0].image === 'nginx:1.25')).toBe(true);
    const events = (await t.get('/api/v1/namespaces/default/events?fieldSelector=involvedObject.kind%3DDeployment')).json.items.map((e: any) => e.message);
    expect(events).toContainEqual(expect.stringMatching(/^Scaled up replica set web-\w+ to 4$/));
    expect(events).toContainEqual(expect.stringMatching(/^Scaled down replica set web-\w+ to 0$/));
  });

  it('Recreate scales the old pods away before the new ones start', async () => {
    t = await startCluster('*', { kubeletDelayMs: 1000 });
    await t.post(D, deployment('web', 2, 'nginx', { strategy: { type: 'Recreate' } }));
    await t.advance(1000);
    await t.patch(`${D}/web`, { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } } }, 'application/strategic-merge-patch+json');
    await t.settle();
    // The old pods are gone, and the new ReplicaSet came only after.
    const images = (await pods()).map((p) => p.spec.containers[0].image);
    expect(images.every((i) => i === 'nginx:1.25')).toBe(true);
    await t.advance(1000);
    expect((await getD()).status).toMatchObject({ replicas: 2, updatedReplicas: 2, availableReplicas: 2 });
  });

  it('scaling resizes the one active ReplicaSet and updates its annotations', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post(D, deployment('web', 2));
    await t.settle();
    await t.patch(`${D}/web/scale`, { spec: { replicas: 5 } });
    await t.settle();
    const [rs] = await replicaSets();
    expect(rs.spec.replicas).toBe(5);
    expect(rs.metadata.annotations['deployment.kubernetes.io/desired-replicas']).toBe('5');
    expect(rs.metadata.annotations['deployment.kubernetes.io/max-replicas']).toBe('7');
    expect((await pods()).length).toBe(5);
  });

  it('a paused Deployment does not roll out; resuming does, with kube’s condition reasons', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post(D, deployment('web', 2));
    await t.settle();
    await t.patch(`${D}/web`, { spec: { paused: true } });
    await t.settle();
    let d = await getD();
    expect(d.status.conditions.find((c: any) => c.type === 'Progressing')).toMatchObject({ status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' });
    await t.patch(`${D}/web`, { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } } }, 'application/strategic-merge-patch+json');
    await t.settle();
    expect(await replicaSets()).toHaveLength(1);
    await t.patch(`${D}/web`, { spec: { paused: false } });
    await t.settle();
    d = await getD();
    expect(await replicaSets()).toHaveLength(2);
    expect(d.status.updatedReplicas).toBe(2);
    expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2');
  });

  it('keeps revisionHistoryLimit old ReplicaSets', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post(D, deployment('web', 1, 'nginx', { revisionHistoryLimit: 1 }));
    await t.settle();
    for (const tag of ['1.23', '1.24', '1.25']) {
      await t.patch(`${D}/web`, { spec: { template: { spec: { containers: [{ name: 'nginx', image: `nginx:${tag}` }] } } } }, 'application/strategic-merge-patch+json');
      await t.settle();
    }
    const revisions = (await replicaSets()).map((rs) => rs.metadata.annotations['deployment.kubernetes.io/revision']).sort();
    expect(revisions).toEqual(['3', '4']);
  });

  it('reports ProgressDeadlineExceeded when pods never become ready in time', async () => {
    t = await startCluster('deployment,replicaset');
    await t.post(D, deployment('web', 1, 'nginx', { progressDeadlineSeconds: 10 }));
    await t.settle();
    await t.advance(12_000);
    const c = (await getD()).status.conditions.find((x: any) => x.type === 'Progressing');
    expect(c).toMatchObject({ status: 'False', reason: 'ProgressDeadlineExceeded' });
    expect(c.message).toMatch(/^ReplicaSet "web-\w+" has timed out progressing\.$/);
  });
});

describe('deployment controller: hash collisions', () => {
  it('counts a collision with another template’s ReplicaSet in status.collisionCount and takes the next hash', async () => {
    t = await startCluster('deployment', { kubeletDelayMs: 0 });
    // The same Deployment in another namespace shows the name its ReplicaSet will want.
    await t.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'scratch' } });
    await t.post('/apis/apps/v1/namespaces/scratch/deployments', deployment('web', 1));
    await t.settle();
    const wanted = (await t.get('/apis/apps/v1/namespaces/scratch/replicasets')).json.items[0].metadata.name;
    const squatter = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: wanted }, spec: { replicas: 0, selector: { matchLabels: { other: 'x' } }, template: { metadata: { labels: { other: 'x' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } } };
    expect((await t.post(RS_DEFAULT, squatter)).status).toBe(201);
    await t.post(D, deployment('web', 1));
    await t.settle();
    await t.advance(60_000);
    const web = await getD();
    expect(web.status.collisionCount).toBe(1);
    const mine = (await replicaSets()).filter((rs) => rs.metadata.ownerReferences?.[0]?.name === 'web');
    expect(mine).toHaveLength(1);
    expect(mine[0].metadata.name).not.toBe(wanted);
    expect(mine[0].metadata.name).toBe(`web-${mine[0].metadata.labels['pod-template-hash']}`);
  });
});
