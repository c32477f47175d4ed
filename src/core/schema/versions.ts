// Ordering of API versions and groups the way kube-apiserver presents them in discovery.

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * Kube-aware version order (highest priority first): GA before beta before alpha; within a
 * stability level the higher major, then the higher minor wins (v2 > v1, v1beta2 > v1beta1).
 * Versions that do not look like Kubernetes versions sort after those that do, alphabetically.
 */
export function compareVersionPriority(a: string, b: string): number {
  const ma = KUBE_VERSION.exec(a);
  const mb = KUBE_VERSION.exec(b);
  if (!ma || !mb) {
    if (ma) return -1;
    if (mb) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const level = (m: RegExpExecArray) => (m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0);
  if (level(ma) !== level(mb)) return level(mb) - level(ma);
  const majorDiff = Number(mb[1]) - Number(ma[1]);
  if (majorDiff !== 0) return majorDiff;
  return Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}

/**
 * Group order of kube-apiserver's `/apis` (the aggregator's group priorities, highest first).
 * Groups not listed (custom resource groups) follow, alphabetically.
 */
const GROUP_ORDER = [
  'apiregistration.k8s.io',
  'apps',
  'events.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'networking.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'storage.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'scheduling.k8s.io',
  'coordination.k8s.io',
  'node.k8s.io',
  'discovery.k8s.io',
  'flowcontrol.apiserver.k8s.io',
];

/** Aggregated groups whose APIService asks a lower priority than CRDs' 1000 (metrics-server: 100): last. */
const AFTER_CUSTOM_GROUPS = new Set(['metrics.k8s.io']);

export function compareGroupPriority(a: string, b: string): number {
  const lateA = AFTER_CUSTOM_GROUPS.has(a);
  if (lateA !== AFTER_CUSTOM_GROUPS.has(b)) return lateA ? 1 : -1;
  const ia = GROUP_ORDER.indexOf(a);
  const ib = GROUP_ORDER.indexOf(b);
  if (ia !== -1 || ib !== -1) {
    if (ia === -1) return 1;
    if (ib === -1) return -1;
    return ia - ib;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}
