import { afterEach, describe, expect, it } from 'vitest';
import { deployment, startCluster, type ClusterTest } from '../testing/controllers';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const node = async (name: string) => (await t!.get(`/api/v1/nodes/${name}`)).json;
const ready = (n: any) => n.status.conditions.find((c: any) => c.type === 'Ready');
const pods = async () => (await t!.get('/api/v1/namespaces/default/pods')).json.items as any[];
const stopKubelet = (name: string, state: string | null) => t!.patch(`/api/v1/nodes/${name}`, { metadata: { annotations: { 'kube-playground.io/kubelet': state } } });

describe('node lifecycle controller', () => {
  it('gives pods the DefaultTolerationSeconds tolerations unless they tolerate the taints already', async () => {
    t = await startCluster('nodes');
    const plain = (await t.post('/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } })).json;
    expect(plain.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    const own = [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }];
    const tolerant = (await t.post('/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'q' }, spec: { containers: [{ name: 'c', image: 'nginx' }], tolerations: own } })).json;
    expect(tolerant.spec.tolerations).toEqual([...own, { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }]);
  });

  it('a stopped kubelet: Unknown after 40 s, taints, pods not Ready, evicted after 300 s and replaced elsewhere; taints go when it is back', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post('/apis/apps/v1/namespaces/default/deployments', deployment('web', 3));
    await t.settle();
    const onNode1 = (await pods()).filter((p) => p.spec.nodeName === 'node-1');
    expect(onNode1).toHaveLength(1);

    await stopKubelet('node-1', 'stopped');
    await t.advance(30_000);
    expect(ready(await node('node-1')).status).toBe('True');
    await t.advance(15_000);
    const n1 = await node('node-1');
    expect(ready(n1)).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    expect(n1.status.conditions.map((c: any) => c.status)).toEqual(['Unknown', 'Unknown', 'Unknown', 'Unknown']);
    expect(n1.spec.taints).toEqual([
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: expect.stringMatching(/Z$/) },
    ]);
    const managers = n1.metadata.managedFields.map((m: any) => `${m.manager}/${m.operation}/${m.subresource ?? ''}`);
    expect(managers).toEqual(expect.arrayContaining(['kube-controller-manager/Update/status', 'kube-controller-manager/Update/']));
    const victim = (await pods()).find((p) => p.metadata.uid === onNode1[0].metadata.uid);
    expect(victim.status.conditions.find((c: any) => c.type === 'Ready').status).toBe('False');
    const events = (await t.get('/api/v1/namespaces/default/events')).json.items.map((e: any) => [e.reason, e.involvedObject.kind, e.message, e.source.component]);
    expect(events).toEqual(expect.arrayContaining([['NodeNotReady', 'Node', 'Node node-1 status is now: NodeNotReady', 'node-controller'], ['NodeNotReady', 'Pod', 'Node is not ready', 'node-controller']]));

    // New pods go elsewhere; the pod on node-1 stays for its 300 s of tolerance.
    await t.advance(250_000);
    expect((await pods()).some((p) => p.metadata.uid === onNode1[0].metadata.uid)).toBe(true);
    await t.advance(60_000);
    const after = await pods();
    expect(after.some((p) => p.metadata.uid === onNode1[0].metadata.uid)).toBe(false);
    expect(after).toHaveLength(3);
    expect(after.every((p) => p.spec.nodeName !== 'node-1')).toBe(true);
    const evicted = (await t.get('/api/v1/namespaces/default/events?fieldSelector=reason%3DTaintManagerEviction')).json.items;
    expect(evicted.map((e: any) => e.message)).toEqual([`Marking for deletion Pod default/${onNode1[0].metadata.name}`]);

    // Back: Ready again, the taints removed.
    await stopKubelet('node-1', null);
    await t.settle();
    const back = await node('node-1');
    expect(ready(back)).toMatchObject({ status: 'True', reason: 'KubeletReady' });
    expect(back.spec.taints).toBeUndefined();
  });

  it('a kubelet reporting NotReady gets the not-ready taints; a cordoned node the unschedulable taint', async () => {
    t = await startCluster('nodes,nodelifecycle');
    await stopKubelet('node-2', 'not-ready');
    await t.patch('/api/v1/nodes/node-3', { spec: { unschedulable: true } });
    await t.settle();
    const n2 = await node('node-2');
    expect(ready(n2)).toMatchObject({ status: 'False', reason: 'KubeletNotReady' });
    expect(n2.spec.taints.map((x: any) => `${x.key}:${x.effect}`)).toEqual(['node.kubernetes.io/not-ready:NoSchedule', 'node.kubernetes.io/not-ready:NoExecute']);
    expect((await node('node-3')).spec.taints).toEqual([{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }]);
    await t.patch('/api/v1/nodes/node-3', { spec: { unschedulable: null } });
    await stopKubelet('node-2', null);
    await t.settle();
    expect((await node('node-2')).spec.taints).toBeUndefined();
    expect((await node('node-3')).spec.taints).toBeUndefined();
  });

  it('stops evicting when every node is down (full disruption)', async () => {
    t = await startCluster('nodes,nodelifecycle', { nodes: 2 });
    await stopKubelet('node-1', 'stopped');
    await stopKubelet('node-2', 'stopped');
    await t.advance(45_000);
    for (const name of ['node-1', 'node-2']) {
      const n = await node(name);
      expect(ready(n).status).toBe('Unknown');
      expect(n.spec.taints).toEqual([{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }]);
    }
  });

  it('with RBAC on, the lifecycle, storage and mirroring components are authorized by their bootstrap roles', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 }, { authorization: 'RBAC' });
    await t.post('/api/v1/namespaces/default/persistentvolumeclaims', { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    await t.post('/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'app' }, spec: { nodeSelector: { 'kubernetes.io/hostname': 'node-1' }, containers: [{ name: 'c', image: 'nginx' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] } });
    await t.post('/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ext' }, spec: { ports: [{ port: 80 }] } });
    await t.post('/api/v1/namespaces/default/endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'ext' }, subsets: [{ addresses: [{ ip: '10.9.9.9' }], ports: [{ port: 80 }] }] });
    await t.settle();
    expect((await t.get('/api/v1/namespaces/default/persistentvolumeclaims/data')).json.status.phase).toBe('Bound');
    expect((await pods())[0].spec.nodeName).toBe('node-1');
    await stopKubelet('node-1', 'stopped');
    await t.advance(45_000);
    expect(ready(await node('node-1')).status).toBe('Unknown');
    expect((await pods())[0].status.conditions.find((c: any) => c.type === 'Ready').status).toBe('False');
    await t.advance(300_000);
    expect(await pods()).toEqual([]);
    const slices = (await t.get('/apis/discovery.k8s.io/v1/namespaces/default/endpointslices')).json.items;
    expect(slices.map((s: any) => s.metadata.labels['endpointslice.kubernetes.io/managed-by'])).toContain('endpointslicemirroring-controller.k8s.io');
    const denied = t.api.audit!.events().filter((e) => e.responseStatus?.code === 403).map((e) => `${e.user.username} ${e.verb} ${e.objectRef?.resource}/${e.objectRef?.subresource ?? ''}`);
    expect(denied).toEqual([]);
  });
});
