// A simulated metrics-server: `metrics.k8s.io/v1beta1` PodMetrics and NodeMetrics, read-only
// (get and list, label selectors), computed on each request from the pods and nodes it watches
// through the API, with usage taken from the playground's convention (metrics-usage.ts). It
// joins discovery and answers requests as kube-aggregator would proxy them to metrics-server, so
// `kubectl top` and the HPA controller read it like the real one. Shapes follow metrics-server
// v0.6: list items without kind/apiVersion, metadata with the object's labels and a
// creationTimestamp of now, cpu in nanocores, memory in Ki, a 15 s window (its default
// --metric-resolution).
import type { ApiRequest, ApiResponse } from '../meta/types';
import type { Obj } from '../registry/objects';
import type { ResourceInfo } from '../schema/resource-info';
import type { AggregatedApi } from './aggregated-api';
import type { RequestInfo } from '../meta/requestinfo';
import { ApiError, badRequest, methodNotAllowed, notAcceptable, pathNotFound } from '../meta/status';
import { encodeValue, errorToResponse } from '../handlers/respond';
import { negotiateOutput } from '../handlers/negotiation';
import type { OutputFormat } from '../meta/output';
import type { ServedResource } from '../registry/catalog';
import { buildTable, toPartialObjectMetadata } from '../codec/table';
import { matchesLabels, parseLabelSelector, type LabelSelector } from '../selectors/labels';
import { matchesFields, parseFieldSelector, type FieldSelector } from '../selectors/fields';
import { rfc3339Seconds } from './clock';
import type { Controller, ControllerContext } from './controller';
import type { Informer } from './informer';
import { simulatedNodeName } from './nodes';
import { formatCpu, formatMemory, nodeUsage, podHasMetrics, podUsage } from './metrics-usage';
import { installMetricsServer } from './metrics-server-install';
import { ADDON_INSTALLER } from './addons';
import { METRICS_DEFINITION_PREFIX, METRICS_DEFINITIONS } from './metrics-openapi';

export const METRICS_GROUP = 'metrics.k8s.io';
const VERSION = 'v1beta1';
const API_VERSION = `${METRICS_GROUP}/${VERSION}`;
const WINDOW = '15s';

function metricsResource(resource: string, kind: string, namespaced: boolean): ResourceInfo {
  return { group: METRICS_GROUP, version: VERSION, resource, singular: '', kind, listKind: `${kind}List`, namespaced, verbs: ['get', 'list'], shortNames: [], categories: [], subresources: [], virtual: true, definition: `${METRICS_DEFINITION_PREFIX}${kind}` };
}

const RESOURCES: readonly ResourceInfo[] = [metricsResource('nodes', 'NodeMetrics', false), metricsResource('pods', 'PodMetrics', true)];

/** What a list's selectors keep. */
interface Filter {
  labels: LabelSelector;
  fields: FieldSelector;
}

export class MetricsServer implements Controller, AggregatedApi {
  readonly name = 'metrics-server';
  readonly group = METRICS_GROUP;
  readonly resources = RESOURCES;
  readonly definitions = METRICS_DEFINITIONS;
  private ctx!: ControllerContext;
  private pods!: Informer;
  private nodes!: Informer;
  private simulated = new Set<string>();

  async start(ctx: ControllerContext): Promise<void> {
    this.ctx = ctx;
    for (let i = 0; i < ctx.cluster.nodes; i++) this.simulated.add(simulatedNodeName(i));
    this.pods = await ctx.informer('/api/v1/pods');
    this.nodes = await ctx.informer('/api/v1/nodes');
    // Its manifest's APIService and aggregated ClusterRole, as installing metrics-server makes them.
    await ctx.track(installMetricsServer(ctx.client(ADDON_INSTALLER)));
  }

  stop(): void {}

  async handle(req: ApiRequest, info: RequestInfo, query: URLSearchParams): Promise<ApiResponse> {
    try {
      return this.serve(req, info, query);
    } catch (err) {
      if (err instanceof ApiError) return errorToResponse(err, { kind: 'json', pretty: false });
      throw err;
    }
  }

