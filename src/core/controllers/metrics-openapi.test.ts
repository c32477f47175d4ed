// kube-aggregator merges an available APIService's spec into /openapi/v2: with metrics-server
// installed, kubectl sees metrics.k8s.io's paths and definitions there; without it, or once its
// APIService is gone, it does not.
import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const API_SERVICE = '/apis/apiregistration.k8s.io/v1/apiservices/v1beta1.metrics.k8s.io';
const DEFS = ['ContainerMetrics', 'NodeMetrics', 'NodeMetricsList', 'PodMetrics', 'PodMetricsList'].map((k) => `io.k8s.metrics.pkg.apis.metrics.v1beta1.${k}`);
const PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

const swagger = async () => (await t!.get('/openapi/v2', { accept: 'application/json' })).json;
const metricsPaths = (doc: any) => Object.keys(doc.paths).filter((p) => p.startsWith('/apis/metrics.k8s.io/'));

describe('/openapi/v2 with the metrics APIService', () => {
  it('holds the metrics.k8s.io/v1beta1 paths and definitions while the APIService is available', async () => {
    t = await startCluster('*', { nodes: 1 });
    await t.settle();
    expect((await t.get(API_SERVICE)).json.status.conditions[0].status).toBe('True');
    const doc = await swagger();
    expect(metricsPaths(doc)).toEqual([
      '/apis/metrics.k8s.io/v1beta1/namespaces/{namespace}/pods',
      '/apis/metrics.k8s.io/v1beta1/namespaces/{namespace}/pods/{name}',
      '/apis/metrics.k8s.io/v1beta1/nodes',
      '/apis/metrics.k8s.io/v1beta1/nodes/{name}',
      '/apis/metrics.k8s.io/v1beta1/pods',
    ]);
    const list = doc.paths['/apis/metrics.k8s.io/v1beta1/namespaces/{namespace}/pods'].get;
    expect(list.operationId).toBe('listMetricsV1beta1NamespacedPodMetrics');
    expect(list.responses['200'].schema).toEqual({ $ref: '#/definitions/io.k8s.metrics.pkg.apis.metrics.v1beta1.PodMetricsList' });
    expect(list['x-kubernetes-group-version-kind']).toEqual({ group: 'metrics.k8s.io', version: 'v1beta1', kind: 'PodMetrics' });
    const read = doc.paths['/apis/metrics.k8s.io/v1beta1/nodes/{name}'];
    expect(Object.keys(read).filter((k) => k !== 'parameters')).toEqual(['get']);
    expect(read.get.responses['200'].schema).toEqual({ $ref: '#/definitions/io.k8s.metrics.pkg.apis.metrics.v1beta1.NodeMetrics' });
    for (const d of DEFS) expect(doc.definitions[d], d).toBeDefined();
    expect(doc.definitions[DEFS[3]]).toMatchObject({ required: ['timestamp', 'window', 'containers'], 'x-kubernetes-group-version-kind': [{ group: 'metrics.k8s.io', kind: 'PodMetrics', version: 'v1beta1' }] });
    // Every reference resolves (Duration comes with the backend's definitions).
    const refs = JSON.stringify(doc).match(/#\/definitions\/[^"]+/g)!.map((r) => r.slice('#/definitions/'.length));
    expect(refs.filter((r) => !doc.definitions[r])).toEqual([]);
    const proto = await t.get('/openapi/v2', { accept: PROTOBUF });
    expect(proto.status).toBe(200);
    expect(Buffer.from(proto.raw.body as Uint8Array).includes(Buffer.from('io.k8s.metrics.pkg.apis.metrics.v1beta1.PodMetricsList'))).toBe(true);
  });

  it('drops them when the APIService goes, with a new ETag; a 304 only for the current one', async () => {
    t = await startCluster('*', { nodes: 1 });
    await t.settle();
    const before = await t.get('/openapi/v2', { accept: 'application/json' });
    const etag = before.headers['Etag'];
    expect((await t.get('/openapi/v2', { accept: 'application/json', 'if-none-match': etag })).status).toBe(304);
    expect((await t.del(API_SERVICE)).status).toBe(200);
    await t.settle();
    const after = await t.get('/openapi/v2', { accept: 'application/json' });
    expect(metricsPaths(after.json)).toEqual([]);
    expect(Object.keys(after.json.definitions).filter((d) => d.startsWith('io.k8s.metrics.'))).toEqual([]);
    expect(after.headers['Etag']).not.toBe(etag);
    expect((await t.get('/openapi/v2', { accept: 'application/json', 'if-none-match': etag })).status).toBe(200);
  });

  it('has none of them without metrics-server', async () => {
    t = await startCluster('nodes,scheduler', { nodes: 1 });
    await t.settle();
    const doc = await swagger();
    expect(metricsPaths(doc)).toEqual([]);
    expect(Object.keys(doc.definitions).filter((d) => d.startsWith('io.k8s.metrics.'))).toEqual([]);
  });
});

describe('METRICS_DEFINITIONS', () => {
  it('are metrics-server v0.6\'s types, properties sorted as Go writes them', async () => {
    const { METRICS_DEFINITIONS } = await import('./metrics-openapi');
    const node = METRICS_DEFINITIONS['io.k8s.metrics.pkg.apis.metrics.v1beta1.NodeMetrics'] as any;
    expect(Object.keys(node.properties)).toEqual(['apiVersion', 'kind', 'metadata', 'timestamp', 'usage', 'window']);
    expect(node.properties.usage).toEqual({ additionalProperties: { $ref: '#/definitions/io.k8s.apimachinery.pkg.api.resource.Quantity' }, type: 'object' });
    expect(node.properties.window).toEqual({ $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Duration' });
    expect(node.required).toEqual(['timestamp', 'window', 'usage']);
    const pods = METRICS_DEFINITIONS['io.k8s.metrics.pkg.apis.metrics.v1beta1.PodMetricsList'] as any;
    expect(pods).toEqual({
      properties: {
        apiVersion: { type: 'string' },
        items: { items: { $ref: '#/definitions/io.k8s.metrics.pkg.apis.metrics.v1beta1.PodMetrics' }, type: 'array' },
        kind: { type: 'string' },
        metadata: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta' },
      },
      required: ['items'],
      type: 'object',
      'x-kubernetes-group-version-kind': [{ group: 'metrics.k8s.io', kind: 'PodMetricsList', version: 'v1beta1' }],
    });
    expect(Object.keys((METRICS_DEFINITIONS['io.k8s.metrics.pkg.apis.metrics.v1beta1.PodMetrics'] as any).properties)).toEqual(['apiVersion', 'containers', 'kind', 'metadata', 'timestamp', 'window']);
  });
});
