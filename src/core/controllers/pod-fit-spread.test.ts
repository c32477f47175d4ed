// The scheduler's PodTopologySpread filter (DoNotSchedule) and NodeAffinity score (preferred
// terms), through the API with the simulated nodes.
import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';
import { normalizedScores } from './pod-fit-spread';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const PODS = '/api/v1/namespaces/default/pods';
const pod = (name: string, spec: Record<string, unknown>, labels: Record<string, string> = { app: 'web' }) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});
const spreadOnHost = { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } }] };
const nodeOf = async (name: string) => (await t!.get(`${PODS}/${name}`)).json.spec.nodeName as string | undefined;

describe('PodTopologySpread (DoNotSchedule) and preferred node affinity', () => {
  it('keeps the skew per hostname within maxSkew, counting a node the pod cannot use', async () => {
    t = await startCluster('nodes,scheduler', { nodes: 2 });
    // node-2 takes no pods, but matches the pod's (empty) node affinity: its domain counts, with 0.
    await t.patch('/api/v1/nodes/node-2', { spec: { taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] } });
    await t.settle();
    await t.post(PODS, pod('web-1', spreadOnHost));
    await t.settle();
    expect(await nodeOf('web-1')).toBe('node-1');
    await t.post(PODS, pod('web-2', spreadOnHost));
    // A pod the selector does not match adds nothing to the count.
    await t.post(PODS, pod('other', spreadOnHost, { app: 'other' }));
    await t.settle();
    expect(await nodeOf('other')).toBe('node-1');
    const p = (await t.get(`${PODS}/web-2`)).json;
    expect(p.spec.nodeName).toBeUndefined();
    expect(p.status.conditions[0]).toMatchObject({
      reason: 'Unschedulable',
      message: "0/2 nodes are available: 1 node(s) didn't match pod topology spread constraints, 1 node(s) had taint {dedicated: x}, that the pod didn't tolerate.",
    });
    // Room on node-2: the pending pod goes there.
    await t.patch('/api/v1/nodes/node-2', { spec: { taints: null } });
    await t.settle();
    expect(await nodeOf('web-2')).toBe('node-2');
  });

  it('refuses nodes without the topology key', async () => {
    t = await startCluster('nodes,scheduler', { nodes: 2 });
    const byZone = { topologySpreadConstraints: [{ ...spreadOnHost.topologySpreadConstraints[0], topologyKey: 'topology.kubernetes.io/zone' }] };
    await t.post(PODS, pod('zoned', byZone));
    await t.settle();
    expect((await t.get(`${PODS}/zoned`)).json.status.conditions[0].message).toBe("0/2 nodes are available: 2 node(s) didn't match pod topology spread constraints (missing required label).");
    await t.patch('/api/v1/nodes/node-2', { metadata: { labels: { 'topology.kubernetes.io/zone': 'b' } } });
    await t.settle();
    expect(await nodeOf('zoned')).toBe('node-2');
  });

  it('prefers the nodes a preferred term matches, by weight', async () => {
    t = await startCluster('nodes,scheduler', { nodes: 3 });
    await t.patch('/api/v1/nodes/node-2', { metadata: { labels: { disk: 'ssd' } } });
    await t.patch('/api/v1/nodes/node-3', { metadata: { labels: { disk: 'hdd' } } });
    await t.settle();
    const preferred = (weights: Record<string, number>) => ({
      affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: Object.entries(weights).map(([disk, weight]) => ({ weight, preference: { matchExpressions: [{ key: 'disk', operator: 'In', values: [disk] }] } })) } },
    });
    for (const i of [1, 2, 3]) await t.post(PODS, pod(`ssd-${i}`, preferred({ ssd: 80, hdd: 20 }), { app: `ssd-${i}` }));
    await t.settle();
    expect([await nodeOf('ssd-1'), await nodeOf('ssd-2'), await nodeOf('ssd-3')]).toEqual(['node-2', 'node-2', 'node-2']);
    await t.post(PODS, pod('hdd', preferred({ hdd: 10 }), { app: 'hdd' }));
    await t.settle();
    expect(await nodeOf('hdd')).toBe('node-3');
  });

  it('normalises raw scores to 0-100 against the highest, as DefaultNormalizeScore', () => {
    expect(normalizedScores([0, 20, 80])).toEqual([0, 25, 100]);
    expect(normalizedScores([0, 0])).toEqual([0, 0]);
  });
});
