// kube-apiserver's request metrics (names, help texts, labels and buckets of v1.23) served at
// /metrics: request counts and latencies, deprecated APIs requested, stored objects, watch
// events and open long-running requests.
import { Counter, Gauge, GaugeFunc, Histogram, MetricsRegistry, type HistogramSeries, type Labels } from './metrics-registry';
import type { RequestInfo } from '../meta/requestinfo';

/** apiserver_request_duration_seconds buckets of v1.23. */
const DURATION_BUCKETS = [
  0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];

/** The route verb kube's instrumentation reports (installer action verbs, APPLY for apply patches). */
const ROUTE_VERBS: Record<string, string> = {
  get: 'GET',
  list: 'LIST',
  watch: 'WATCH',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  deletecollection: 'DELETECOLLECTION',
};

export function reportedVerb(info: RequestInfo, contentType: string | undefined): string {
  const verb = ROUTE_VERBS[info.verb] ?? info.verb.toUpperCase();
  if (verb === 'PATCH' && (contentType ?? '').split(';')[0].trim() === 'application/apply-patch+yaml') return 'APPLY';
  return verb;
}

/** CleanScope: resource (named or create), namespace, cluster. */
export function reportedScope(info: RequestInfo): string {
  if (info.name || info.verb === 'create') return 'resource';
  if (info.namespace) return 'namespace';
  return info.isResourceRequest ? 'cluster' : '';
}

/**
 * Labels remembered per request info (shared and frozen, meta/requestinfo.ts) for the verbs whose
 * labels do not depend on the content type: the same object each request, so the metrics find
 * its series by identity rather than by a key string built and hashed per request.
 */
const labelsByInfo = new WeakMap<RequestInfo, { plain?: Labels; dryRun?: Labels }>();

/** The labels every request metric shares, without code. */
export function requestLabels(info: RequestInfo, contentType: string | undefined, dryRun: boolean): Labels {
  if (info.verb === 'patch' || !Object.isFrozen(info)) return makeRequestLabels(info, contentType, dryRun);
  let known = labelsByInfo.get(info);
  if (!known) labelsByInfo.set(info, (known = {}));
  const slot = dryRun ? 'dryRun' : 'plain';
  return (known[slot] ??= Object.freeze(makeRequestLabels(info, contentType, dryRun)));
}

function makeRequestLabels(info: RequestInfo, contentType: string | undefined, dryRun: boolean): Labels {
  return {
    verb: reportedVerb(info, contentType),
    dry_run: dryRun ? 'All' : '',
    group: info.group,
    version: info.version,
    resource: info.resource,
    subresource: info.subresource,
    scope: reportedScope(info),
    component: 'apiserver',
  };
}

/** etcd_request_duration_seconds buckets of v1.23 (pkg/storage/etcd3/metrics). */
const STORAGE_DURATION_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 15, 30, 60];

/** What the storage metrics read at scrape time. */
export interface StorageStats {
  /** apiserver_storage_objects (resource label: `pods`, `deployments.apps`). */
  objectCounts(): Array<{ resource: string; count: number }>;
  /** etcd_db_total_size_in_bytes per endpoint (etcd only). */
  dbSizes?(): Array<{ endpoint: string; bytes: number }>;
}

const LONGRUNNING_HELP = 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.';

export class ApiMetrics {
  readonly registry = new MetricsRegistry();
  private requests = this.registry.register(
    new Counter('apiserver_request_total', '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.'),
  );
  private durations = this.registry.register(
    new Histogram('apiserver_request_duration_seconds', '[STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.', DURATION_BUCKETS),
  );
  private deprecated = this.registry.register(
    new Gauge('apiserver_requested_deprecated_apis', '[STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.'),
  );
  private watchEvents = this.registry.register(new Counter('apiserver_watch_events_total', '[ALPHA] Number of events sent in watch clients'));
  private longrunning = this.registry.register(new Gauge('apiserver_longrunning_requests', `[ALPHA] ${LONGRUNNING_HELP}`));
  /** Replaced by apiserver_longrunning_requests in 1.23; still exported, described as deprecated. */
  private longrunningDeprecated = this.registry.register(new Gauge('apiserver_longrunning_gauge', `[ALPHA] (Deprecated since 1.23.0) ${LONGRUNNING_HELP}`), '1.23.0');

  private storageDurations = this.registry.register(
    new Histogram('etcd_request_duration_seconds', '[ALPHA] Etcd request latency in seconds for each operation and object type.', STORAGE_DURATION_BUCKETS),
  );
  /** Per operation and type: its duration series, found with one lookup. */
  private storageSeries = new Map<string, Map<string, HistogramSeries>>();

