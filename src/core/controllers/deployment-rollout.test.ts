import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, deployment, type ClusterTest } from '../testing/controllers';
import { watchPods } from '../testing/rollout-invariants';
import { withRevisionHistory } from './deployment-replicasets';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const D = '/apis/apps/v1/namespaces/default/deployments';
const SMP = 'application/strategic-merge-patch+json';
const replicaSets = async () => (await t!.get('/apis/apps/v1/namespaces/default/replicasets')).json.items as any[];
const image = (tag: string) => ({ spec: { template: { spec: { containers: [{ name: 'nginx', image: `nginx:${tag}` }] } } } });

describe('deployment rollouts seen from a watch', () => {
  for (const [maxSurge, maxUnavailable] of [
    [1, 1],
    [2, 0],
    [0, 2],
    ['50%', '25%'],
  ] as const) {
    it(`never more than replicas + maxSurge pods, never fewer than replicas − maxUnavailable available (maxSurge ${maxSurge}, maxUnavailable ${maxUnavailable})`, async () => {
      t = await startCluster('*', { kubeletDelayMs: 1000 });
      const replicas = 6;
      await t.post(D, deployment('web', replicas, 'nginx:1.24', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } } }));
      await t.advance(2000);
      const surge = typeof maxSurge === 'number' ? maxSurge : Math.ceil((replicas * parseInt(maxSurge)) / 100);
      const unavailable = typeof maxUnavailable === 'number' ? maxUnavailable : Math.floor((replicas * parseInt(maxUnavailable)) / 100);
      const watch = await watchPods(t, 'default', 'app=web', () => t!.clock.now());
      await t.patch(`${D}/web`, image('1.25'), SMP);
      for (let i = 0; i < 15; i++) await t.advance(1000);
      let most = 0;
      let fewest = Infinity;
      const checked = watch.checkEach((c) => {
        most = Math.max(most, c.pods);
        fewest = Math.min(fewest, c.available);
      });
      watch.stop();
      expect(checked).toBeGreaterThan(replicas * 2);
      expect(most).toBeLessThanOrEqual(replicas + surge);
      expect(fewest).toBeGreaterThanOrEqual(replicas - unavailable);
      const d = (await t.get(`${D}/web`)).json;
      expect(d.status).toMatchObject({ replicas, updatedReplicas: replicas, availableReplicas: replicas, observedGeneration: 2 });
    });
  }

  it('rolling back (kubectl rollout undo copies the old template) gives the old ReplicaSet the next revision and records revision-history', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post(D, deployment('web', 2, 'nginx:1.24'));
    await t.settle();
    await t.patch(`${D}/web`, image('1.25'), SMP);
    await t.settle();
    await t.patch(`${D}/web`, image('1.24'), SMP);
    await t.settle();
    const sets = (await replicaSets()).map((rs) => [rs.spec.template.spec.containers[0].image, rs.metadata.annotations['deployment.kubernetes.io/revision'], rs.metadata.annotations['deployment.kubernetes.io/revision-history'], rs.spec.replicas]).sort();
    expect(sets).toEqual([
      ['nginx:1.24', '3', '1', 2],
      ['nginx:1.25', '2', undefined, 0],
    ]);
    const d = (await t.get(`${D}/web`)).json;
    expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('3');
    expect(d.status.conditions.find((c: any) => c.type === 'Progressing').reason).toBe('NewReplicaSetAvailable');
  });

  it('shows a ReplicaSet’s ReplicaFailure (a quota refusing pods) on the Deployment, and clears it once the pods fit', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post('/api/v1/namespaces/default/resourcequotas', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'pods' }, spec: { hard: { pods: '1' } } });
    await t.settle();
    await t.post(D, deployment('web', 2, 'nginx:1.24'));
    await t.settle();
    const [rs] = await replicaSets();
    const rsFailure = rs.status.conditions.find((c: any) => c.type === 'ReplicaFailure');
    expect(rsFailure).toMatchObject({ status: 'True', reason: 'FailedCreate' });
    const d = (await t.get(`${D}/web`)).json;
    const failure = d.status.conditions.find((c: any) => c.type === 'ReplicaFailure');
    expect(failure).toEqual({ type: 'ReplicaFailure', status: 'True', lastUpdateTime: rsFailure.lastTransitionTime, lastTransitionTime: rsFailure.lastTransitionTime, reason: 'FailedCreate', message: rsFailure.message });
    expect(failure.message).toContain('exceeded quota: pods');
    await t.del('/api/v1/namespaces/default/resourcequotas/pods');
    await t.advance(60_000);
    const after = (await t.get(`${D}/web`)).json;
    expect(after.status.conditions.map((c: any) => c.type)).toEqual(['Available', 'Progressing']);
    expect(after.status.availableReplicas).toBe(2);
  });

  it('keeps revision-history within 2000 characters, dropping the oldest numbers', () => {
    expect(withRevisionHistory('4', undefined)).toBe('4');
    expect(withRevisionHistory('4', '1,2')).toBe('1,2,4');
    const long = Array.from({ length: 500 }, (_, i) => String(1000 + i)).join(',');
    const next = withRevisionHistory('9999', long)!;
    expect(next.length).toBeLessThanOrEqual(2000);
    expect(next.endsWith(',9999')).toBe(true);
    expect(next.startsWith('1000,')).toBe(false);
  });
});
