// The OpenAPI definitions metrics-server v0.6 publishes for metrics.k8s.io/v1beta1 (its generated
// openapi of k8s.io/metrics' types), which kube-aggregator merges into `/openapi/v2` while the
// APIService is available. Written in the served document's own style: no descriptions or
// defaults, as the built-in definitions here are kept.
type Json = Record<string, unknown>;

export const METRICS_DEFINITION_PREFIX = 'io.k8s.metrics.pkg.apis.metrics.v1beta1.';

const ref = (name: string): Json => ({ $ref: `#/definitions/${name}` });
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const usage: Json = { additionalProperties: ref('io.k8s.apimachinery.pkg.api.resource.Quantity'), type: 'object' };
const gvk = (kind: string): Json => ({ 'x-kubernetes-group-version-kind': [{ group: 'metrics.k8s.io', kind, version: 'v1beta1' }] });

/** The five types, keyed by definition name, and metav1.Duration (a string) which kube's own document has no use for. */
export const METRICS_DEFINITIONS: Record<string, Json> = {
  [`${META}Duration`]: { type: 'string' },
  [`${METRICS_DEFINITION_PREFIX}ContainerMetrics`]: {
    properties: { name: { type: 'string' }, usage },
    required: ['name', 'usage'],
    type: 'object',
  },
  [`${METRICS_DEFINITION_PREFIX}NodeMetrics`]: {
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: ref(`${META}ObjectMeta`),
      timestamp: ref(`${META}Time`),
      usage,
      window: ref(`${META}Duration`),
    },
    required: ['timestamp', 'window', 'usage'],
    type: 'object',
    ...gvk('NodeMetrics'),
  },
  [`${METRICS_DEFINITION_PREFIX}NodeMetricsList`]: {
    properties: {
      apiVersion: { type: 'string' },
      items: { items: ref(`${METRICS_DEFINITION_PREFIX}NodeMetrics`), type: 'array' },
      kind: { type: 'string' },
      metadata: ref(`${META}ListMeta`),
    },
    required: ['items'],
    type: 'object',
    ...gvk('NodeMetricsList'),
  },
  [`${METRICS_DEFINITION_PREFIX}PodMetrics`]: {
    properties: {
      apiVersion: { type: 'string' },
      containers: { items: ref(`${METRICS_DEFINITION_PREFIX}ContainerMetrics`), type: 'array' },
      kind: { type: 'string' },
      metadata: ref(`${META}ObjectMeta`),
      timestamp: ref(`${META}Time`),
      window: ref(`${META}Duration`),
    },
    required: ['timestamp', 'window', 'containers'],
    type: 'object',
    ...gvk('PodMetrics'),
  },
  [`${METRICS_DEFINITION_PREFIX}PodMetricsList`]: {
    properties: {
      apiVersion: { type: 'string' },
      items: { items: ref(`${METRICS_DEFINITION_PREFIX}PodMetrics`), type: 'array' },
      kind: { type: 'string' },
      metadata: ref(`${META}ListMeta`),
    },
    required: ['items'],
    type: 'object',
    ...gvk('PodMetricsList'),
  },
};