  private serve(req: ApiRequest, info: RequestInfo, query: URLSearchParams): ApiResponse {
    const r = RESOURCES.find((x) => x.resource === info.resource);
    if (info.version !== VERSION || !r || info.subresource || (!r.namespaced && info.namespace)) throw pathNotFound();
    if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed();
    if (info.verb === 'watch') throw new ApiError(405, 'MethodNotAllowed', `watch is not supported on resources of kind "${info.resource}"`, { group: METRICS_GROUP, kind: info.resource });
    // JSON, YAML, and the Table and PartialObjectMetadata conversions a generic apiserver offers
    // (the default table: Name, Created At). No protobuf here: a protobuf-only client gets 406.
    const out = negotiateOutput(req, query, { info: { ...r, custom: true } } as unknown as ServedResource, info);
    if (!out) throw notAcceptable('only the following media types are accepted: application/json, application/yaml');
    const now = this.ctx.clock.now();
    if (info.verb === 'get') {
      const obj = r.namespaced ? this.podMetrics(info.namespace, info.name, now) : this.nodeMetrics(info.name, now);
      if (!obj) {
        const kind = r.namespaced ? 'podmetrics' : 'nodemetrics';
        // metrics-server names a missing pod's metrics by namespace/name.
        const name = r.namespaced ? `${info.namespace}/${info.name}` : info.name;
        throw new ApiError(404, 'NotFound', `${kind}.${METRICS_GROUP} "${name}" not found`, { name, group: METRICS_GROUP, kind });
      }
      return this.respond(r, out, { kind: r.kind, apiVersion: API_VERSION, ...obj }, undefined, now);
    }
    const filter = this.filterOf(query);
    const items = r.namespaced ? this.listPods(info.namespace, filter, now) : this.listNodes(filter, now);
    return this.respond(r, out, undefined, items, now);
  }

  private respond(r: ResourceInfo, out: OutputFormat, single: Obj | undefined, items: Obj[] | undefined, now: number): ApiResponse {
    const metaVersion = `meta.k8s.io/${out.version ?? 'v1'}`;
    const all = single ? [single] : items!;
    switch (out.kind) {
      case 'table':
        return encodeValue(200, buildTable(undefined, all, {}, { includeObject: out.includeObject ?? 'Metadata', apiVersion: metaVersion, now }), out);
      case 'pom': {
        const poms = all.map((o) => toPartialObjectMetadata(o, metaVersion));
        return encodeValue(200, single ? poms[0] : { kind: 'PartialObjectMetadataList', apiVersion: metaVersion, metadata: {}, items: poms }, out);
      }
      default:
        return encodeValue(200, single ?? { kind: r.listKind, apiVersion: API_VERSION, metadata: {}, items }, out);
    }
  }

  private filterOf(query: URLSearchParams): Filter {
    try {
      return { labels: parseLabelSelector(query.get('labelSelector') ?? ''), fields: parseFieldSelector(query.get('fieldSelector') ?? '') };
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw badRequest(err instanceof Error ? err.message : String(err));
    }
  }

  private podMetrics(namespace: string, name: string, now: number): Obj | undefined {
    const pod = this.pods.get(`${namespace}/${name}`);
    return pod && podHasMetrics(pod) ? this.podMetricsOf(pod, now) : undefined;
  }

  private podMetricsOf(pod: Obj, now: number): Obj {
    const metadata: Obj = { name: pod.metadata.name, namespace: pod.metadata.namespace, creationTimestamp: rfc3339Seconds(now) };
    if (pod.metadata.labels) metadata.labels = pod.metadata.labels;
    return {
      metadata,
      timestamp: rfc3339Seconds(now),
      window: WINDOW,
      containers: podUsage(pod).map(({ name, usage }) => ({ name, usage: { cpu: formatCpu(usage.cpuMilli), memory: formatMemory(usage.memoryBytes) } })),
    };
  }

  private listPods(namespace: string, filter: Filter, now: number): Obj[] {
    return this.pods
      .list()
      .filter((p) => (!namespace || p.metadata.namespace === namespace) && podHasMetrics(p))
      .filter((p) => matchesLabels(filter.labels, p.metadata.labels) && matchesFields(filter.fields, { 'metadata.name': p.metadata.name, 'metadata.namespace': p.metadata.namespace }))
      .sort((a, b) => `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace}/${b.metadata.name}`))
      .map((p) => this.podMetricsOf(p, now));
  }

  /** Usage of a simulated node (a node without a simulated kubelet has nothing to scrape). */
  private nodeMetrics(name: string, now: number): Obj | undefined {
    const node = this.nodes.get(name);
    return node && this.simulated.has(name) ? this.nodeMetricsOf(node, now) : undefined;
  }

  private nodeMetricsOf(node: Obj, now: number): Obj {
    const name = String(node.metadata.name);
    const usage = nodeUsage(this.pods.list().filter((p) => p.spec?.nodeName === name));
    const metadata: Obj = { name, creationTimestamp: rfc3339Seconds(now) };
    if (node.metadata.labels) metadata.labels = node.metadata.labels;
    return { metadata, timestamp: rfc3339Seconds(now), window: WINDOW, usage: { cpu: formatCpu(usage.cpuMilli), memory: formatMemory(usage.memoryBytes) } };
  }

  private listNodes(filter: Filter, now: number): Obj[] {
    return this.nodes
      .list()
      .filter((n) => this.simulated.has(String(n.metadata.name)))
      .filter((n) => matchesLabels(filter.labels, n.metadata.labels) && matchesFields(filter.fields, { 'metadata.name': n.metadata.name }))
      .sort((a, b) => String(a.metadata.name).localeCompare(String(b.metadata.name)))
      .map((n) => this.nodeMetricsOf(n, now));
  }
}
