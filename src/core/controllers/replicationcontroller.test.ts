import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const RC = '/api/v1/namespaces/default/replicationcontrollers';
const rc = (name: string, replicas: number) => ({
  apiVersion: 'v1',
  kind: 'ReplicationController',
  metadata: { name },
  spec: { replicas, selector: { app: name }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
});
const pods = async () => (await t!.get('/api/v1/namespaces/default/pods')).json.items as any[];

describe('replicationcontroller controller', () => {
  it('keeps spec.replicas pods owned by the v1 ReplicationController and reports their readiness', async () => {
    t = await startCluster('*', { kubeletDelayMs: 1000 });
    await t.post(RC, rc('web', 2));
    await t.settle();
    const made = (await t.get(`${RC}/web`)).json;
    const ps = await pods();
    expect(ps).toHaveLength(2);
    for (const p of ps) {
      expect(p.metadata.generateName).toBe('web-');
      expect(p.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'ReplicationController', name: 'web', uid: made.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    }
    expect(made.status).toEqual({ replicas: 2, fullyLabeledReplicas: 2, observedGeneration: 1 });
    await t.advance(1000);
    expect((await t.get(`${RC}/web`)).json.status).toEqual({ replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 });
    await t.patch(`${RC}/web`, { spec: { replicas: 1 } });
    await t.settle();
    expect(await pods()).toHaveLength(1);
    const events = (await t.get('/api/v1/namespaces/default/events?fieldSelector=involvedObject.kind%3DReplicationController')).json.items.map((e: any) => [e.reason, e.source.component, e.involvedObject.apiVersion]);
    expect(events).toContainEqual(['SuccessfulCreate', 'replication-controller', 'v1']);
    expect(events).toContainEqual(['SuccessfulDelete', 'replication-controller', 'v1']);
    const writers = t.api.audit!.events().filter((e) => e.objectRef?.resource === 'replicationcontrollers' && e.objectRef.subresource === 'status').map((e) => e.user.username);
    expect(new Set(writers)).toEqual(new Set(['system:serviceaccount:kube-system:replication-controller']));
    const entry = (await t.get(`${RC}/web`)).json.metadata.managedFields.find((m: any) => m.manager === 'kube-controller-manager');
    expect(entry).toMatchObject({ operation: 'Update', apiVersion: 'v1', subresource: 'status' });
    expect(entry.fieldsV1).toEqual({ 'f:status': { 'f:availableReplicas': {}, 'f:fullyLabeledReplicas': {}, 'f:observedGeneration': {}, 'f:readyReplicas': {}, 'f:replicas': {} } });
  });

  it('starts with the status kube’s strategy gives it and writes the ReplicaSet path’s after its first sync', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    const RS = '/apis/apps/v1/namespaces/default/replicasets';
    const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'idle' }, spec: { replicas: 0, selector: { matchLabels: { app: 'idle' } }, template: rc('idle', 0).spec.template } };
    expect((await t.post(RC, rc('idle', 0))).json.status).toEqual({ replicas: 0 });
    expect((await t.post(RS, rs)).json.status).toEqual({ replicas: 0 });
    await t.settle();
    const synced = { replicas: 0, observedGeneration: 1 };
    expect((await t.get(`${RC}/idle`)).json.status).toEqual(synced);
    expect((await t.get(`${RS}/idle`)).json.status).toEqual(synced);
  });

  it('adopts a matching orphan and leaves a ReplicaSet’s pods alone', async () => {
    t = await startCluster('replicationcontroller');
    await t.post('/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'orphan', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    await t.post(RC, rc('web', 1));
    await t.settle();
    const ps = await pods();
    expect(ps.map((p) => p.metadata.name)).toEqual(['orphan']);
    expect(ps[0].metadata.ownerReferences[0]).toMatchObject({ apiVersion: 'v1', kind: 'ReplicationController', name: 'web' });
  });

  it('reports a create the API refuses in a ReplicaFailure condition, and drops it once the pods fit', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post('/api/v1/namespaces/default/resourcequotas', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'pods' }, spec: { hard: { pods: '1' } } });
    await t.settle();
    await t.post(RC, rc('web', 2));
    await t.settle();
    const status = (await t.get(`${RC}/web`)).json.status;
    expect(status.replicas).toBe(1);
    expect(status.conditions).toHaveLength(1);
    expect(status.conditions[0]).toMatchObject({ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate' });
    expect(status.conditions[0].message).toMatch(/^pods "web-\w*" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=1, limited: pods=1$/);
    await t.patch(`${RC}/web`, { spec: { replicas: 1 } });
    await t.advance(60_000);
    expect((await t.get(`${RC}/web`)).json.status.conditions).toBeUndefined();
  });
});