  /** A function alone: apiserver_storage_objects at scrape time (tests). */
  constructor(stats: StorageStats | (() => Array<{ resource: string; count: number }>)) {
    const { objectCounts, dbSizes } = typeof stats === 'function' ? { objectCounts: stats, dbSizes: undefined } : stats;
    if (dbSizes) {
      this.registry.register(
        new GaugeFunc('etcd_db_total_size_in_bytes', '[ALPHA] Total size of the etcd database file physically allocated in bytes.', () =>
          dbSizes().map((s) => ({ labels: { endpoint: s.endpoint }, value: s.bytes })),
        ),
      );
    }
    this.registry.register(
      new GaugeFunc('apiserver_storage_objects', '[STABLE] Number of stored objects at the time of last check split by kind.', () =>
        objectCounts().map((c) => ({ labels: { resource: c.resource }, value: c.count })),
      ),
    );
    // Deprecated in 1.22, so hidden in 1.23: only --show-hidden-metrics-for-version=1.22 brings it back.
    this.registry.register(
      new GaugeFunc('etcd_object_counts', '[ALPHA] (Deprecated since 1.22.0) Number of stored objects at the time of last check split by kind. This metric is replaced by apiserver_storage_object_counts.', () =>
        objectCounts().map((c) => ({ labels: { resource: c.resource }, value: c.count })),
      ),
      '1.22.0',
    );
  }

  /** kube's SetShowHidden: metrics hidden in this release (deprecated in the previous one) are exported again. */
  showHiddenMetrics(): void {
    this.registry.showHidden = true;
  }

  /** Per label set (from requestLabels): its duration series and its counter per response code, found with one lookup. */
  private requestSeries = new Map<string, { duration: HistogramSeries; byCode: Map<number, { value: number }> }>();
  /** The same series by a remembered (frozen) labels object: no key string per request. */
  private seriesByLabels = new WeakMap<Labels, { duration: HistogramSeries; byCode: Map<number, { value: number }> }>();

  observeRequest(labels: Labels, code: number, seconds: number): void {
    let s = this.seriesByLabels.get(labels);
    if (!s) {
      const key = `${labels.verb}|${labels.dry_run}|${labels.group}|${labels.version}|${labels.resource}|${labels.subresource}|${labels.scope}|${labels.component}`;
      s = this.requestSeries.get(key);
      if (!s) {
        s = { duration: this.durations.series(labels), byCode: new Map() };
        this.requestSeries.set(key, s);
      }
      if (Object.isFrozen(labels)) this.seriesByLabels.set(labels, s);
    }
    let counter = s.byCode.get(code);
    if (!counter) {
      counter = this.requests.entry({ ...labels, code: String(code) });
      s.byCode.set(code, counter);
    }
    counter.value++;
    this.durations.observeSeries(s.duration, seconds);
  }

  /** One storage request: `type` is the Go type kube names (`*core.ConfigMap`, `*apps.DeploymentList`). */
  observeStorage(operation: string, type: string, seconds: number): void {
    // By operation, then type: both are constant strings (hashed once), where a joined key was a
    // fresh string to hash on every storage call.
    let byType = this.storageSeries.get(operation);
    if (!byType) this.storageSeries.set(operation, (byType = new Map()));
    let s = byType.get(type);
    if (!s) {
      s = this.storageDurations.series({ operation, type });
      byType.set(type, s);
    }
    this.storageDurations.observeSeries(s, seconds);
  }

  requestedDeprecated(info: RequestInfo, removedRelease: string): void {
    this.deprecated.set({ group: info.group, version: info.version, resource: info.resource, subresource: info.subresource, removed_release: removedRelease }, 1);
  }

  /** One event sent to a watcher; kind is GroupVersionKind.String(): `apps/v1, Kind=Deployment`. */
  watchEventSent(apiVersion: string, kind: string): void {
    this.watchEvents.add({ kind: `${apiVersion.includes('/') ? apiVersion : `/${apiVersion}`}, Kind=${kind}` });
  }

  /** A long-running request started (+1) or ended (-1). */
  longrunningChanged(labels: Labels, delta: number): void {
    const { dry_run: _dryRun, ...rest } = labels;
    this.longrunning.add(rest, delta);
    this.longrunningDeprecated.add(rest, delta);
  }

  requestCount(labels: Labels): number {
    return this.requests.get(labels);
  }

  render(): string {
    return this.registry.render();
  }
}
