import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, deployment, type ClusterTest } from '../testing/controllers';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const M = '/apis/metrics.k8s.io/v1beta1';
const withUsage = (name: string, replicas: number, annotations: Record<string, string>, resources?: object) => {
  const d = deployment(name, replicas) as any;
  d.spec.template.metadata.annotations = annotations;
  if (resources) d.spec.template.spec.containers[0].resources = resources;
  return d;
};

describe('simulated metrics-server (metrics.k8s.io/v1beta1)', () => {
  it('appears in discovery as metrics-server serves it, last in /apis', async () => {
    t = await startCluster('*', { nodes: 1 });
    const groups = (await t.get('/apis')).json.groups;
    expect(groups.at(-1)).toEqual({ name: 'metrics.k8s.io', versions: [{ groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' }], preferredVersion: { groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' } });
    expect((await t.get(M)).json).toEqual({
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'metrics.k8s.io/v1beta1',
      resources: [
        { name: 'nodes', singularName: '', namespaced: false, kind: 'NodeMetrics', verbs: ['get', 'list'] },
        { name: 'pods', singularName: '', namespaced: true, kind: 'PodMetrics', verbs: ['get', 'list'] },
      ],
    });
    const agg = (await t.get('/apis', { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' })).json.items;
    expect(agg.at(-1).metadata.name).toBe('metrics.k8s.io');
    expect(agg.at(-1).versions[0].resources.map((r: any) => [r.resource, r.responseKind.kind, r.scope])).toEqual([
      ['nodes', 'NodeMetrics', 'Cluster'],
      ['pods', 'PodMetrics', 'Namespaced'],
    ]);
  });

  it('is absent when switched off (*,-metrics-server)', async () => {
    t = await startCluster('*,-metrics-server', { nodes: 1 });
    expect((await t.get('/apis')).json.groups.map((g: any) => g.name)).not.toContain('metrics.k8s.io');
    expect((await t.get(`${M}/nodes`)).status).toBe(404);
  });

  it('reports running pods with the annotated usage (absolute or % of the request) and the idle default', async () => {
    t = await startCluster('*', { nodes: 1, kubeletDelayMs: 1000 });
    await t.post('/apis/apps/v1/namespaces/default/deployments', withUsage('hot', 1, { 'kube-playground.dev/cpu-usage': '250m', 'kube-playground.dev/memory-usage': '64Mi' }));
    await t.post('/apis/apps/v1/namespaces/default/deployments', withUsage('half', 1, { 'kube-playground.dev/cpu-usage': '50%' }, { requests: { cpu: '200m' } }));
    await t.post('/apis/apps/v1/namespaces/default/deployments', deployment('idle', 1));
    await t.settle();
    // Not running yet: nothing to report.
    expect((await t.get(`${M}/namespaces/default/pods`)).json.items).toEqual([]);
    await t.advance(1000);
    const list = (await t.get(`${M}/namespaces/default/pods`)).json;
    expect(list.kind).toBe('PodMetricsList');
    expect(list.apiVersion).toBe('metrics.k8s.io/v1beta1');
    expect(list.metadata).toEqual({});
    const usage = Object.fromEntries(list.items.map((i: any) => [i.metadata.labels.app, i.containers[0].usage]));
    expect(usage).toEqual({ hot: { cpu: '250000000n', memory: '65536Ki' }, half: { cpu: '100000000n', memory: '4096Ki' }, idle: { cpu: '1000000n', memory: '4096Ki' } });
    const one = list.items.find((i: any) => i.metadata.labels.app === 'hot');
    expect(one).toEqual({ metadata: { name: one.metadata.name, namespace: 'default', creationTimestamp: '2022-01-01T00:00:01Z', labels: one.metadata.labels }, timestamp: '2022-01-01T00:00:01Z', window: '15s', containers: [{ name: 'nginx', usage: usage.hot }] });
    const got = (await t.get(`${M}/namespaces/default/pods/${one.metadata.name}`)).json;
    expect(got.kind).toBe('PodMetrics');
    expect(got.containers).toEqual(one.containers);
    // Label selectors, and every namespace.
    expect((await t.get(`${M}/namespaces/default/pods?labelSelector=app%3Dhot`)).json.items.map((i: any) => i.metadata.name)).toEqual([one.metadata.name]);
    expect((await t.get(`${M}/pods`)).json.items).toHaveLength(3);
    // A pod annotated directly changes its usage at once.
    await t.patch(`/api/v1/namespaces/default/pods/${one.metadata.name}`, { metadata: { annotations: { 'kube-playground.dev/cpu-usage': '1' } } }, 'application/merge-patch+json');
    await t.settle();
    expect((await t.get(`${M}/namespaces/default/pods/${one.metadata.name}`)).json.containers[0].usage.cpu).toBe('1000000000n');
  });

  it('reports each simulated node as its pods plus the system share', async () => {
    t = await startCluster('*', { nodes: 1, kubeletDelayMs: 0 });
    await t.post('/apis/apps/v1/namespaces/default/deployments', withUsage('hot', 2, { 'kube-playground.dev/cpu-usage': '250m', 'kube-playground.dev/memory-usage': '64Mi' }));
    await t.settle();
    const node = (await t.get(`${M}/nodes/node-1`)).json;
    expect(node).toMatchObject({ kind: 'NodeMetrics', apiVersion: 'metrics.k8s.io/v1beta1', metadata: { name: 'node-1' }, window: '15s', usage: { cpu: '600000000n', memory: `${512 * 1024 + 2 * 65536}Ki` } });
    expect(node.metadata.labels['kubernetes.io/hostname']).toBe('node-1');
    expect((await t.get(`${M}/nodes?labelSelector=kubernetes.io%2Fhostname%3Dnode-1`)).json.items).toHaveLength(1);
  });

  it('offers the default Table (Name, Created At) and YAML, as a generic apiserver does', async () => {
    t = await startCluster('*', { nodes: 2 });
    const table = (await t.get(`${M}/nodes`, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })).json;
    expect(table.kind).toBe('Table');
    expect(table.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Created At']);
    expect(table.rows.map((r: any) => r.cells[0])).toEqual(['node-1', 'node-2']);
    expect(table.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'node-1' } });
    const yaml = await t.get(`${M}/nodes/node-1`, { accept: 'application/yaml' });
    expect(yaml.text).toMatch(/^apiVersion: metrics.k8s.io\/v1beta1\nkind: NodeMetrics\n/);
    expect((await t.get(`${M}/nodes`, { accept: 'application/vnd.kubernetes.protobuf' })).status).toBe(406);
  });

  it('answers errors as metrics-server does, and is read-only', async () => {
    t = await startCluster('*', { nodes: 1 });
    const missing = await t.get(`${M}/namespaces/default/pods/nope`);
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'podmetrics.metrics.k8s.io "default/nope" not found' });
    expect((await t.get(`${M}/nodes/nope`)).json.message).toBe('nodemetrics.metrics.k8s.io "nope" not found');
    expect((await t.post(`${M}/namespaces/default/pods`, { kind: 'PodMetrics' })).status).toBe(405);
    expect((await t.get(`${M}/namespaces/default/pods?labelSelector=a%3D%3D%3D`)).status).toBe(400);
    expect((await t.get(`${M}/namespaces/default/things`)).status).toBe(404);
    expect((await t.get('/apis/metrics.k8s.io/v1/nodes')).status).toBe(404);
  });
});
