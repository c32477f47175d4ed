import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';
import { watchPods } from '../testing/rollout-invariants';
import { targetNodeName } from './daemonset-nodes';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const DS = '/apis/apps/v1/namespaces/default/daemonsets';
const daemonSet = (name: string, extra: Record<string, unknown> = {}, image = 'fluentd:1') => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name },
  spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image }] } }, ...extra },
});
const pods = async () => ((await t!.get('/api/v1/namespaces/default/pods')).json.items as any[]).sort((a, b) => String(a.spec.nodeName).localeCompare(String(b.spec.nodeName)));
const getDs = async (name = 'logs') => (await t!.get(`${DS}/${name}`)).json;
const revisions = async () => ((await t!.get('/apis/apps/v1/namespaces/default/controllerrevisions')).json.items as any[]).sort((a, b) => a.revision - b.revision);
const newImage = (image: string) => ({ spec: { template: { spec: { containers: [{ name: 'c', image }] } } } });

describe('daemonset controller', () => {
  it('runs one pod per node, pinned by node affinity and bound by the scheduler, with the daemon tolerations', async () => {
    t = await startCluster('*', { nodes: 3, kubeletDelayMs: 1000 });
    await t.post(DS, daemonSet('logs'));
    await t.settle();
    const ds = await getDs();
    const [rev] = await revisions();
    const hash = rev.metadata.labels['controller-revision-hash'];
    expect(rev.metadata.name).toBe(`logs-${hash}`);
    expect(rev.revision).toBe(1);
    expect(rev.metadata.ownerReferences[0]).toMatchObject({ kind: 'DaemonSet', name: 'logs', controller: true });
    const ps = await pods();
    expect(ps.map((p) => p.spec.nodeName)).toEqual(['node-1', 'node-2', 'node-3']);
    const p = ps[0];
    expect(p.metadata.generateName).toBe('logs-');
    expect(p.metadata.labels).toEqual({ app: 'logs', 'controller-revision-hash': hash, 'pod-template-generation': '1' });
    expect(p.spec.affinity).toEqual({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] }] } } });
    expect(p.spec.tolerations.map((x: any) => [x.key, x.operator, x.effect])).toEqual([
      ['node.kubernetes.io/not-ready', 'Exists', 'NoExecute'],
      ['node.kubernetes.io/unreachable', 'Exists', 'NoExecute'],
      ['node.kubernetes.io/disk-pressure', 'Exists', 'NoSchedule'],
      ['node.kubernetes.io/memory-pressure', 'Exists', 'NoSchedule'],
      ['node.kubernetes.io/pid-pressure', 'Exists', 'NoSchedule'],
      ['node.kubernetes.io/unschedulable', 'Exists', 'NoSchedule'],
    ]);
    expect(ds.status).toEqual({ currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 0, updatedNumberScheduled: 3, numberUnavailable: 3, observedGeneration: 1 });
    await t.advance(1000);
    expect((await getDs()).status).toEqual({ currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 3, numberAvailable: 3, observedGeneration: 1 });
    const events = (await t.get('/api/v1/namespaces/default/events?fieldSelector=involvedObject.kind%3DDaemonSet')).json.items.map((e: any) => [e.reason, e.source.component]);
    expect(events).toContainEqual(['SuccessfulCreate', 'daemonset-controller']);
    const users = t.api.audit!.events().filter((e) => e.verb === 'create' && e.objectRef?.resource === 'pods' && !e.objectRef.subresource).map((e) => e.user.username);
    expect(new Set(users)).toEqual(new Set(['system:serviceaccount:kube-system:daemon-set-controller']));
  });

  it('adds network-unavailable for host-network pods, as kube does', async () => {
    t = await startCluster('*', { nodes: 1, kubeletDelayMs: 0 });
    const ds = daemonSet('net');
    (ds.spec.template.spec as any).hostNetwork = true;
    await t.post(DS, ds);
    await t.settle();
    const [p] = await pods();
    expect(p.spec.tolerations.map((x: any) => x.key)).toContain('node.kubernetes.io/network-unavailable');
  });

  it('follows the node selector: pods leave nodes that stop matching and come to nodes that start', async () => {
    t = await startCluster('*', { nodes: 3, kubeletDelayMs: 0 });
    await t.patch('/api/v1/nodes/node-2', { metadata: { labels: { disk: 'ssd' } } });
    const ds = daemonSet('logs');
    (ds.spec.template.spec as any).nodeSelector = { disk: 'ssd' };
    await t.post(DS, ds);
    await t.settle();
    expect((await pods()).map((p) => p.spec.nodeName)).toEqual(['node-2']);
    await t.patch('/api/v1/nodes/node-3', { metadata: { labels: { disk: 'ssd' } } });
    await t.patch('/api/v1/nodes/node-2', { metadata: { labels: { disk: null } } });
    await t.settle();
    expect((await pods()).map((p) => p.spec.nodeName)).toEqual(['node-3']);
    expect((await getDs()).status).toMatchObject({ desiredNumberScheduled: 1, currentNumberScheduled: 1, numberMisscheduled: 0, numberReady: 1 });
  });

  it('a NoSchedule taint leaves the pod running but misscheduled; a NoExecute taint removes it', async () => {
    t = await startCluster('*', { nodes: 2, kubeletDelayMs: 0 });
    await t.post(DS, daemonSet('logs'));
    await t.settle();
    await t.patch('/api/v1/nodes/node-1', { spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] } });
    await t.settle();
    expect((await pods()).map((p) => p.spec.nodeName)).toEqual(['node-1', 'node-2']);
    expect((await getDs()).status).toMatchObject({ desiredNumberScheduled: 1, currentNumberScheduled: 1, numberMisscheduled: 1 });
    await t.patch('/api/v1/nodes/node-1', { spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }] } });
    await t.settle();
    expect((await pods()).map((p) => p.spec.nodeName)).toEqual(['node-2']);
    expect((await getDs()).status).toMatchObject({ desiredNumberScheduled: 1, currentNumberScheduled: 1, numberMisscheduled: 0 });
  });

  it('replaces a failed pod, backing off when the node’s pod fails again at once', async () => {
    t = await startCluster('*', { nodes: 1, kubeletDelayMs: 0 });
    await t.post(DS, daemonSet('logs'));
    await t.settle();
    const fail = async () => t!.patch(`/api/v1/namespaces/default/pods/${(await pods())[0].metadata.name}/status`, { status: { phase: 'Failed' } });
    const first = (await pods())[0].metadata.uid;
    await fail();
    await t.settle();
    const second = (await pods())[0];
    expect(second.metadata.uid).not.toBe(first);
    const events = (await t.get('/api/v1/namespaces/default/events?fieldSelector=involvedObject.kind%3DDaemonSet')).json.items.map((e: any) => [e.type, e.reason, e.message]);
    expect(events).toContainEqual(['Warning', 'FailedDaemonPod', expect.stringMatching(/^Found failed daemon pod default\/logs-\w+ on node node-1, will try to kill it$/)]);
    // Failing again within the 1 s back-off: the failed pod stays until it ends.
    await fail();
    await t.settle();
    expect((await pods())[0].metadata.uid).toBe(second.metadata.uid);
    await t.advance(1000);
    const third = (await pods())[0];
    expect(third.metadata.uid).not.toBe(second.metadata.uid);
    expect(third.status.phase).toBe('Running');
  });

  it('rolls with maxUnavailable: never more nodes without an available pod than allowed, at any watch event', async () => {
    t = await startCluster('*', { nodes: 4, kubeletDelayMs: 1000 });
    await t.post(DS, daemonSet('logs', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } } }));
    await t.advance(1000);
    const watch = await watchPods(t, 'default', 'app=logs', () => t!.clock.now());
    await t.patch(`${DS}/logs`, newImage('fluentd:2'));
    for (let i = 0; i < 10; i++) await t.advance(1000);
    const nodes = ['node-1', 'node-2', 'node-3', 'node-4'];
    const checked = watch.checkEach((c) => {
      const covered = nodes.filter((n) => c.live.some((p) => targetNodeName(p) === n && p.status?.conditions?.some((x: any) => x.type === 'Ready' && x.status === 'True')));
      expect(nodes.length - covered.length).toBeLessThanOrEqual(2);
      expect(c.pods).toBeLessThanOrEqual(4);
    });
    watch.stop();
    expect(checked).toBeGreaterThan(8);
    expect((await pods()).map((p) => p.spec.containers[0].image)).toEqual(['fluentd:2', 'fluentd:2', 'fluentd:2', 'fluentd:2']);
    const status = (await getDs()).status;
    expect(status).toMatchObject({ desiredNumberScheduled: 4, updatedNumberScheduled: 4, numberAvailable: 4, observedGeneration: 2 });
    // The new pods carry the template generation the strategy gave the changed template.
    expect((await getDs()).metadata.annotations['deprecated.daemonset.template.generation']).toBe('2');
    expect((await pods()).map((p) => p.metadata.labels['pod-template-generation'])).toEqual(['2', '2', '2', '2']);
    expect((await revisions()).map((r) => r.revision)).toEqual([1, 2]);
  });

  it('rolls with maxSurge: a new pod starts beside the old one, which goes once the new one is ready', async () => {
    t = await startCluster('*', { nodes: 3, kubeletDelayMs: 1000 });
    await t.post(DS, daemonSet('logs', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } }));
    await t.advance(1000);
    const watch = await watchPods(t, 'default', 'app=logs', () => t!.clock.now());
    await t.patch(`${DS}/logs`, newImage('fluentd:2'));
    for (let i = 0; i < 10; i++) await t.advance(1000);
    let surged = false;
    watch.checkEach((c) => {
      expect(c.pods).toBeLessThanOrEqual(4);
      expect(c.available).toBeGreaterThanOrEqual(3);
      if (c.pods === 4) surged = true;
    });
    watch.stop();
    expect(surged).toBe(true);
    expect((await pods()).map((p) => p.spec.containers[0].image)).toEqual(['fluentd:2', 'fluentd:2', 'fluentd:2']);
  });

  it('OnDelete replaces only the pods deleted by hand; rolling back reuses the old revision', async () => {
    t = await startCluster('*', { nodes: 2, kubeletDelayMs: 0 });
    await t.post(DS, daemonSet('logs', { updateStrategy: { type: 'OnDelete' } }));
    await t.settle();
    const first = (await revisions())[0].metadata.name;
    await t.patch(`${DS}/logs`, newImage('fluentd:2'));
    await t.settle();
    expect((await pods()).map((p) => p.spec.containers[0].image)).toEqual(['fluentd:1', 'fluentd:1']);
    expect((await getDs()).status.updatedNumberScheduled).toBeUndefined();
    const victim = (await pods())[0].metadata.name;
    await t.del(`/api/v1/namespaces/default/pods/${victim}`);
    await t.settle();
    expect((await pods()).map((p) => p.spec.containers[0].image)).toEqual(['fluentd:2', 'fluentd:1']);
    expect((await getDs()).status.updatedNumberScheduled).toBe(1);
    await t.patch(`${DS}/logs`, newImage('fluentd:1'));
    await t.settle();
    expect((await revisions()).map((r) => [r.metadata.name === first, r.revision])).toEqual([
      [false, 2],
      [true, 3],
    ]);
  });

  it('records kube-controller-manager as the manager of the status it writes', async () => {
    t = await startCluster('*', { nodes: 1, kubeletDelayMs: 0 });
    await t.post(DS, daemonSet('logs'));
    await t.settle();
    const ds = await getDs();
    const entry = ds.metadata.managedFields.find((m: any) => m.manager === 'kube-controller-manager');
    expect(entry).toMatchObject({ operation: 'Update', apiVersion: 'apps/v1', subresource: 'status' });
    expect(entry.fieldsV1).toEqual({
      'f:status': { 'f:currentNumberScheduled': {}, 'f:desiredNumberScheduled': {}, 'f:numberAvailable': {}, 'f:numberReady': {}, 'f:observedGeneration': {}, 'f:updatedNumberScheduled': {} },
    });
    // The pod: made by the controller (metadata, the pinned affinity, the tolerations), bound by the scheduler, run by the kubelet.
    const [p] = await pods();
    expect(p.metadata.managedFields.map((m: any) => [m.manager, m.operation, m.subresource])).toEqual([
      ['kube-controller-manager', 'Update', undefined],
      ['kubelet', 'Update', 'status'],
    ]);
    const podFields = p.metadata.managedFields[0].fieldsV1;
    expect(Object.keys(podFields['f:metadata'])).toEqual(['f:generateName', 'f:labels', 'f:ownerReferences']);
    expect(podFields['f:metadata']['f:labels']).toEqual({ '.': {}, 'f:app': {}, 'f:controller-revision-hash': {}, 'f:pod-template-generation': {} });
    expect(Object.keys(podFields['f:spec'])).toEqual(expect.arrayContaining(['f:affinity', 'f:containers', 'f:tolerations']));
    expect(podFields['f:spec']['f:affinity']).toEqual({ '.': {}, 'f:nodeAffinity': { '.': {}, 'f:requiredDuringSchedulingIgnoredDuringExecution': {} } });
    // The revision: created whole by the controller.
    const [rev] = await revisions();
    expect(rev.metadata.managedFields.map((m: any) => [m.manager, m.operation])).toEqual([['kube-controller-manager', 'Update']]);
    expect(Object.keys(rev.metadata.managedFields[0].fieldsV1).sort()).toEqual(['f:data', 'f:metadata', 'f:revision']);
  });
});
