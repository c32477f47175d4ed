import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const RS = '/apis/apps/v1/namespaces/default/replicasets';
const replicaSet = (name: string, replicas: number, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name },
  spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }, ...extra },
});
const pods = async () => (await t!.get('/api/v1/namespaces/default/pods')).json.items as any[];

describe('replicaset controller', () => {
  it('creates pods from the template, owned by the ReplicaSet, and reports their readiness', async () => {
    t = await startCluster('*', { kubeletDelayMs: 1000 });
    await t.post(RS, replicaSet('web', 2));
    await t.settle();
    const rs = (await t.get(`${RS}/web`)).json;
    const ps = await pods();
    expect(ps).toHaveLength(2);
    for (const p of ps) {
      expect(p.metadata.generateName).toBe('web-');
      expect(p.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
      expect(p.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    }
    expect(rs.status).toEqual({ replicas: 2, fullyLabeledReplicas: 2, observedGeneration: 1 });
    await t.advance(1000);
    expect((await t.get(`${RS}/web`)).json.status).toEqual({ replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 });
    const events = (await t.get('/api/v1/namespaces/default/events?fieldSelector=involvedObject.kind%3DReplicaSet')).json.items;
    expect(events.map((e: any) => [e.reason, e.source.component]).sort()).toEqual([
      ['SuccessfulCreate', 'replicaset-controller'],
      ['SuccessfulCreate', 'replicaset-controller'],
    ]);
    const users = t.api.audit!.events().filter((e) => e.verb === 'create' && e.objectRef?.resource === 'pods' && !e.objectRef.subresource).map((e) => e.user.username);
    expect(new Set(users)).toEqual(new Set(['system:serviceaccount:kube-system:replicaset-controller']));
  });

  it('counts a pod available only after minReadySeconds', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post(RS, replicaSet('web', 1, { minReadySeconds: 5 }));
    await t.settle();
    expect((await t.get(`${RS}/web`)).json.status).toMatchObject({ readyReplicas: 1 });
    expect((await t.get(`${RS}/web`)).json.status.availableReplicas).toBeUndefined();
    await t.advance(5000);
    expect((await t.get(`${RS}/web`)).json.status.availableReplicas).toBe(1);
  });

  it('scales down the least settled pods first: unscheduled before running', async () => {
    t = await startCluster('nodes,kubelet,replicaset', { kubeletDelayMs: 0 });
    await t.post(RS, replicaSet('web', 3));
    await t.settle();
    // No scheduler runs: bind two pods by hand so one stays unscheduled.
    const [a, b] = (await pods()).map((p) => p.metadata.name);
    for (const [name, node] of [[a, 'node-1'], [b, 'node-2']]) {
      await t.post(`/api/v1/namespaces/default/pods/${name}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Node', name: node } });
    }
    await t.settle();
    await t.patch(`${RS}/web`, { spec: { replicas: 2 } });
    await t.settle();
    expect((await pods()).map((p) => p.metadata.name).sort()).toEqual([a, b].sort());
  });

  it('adopts a matching orphan pod instead of creating one, and releases a pod that stops matching', async () => {
    t = await startCluster('replicaset');
    await t.post('/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'orphan', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    await t.post(RS, replicaSet('web', 1));
    await t.settle();
    const ps = await pods();
    expect(ps.map((p) => p.metadata.name)).toEqual(['orphan']);
    expect(ps[0].metadata.ownerReferences[0]).toMatchObject({ kind: 'ReplicaSet', name: 'web', controller: true });
    await t.patch('/api/v1/namespaces/default/pods/orphan', { metadata: { labels: { app: 'other' } } });
    await t.settle();
    const after = await pods();
    expect(after.find((p) => p.metadata.name === 'orphan').metadata.ownerReferences).toBeUndefined();
    expect(after).toHaveLength(2);
  });
});
