// Deprecated API versions of v1.23: the `Warning` header text, the audit annotations and the
// removed-release label, as kube-apiserver derives them from each type's prerelease-lifecycle
// tags (deprecated / removed / replacement). A type whose deprecation release is later than the
// server's version (storage.k8s.io/v1beta1 CSIStorageCapacity: 1.24) is not warned about yet.

/** The release this server impersonates. */
const SERVER_MINOR = 23;

interface Lifecycle {
  deprecated: number;
  /** Absent for a GA type deprecated without a removal release (v1 ComponentStatus). */
  removed?: number;
  /** `group/version Kind` to use instead, when the type names one. */
  replacement?: string;
}

/** Keyed by `group/version/resource` (core group empty); minor versions of 1.x. */
const LIFECYCLES: Record<string, Lifecycle> = {
  '/v1/componentstatuses': { deprecated: 19 },
  'batch/v1beta1/cronjobs': { deprecated: 21, removed: 25, replacement: 'batch/v1 CronJob' },
  'discovery.k8s.io/v1beta1/endpointslices': { deprecated: 21, removed: 25, replacement: 'discovery.k8s.io/v1 EndpointSlice' },
  'events.k8s.io/v1beta1/events': { deprecated: 22, removed: 25 },
  'policy/v1beta1/poddisruptionbudgets': { deprecated: 21, removed: 25, replacement: 'policy/v1 PodDisruptionBudget' },
  'policy/v1beta1/podsecuritypolicies': { deprecated: 21, removed: 25 },
  'node.k8s.io/v1beta1/runtimeclasses': { deprecated: 22, removed: 25 },
  'autoscaling/v2beta1/horizontalpodautoscalers': { deprecated: 22, removed: 25, replacement: 'autoscaling/v2 HorizontalPodAutoscaler' },
  'autoscaling/v2beta2/horizontalpodautoscalers': { deprecated: 23, removed: 26, replacement: 'autoscaling/v2 HorizontalPodAutoscaler' },
  'flowcontrol.apiserver.k8s.io/v1beta1/flowschemas': { deprecated: 23, removed: 26 },
  'flowcontrol.apiserver.k8s.io/v1beta1/prioritylevelconfigurations': { deprecated: 23, removed: 26 },
  'storage.k8s.io/v1beta1/csistoragecapacities': { deprecated: 24, removed: 27 },
};

export interface Deprecation {
  /** The Warning text (without the `299 - "..."` framing). */
  warning: string;
  /** `1.25`: the audit annotation `k8s.io/removed-release` and the metric's removed_release label. */
  removedRelease: string;
}

export interface DeprecatedResource {
  group: string;
  version: string;
  resource: string;
  kind: string;
  /** Set on the served versions of a CRD marked `deprecated: true` (see registry/crd/deprecation.ts). */
  deprecationWarning?: string;
}

/** The deprecation of a served resource at this server's release, or undefined when it is current. */
/** Per resource object (looked up on every request to it, twice). */
const known = new WeakMap<DeprecatedResource, Deprecation | null>();

export function deprecationOf(r: DeprecatedResource): Deprecation | undefined {
  let d = known.get(r);
  if (d === undefined) {
    d = computeDeprecation(r) ?? null;
    known.set(r, d);
  }
  return d ?? undefined;
}

function computeDeprecation(r: DeprecatedResource): Deprecation | undefined {
  // A CRD version names no release it goes away in: kube records an empty removed_release.
  if (r.deprecationWarning !== undefined) return { warning: r.deprecationWarning, removedRelease: '' };
  const lifecycle = LIFECYCLES[`${r.group}/${r.version}/${r.resource}`];
  if (!lifecycle || lifecycle.deprecated > SERVER_MINOR) return undefined;
  const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
  let warning = `${apiVersion} ${r.kind} is deprecated in v1.${lifecycle.deprecated}+`;
  if (lifecycle.removed !== undefined) warning += `, unavailable in v1.${lifecycle.removed}+`;
  if (lifecycle.replacement) warning += `; use ${lifecycle.replacement}`;
  return { warning, removedRelease: lifecycle.removed !== undefined ? `1.${lifecycle.removed}` : '' };
}
