import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const PODS = '/api/v1/namespaces/default/pods';
const pod = (name: string, nodeName: string, restartPolicy = 'Never') => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName, restartPolicy, containers: [{ name: 'c', image: 'busybox' }] } });
const names = async () => ((await t!.get(PODS)).json.items as any[]).map((p) => p.metadata.name).sort();

describe('podgc controller', () => {
  it('deletes the oldest terminated pods over the threshold, as the pod-garbage-collector', async () => {
    t = await startCluster('nodes,kubelet,podgc', { kubeletDelayMs: 0, jobRunMs: 1000, terminatedPodGCThreshold: 2 });
    for (const name of ['a', 'b', 'c']) {
      await t.post(PODS, pod(name, 'node-1'));
      await t.advance(1000);
    }
    await t.post(PODS, pod('web', 'node-1', 'Always'));
    await t.advance(2000);
    // a, b and c finished; a is the oldest, and running pods never count.
    expect(await names()).toEqual(['b', 'c', 'web']);
    const deletes = t.api.audit!.events().filter((e) => e.verb === 'delete' && e.objectRef?.resource === 'pods').map((e) => [e.user.username, e.objectRef?.name]);
    expect(deletes).toEqual([['system:serviceaccount:kube-system:pod-garbage-collector', 'a']]);
  });

  it('leaves terminated pods alone with the threshold at 0', async () => {
    t = await startCluster('nodes,kubelet,podgc', { kubeletDelayMs: 0, terminatedPodGCThreshold: 0 });
    for (const name of ['a', 'b']) await t.post(PODS, pod(name, 'node-1'));
    await t.advance(5000);
    expect(await names()).toEqual(['a', 'b']);
  });

  it('deletes pods bound to a node that has been gone for the 40 s quarantine', async () => {
    t = await startCluster('podgc');
    await t.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'gone' } });
    await t.post(PODS, pod('on-gone', 'gone', 'Always'));
    await t.post(PODS, pod('on-missing', 'never-was', 'Always'));
    await t.settle();
    await t.del('/api/v1/nodes/gone');
    await t.advance(39_999);
    expect(await names()).toEqual(['on-gone', 'on-missing']);
    await t.advance(1);
    expect(await names()).toEqual([]);
  });
});
