import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function pod(name: string, spec: Record<string, unknown> = {}, requests?: Record<string, string>): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx', ...(requests ? { resources: { requests } } : {}) }], ...spec } };
}

async function nodeOf(name: string): Promise<string | undefined> {
  return (await t!.get(`/api/v1/namespaces/default/pods/${name}`)).json.spec.nodeName;
}

describe('kube-scheduler', () => {
  it('binds through pods/binding: nodeName and PodScheduled=True, and a Scheduled event', async () => {
    t = await startCluster('nodes,scheduler');
    await t.post('/api/v1/namespaces/default/pods', pod('p'));
    await t.settle();
    const p = (await t.get('/api/v1/namespaces/default/pods/p')).json;
    expect(p.spec.nodeName).toMatch(/^node-[123]$/);
    expect(p.status.conditions).toEqual([{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2022-01-01T00:00:00Z' }]);
    const events = (await t.get('/api/v1/namespaces/default/events')).json.items;
    // kube-scheduler records through events.k8s.io/v1: core/v1 shows reportingComponent and action, no source.
    expect(events.map((e: any) => [e.reason, e.message, e.reportingComponent, e.action, e.source])).toEqual([['Scheduled', `Successfully assigned default/p to ${p.spec.nodeName}`, 'default-scheduler', 'Binding', {}]]);
  });

  it('spreads identical pods over the nodes', async () => {
    t = await startCluster('nodes,scheduler');
    for (const n of ['a', 'b', 'c']) await t.post('/api/v1/namespaces/default/pods', pod(n));
    await t.settle();
    expect(new Set([await nodeOf('a'), await nodeOf('b'), await nodeOf('c')]).size).toBe(3);
  });

  it('honours nodeSelector, required node affinity and taints with tolerations', async () => {
    t = await startCluster('nodes,scheduler');
    await t.patch('/api/v1/nodes/node-2', { metadata: { labels: { disk: 'ssd' } } });
    await t.patch('/api/v1/nodes/node-3', { spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] } });
    await t.post('/api/v1/namespaces/default/pods', pod('selected', { nodeSelector: { disk: 'ssd' } }));
    const affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-3'] }] }] } } };
    await t.post('/api/v1/namespaces/default/pods', pod('tolerating', { affinity, tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }] }));
    await t.post('/api/v1/namespaces/default/pods', pod('intolerant', { affinity }));
    await t.settle();
    expect(await nodeOf('selected')).toBe('node-2');
    expect(await nodeOf('tolerating')).toBe('node-3');
    expect(await nodeOf('intolerant')).toBeUndefined();
    const p = (await t.get('/api/v1/namespaces/default/pods/intolerant')).json;
    expect(p.status.conditions[0].message).toBe("0/3 nodes are available: 1 node(s) had taint {dedicated: db}, that the pod didn't tolerate, 2 node(s) didn't match Pod's node affinity/selector.");
  });

  it('leaves a pod that fits nowhere Pending with PodScheduled=False and FailedScheduling, and binds it once room appears', async () => {
    t = await startCluster('nodes,scheduler', { nodeCpu: '2' });
    await t.post('/api/v1/namespaces/default/pods', pod('big', {}, { cpu: '1500m' }));
    await t.post('/api/v1/namespaces/default/pods', pod('big2', {}, { cpu: '1500m' }));
    await t.post('/api/v1/namespaces/default/pods', pod('big3', {}, { cpu: '1500m' }));
    await t.settle();
    await t.post('/api/v1/namespaces/default/pods', pod('toobig', {}, { cpu: '1', memory: '64Gi' }));
    await t.settle();
    const p = (await t.get('/api/v1/namespaces/default/pods/toobig')).json;
    expect(p.spec.nodeName).toBeUndefined();
    expect(p.status.conditions).toEqual([
      { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: '2022-01-01T00:00:00Z', reason: 'Unschedulable', message: '0/3 nodes are available: 3 Insufficient cpu, 3 Insufficient memory.' },
    ]);
    const failed = (await t.get('/api/v1/namespaces/default/events?fieldSelector=reason%3DFailedScheduling')).json.items;
    expect(failed.map((e: any) => [e.type, e.involvedObject.name, e.message])).toEqual([['Warning', 'toobig', '0/3 nodes are available: 3 Insufficient cpu, 3 Insufficient memory.']]);
    // The scheduler's status write is its own managedFields entry. (kube also lists
    // f:lastProbeTime, whose value is null: this server's field sets leave null values out.)
    const entry = p.metadata.managedFields.find((m: any) => m.manager === 'kube-scheduler');
    expect(entry).toMatchObject({ operation: 'Update', subresource: 'status', fieldsV1: { 'f:status': { 'f:conditions': { '.': {}, 'k:{"type":"PodScheduled"}': { '.': {}, 'f:lastTransitionTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {}, 'f:type': {} } } } } });
    // A bigger node joins: the pod is bound to it.
    await t.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'large' } });
    await t.patch('/api/v1/nodes/large/status', { status: { allocatable: { cpu: '8', memory: '128Gi', pods: '110' }, conditions: [{ type: 'Ready', status: 'True' }] } });
    await t.settle();
    expect(await nodeOf('toobig')).toBe('large');
  });

  it('honours required pod anti-affinity on kubernetes.io/hostname, and explains the pod that fits nowhere', async () => {
    t = await startCluster('nodes,scheduler');
    const spread = (name: string) => ({
      metadata: { name, labels: { app: 'web' } },
      spec: { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' }] } } },
    });
    for (const n of ['w1', 'w2', 'w3', 'w4']) {
      const p = spread(n);
      await t.post('/api/v1/namespaces/default/pods', { ...pod(n, p.spec), metadata: p.metadata });
      await t.settle();
    }
    expect(new Set([await nodeOf('w1'), await nodeOf('w2'), await nodeOf('w3')]).size).toBe(3);
    expect(await nodeOf('w4')).toBeUndefined();
    const w4 = (await t.get('/api/v1/namespaces/default/pods/w4')).json;
    expect(w4.status.conditions[0]).toMatchObject({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules." });
    // A pod without rules of its own, matched by the others' anti-affinity, is refused too (symmetry).
    await t.post('/api/v1/namespaces/default/pods', { ...pod('plain'), metadata: { name: 'plain', labels: { app: 'web' } } });
    await t.settle();
    expect((await t.get('/api/v1/namespaces/default/pods/plain')).json.status.conditions[0].message).toBe("0/3 nodes are available: 3 node(s) didn't satisfy existing pods anti-affinity rules.");
    // One of them goes: a waiting pod takes its node.
    const freed = await nodeOf('w2');
    await t.del('/api/v1/namespaces/default/pods/w2');
    await t.settle();
    expect([await nodeOf('w4'), await nodeOf('plain')]).toContain(freed);
  });

  it('honours required pod affinity: a pod follows the pods it names, the first of a self-affine group goes anywhere', async () => {
    t = await startCluster('nodes,scheduler');
    await t.post('/api/v1/namespaces/default/pods', { ...pod('db', { nodeSelector: { 'kubernetes.io/hostname': 'node-3' } }), metadata: { name: 'db', labels: { app: 'db' } } });
    await t.settle();
    const near = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname' }] } };
    for (const n of ['cache-1', 'cache-2']) await t.post('/api/v1/namespaces/default/pods', pod(n, { affinity: near }));
    // Affinity to pods in another namespace only: none match, and the pod does not match itself.
    const elsewhere = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'db' } }, namespaces: ['other'], topologyKey: 'kubernetes.io/hostname' }] } };
    await t.post('/api/v1/namespaces/default/pods', pod('lost', { affinity: elsewhere }));
    const self = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { team: 'a' } }, topologyKey: 'kubernetes.io/hostname' }] } };
    await t.post('/api/v1/namespaces/default/pods', { ...pod('a1', { affinity: self }), metadata: { name: 'a1', labels: { team: 'a' } } });
    await t.settle();
    await t.post('/api/v1/namespaces/default/pods', { ...pod('a2', { affinity: self }), metadata: { name: 'a2', labels: { team: 'a' } } });
    await t.settle();
    expect(await nodeOf('cache-1')).toBe('node-3');
    expect(await nodeOf('cache-2')).toBe('node-3');
    expect(await nodeOf('lost')).toBeUndefined();
    expect((await t.get('/api/v1/namespaces/default/pods/lost')).json.status.conditions[0].message).toBe("0/3 nodes are available: 3 node(s) didn't match pod affinity rules.");
    expect(await nodeOf('a1')).toMatch(/^node-\d$/);
    expect(await nodeOf('a2')).toBe(await nodeOf('a1'));
  });

  it('checks taints before node affinity, as the default profile orders its filters', async () => {
    t = await startCluster('nodes,scheduler');
    await t.patch('/api/v1/nodes/node-1', { spec: { taints: [{ key: 'gpu', value: 'yes', effect: 'NoSchedule' }] } });
    await t.post('/api/v1/namespaces/default/pods', pod('picky', { nodeSelector: { disk: 'ssd' } }));
    await t.settle();
    expect((await t.get('/api/v1/namespaces/default/pods/picky')).json.status.conditions[0].message).toBe(
      "0/3 nodes are available: 1 node(s) had taint {gpu: yes}, that the pod didn't tolerate, 2 node(s) didn't match Pod's node affinity/selector.",
    );
  });

  it('leaves pods of another scheduler alone', async () => {
    t = await startCluster('nodes,scheduler');
    await t.post('/api/v1/namespaces/default/pods', pod('other', { schedulerName: 'my-scheduler' }));
    await t.settle();
    const p = (await t.get('/api/v1/namespaces/default/pods/other')).json;
    expect(p.spec.nodeName).toBeUndefined();
    expect(p.status.conditions).toBeUndefined();
  });
});
