// The discovery priorities kube-apiserver v1.23 gives its built-in group/versions
// (`apiVersionPriorities` in cmd/kube-apiserver/app/aggregator.go): an APIService is registered
// only for a served group/version listed here. Only the entries for group/versions this server
// can serve are kept; apiregistration.k8s.io is absent on purpose, as in kube (the aggregator
// serves it itself, so no APIService names it).

export interface ApiServicePriority {
  /** spec.groupPriorityMinimum: the group's place among groups. */
  group: number;
  /** spec.versionPriority: the version's place within its group. */
  version: number;
}

const PRIORITIES: Record<string, ApiServicePriority> = {
  '/v1': { group: 18000, version: 1 },
  'apps/v1': { group: 17800, version: 15 },
  'events.k8s.io/v1': { group: 17750, version: 15 },
  'events.k8s.io/v1beta1': { group: 17750, version: 5 },
  'authentication.k8s.io/v1': { group: 17700, version: 15 },
  'authorization.k8s.io/v1': { group: 17600, version: 15 },
  'autoscaling/v1': { group: 17500, version: 15 },
  'autoscaling/v2': { group: 17500, version: 30 },
  'autoscaling/v2beta1': { group: 17500, version: 9 },
  'autoscaling/v2beta2': { group: 17500, version: 1 },
  'batch/v1': { group: 17400, version: 15 },
  'batch/v1beta1': { group: 17400, version: 9 },
  'certificates.k8s.io/v1': { group: 17300, version: 15 },
  'networking.k8s.io/v1': { group: 17200, version: 15 },
  'policy/v1': { group: 17100, version: 15 },
  'policy/v1beta1': { group: 17100, version: 9 },
  'rbac.authorization.k8s.io/v1': { group: 17000, version: 15 },
  'storage.k8s.io/v1': { group: 16800, version: 15 },
  'storage.k8s.io/v1beta1': { group: 16800, version: 9 },
  'apiextensions.k8s.io/v1': { group: 16700, version: 15 },
  'admissionregistration.k8s.io/v1': { group: 16700, version: 15 },
  'scheduling.k8s.io/v1': { group: 16600, version: 15 },
  'coordination.k8s.io/v1': { group: 16500, version: 15 },
  'node.k8s.io/v1': { group: 16300, version: 15 },
  'node.k8s.io/v1beta1': { group: 16300, version: 9 },
  'discovery.k8s.io/v1': { group: 16200, version: 15 },
  'discovery.k8s.io/v1beta1': { group: 16200, version: 12 },
  'flowcontrol.apiserver.k8s.io/v1beta2': { group: 16100, version: 15 },
  'flowcontrol.apiserver.k8s.io/v1beta1': { group: 16100, version: 12 },
};

/** The built-in priority of a group/version, or undefined when kube registers no APIService for it. */
export function builtinApiServicePriority(group: string, version: string): ApiServicePriority | undefined {
  return PRIORITIES[`${group}/${version}`];
}
