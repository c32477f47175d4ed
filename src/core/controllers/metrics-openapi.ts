// The OpenAPI definitions metrics-server v0.6 publishes for metrics.k8s.io/v1beta1 (its generated
// openapi of k8s.io/metrics' types), which kube-aggregator merges into `/openapi/v2` while the
// APIService is available. Written in the served document's own style: no descriptions or
// defaults, as the built-in definitions here are kept.
type Json = Record<string, unknown>;

export const METRICS_DEFINITION_PREFIX = 'io.k8s.metrics.pkg.apis.metrics.v1beta1.';

const ref = (name: string): Json => ({ $ref: `#/definitions/${name}` });
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const usage: Json = { additionalProperties: ref('io.k8s.apimachinery.pkg.api.resource.Quantity'), type: 'object' };

/** A kind of the group: its properties with apiVersion and kind, in sorted order as Go writes a map. */
function kindDefinition(kind: string, properties: Json, required: string[]): Json {
  const all: Json = { apiVersion: { type: 'string' }, kind: { type: 'string' }, ...properties };
  const sorted = Object.fromEntries(Object.keys(all).sort().map((k) => [k, all[k]]));
  return { properties: sorted, required, type: 'object', 'x-kubernetes-group-version-kind': [{ group: 'metrics.k8s.io', kind, version: 'v1beta1' }] };
}

/** A metrics kind: metadata and the [timestamp - window, timestamp] interval its usage covers. */
const metricsKind = (kind: string, usageField: string, usageSchema: Json): Json =>
  kindDefinition(kind, { metadata: ref(`${META}ObjectMeta`), timestamp: ref(`${META}Time`), window: ref(`${META}Duration`), [usageField]: usageSchema }, ['timestamp', 'window', usageField]);

const listKind = (kind: string): Json =>
  kindDefinition(`${kind}List`, { items: { items: ref(`${METRICS_DEFINITION_PREFIX}${kind}`), type: 'array' }, metadata: ref(`${META}ListMeta`) }, ['items']);

/** The five types, keyed by definition name, and metav1.Duration (a string) which kube's own document has no use for. */
export const METRICS_DEFINITIONS: Record<string, Json> = {
  [`${META}Duration`]: { type: 'string' },
  [`${METRICS_DEFINITION_PREFIX}ContainerMetrics`]: { properties: { name: { type: 'string' }, usage }, required: ['name', 'usage'], type: 'object' },
  [`${METRICS_DEFINITION_PREFIX}NodeMetrics`]: metricsKind('NodeMetrics', 'usage', usage),
  [`${METRICS_DEFINITION_PREFIX}NodeMetricsList`]: listKind('NodeMetrics'),
  [`${METRICS_DEFINITION_PREFIX}PodMetrics`]: metricsKind('PodMetrics', 'containers', { items: ref(`${METRICS_DEFINITION_PREFIX}ContainerMetrics`), type: 'array' }),
  [`${METRICS_DEFINITION_PREFIX}PodMetricsList`]: listKind('PodMetrics'),
};
