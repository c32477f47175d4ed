// Per-resource behaviour of the generic store (the ideas of kube-apiserver's RESTCreateStrategy /
// RESTUpdateStrategy): which kinds track metadata.generation, which may be created by PUT, which
// require a resourceVersion on update, and how create resets status.
import type { ResourceInfo } from './types';
import type { Obj } from './objects';

export interface Strategy {
  /** Has a status subresource: writes to the main resource keep the stored status, and vice versa. */
  hasStatusSubresource: boolean;
  /** metadata.generation starts at 1 and is bumped when anything but metadata and status changes. */
  tracksGeneration: boolean;
  /** PUT of a missing object creates it. */
  allowCreateOnUpdate: boolean;
  /** PUT without metadata.resourceVersion is allowed (last write wins). */
  allowUnconditionalUpdate: boolean;
  /** Reset fields a client may not set on create (status for most kinds). */
  prepareForCreate(obj: Obj): void;
  /** A terminating object may leave storage: no finalizers left (namespaces: spec.finalizers too). */
  finalized(obj: Obj): boolean;
}

/** group/resource of kinds whose strategy bumps generation on spec changes (v1.23). */
const GENERATION_TRACKING = new Set([
  'apps/deployments',
  'apps/replicasets',
  'apps/statefulsets',
  'apps/daemonsets',
  'batch/jobs',
  'batch/cronjobs',
  '/replicationcontrollers',
  '/podtemplates',
  'discovery.k8s.io/endpointslices',
  'autoscaling/horizontalpodautoscalers',
  'policy/poddisruptionbudgets',
  'networking.k8s.io/ingresses',
  'networking.k8s.io/networkpolicies',
  'apiextensions.k8s.io/customresourcedefinitions',
  'flowcontrol.apiserver.k8s.io/flowschemas',
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations',
]);

/** group/resource whose REST strategy allows create on update (v1.23). */
const CREATE_ON_UPDATE = new Set([
  '/endpoints',
  '/events',
  '/services',
  '/limitranges',
  'events.k8s.io/events',
  'coordination.k8s.io/leases',
  'rbac.authorization.k8s.io/roles',
  'rbac.authorization.k8s.io/rolebindings',
  'rbac.authorization.k8s.io/clusterroles',
  'rbac.authorization.k8s.io/clusterrolebindings',
  'storage.k8s.io/storageclasses',
  'flowcontrol.apiserver.k8s.io/flowschemas',
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations',
]);

/** Status a freshly created object starts with, by group/resource; others start without status. */
const INITIAL_STATUS: Record<string, () => Obj> = {
  '/pods': () => ({ phase: 'Pending' }),
  '/namespaces': () => ({ phase: 'Active' }),
  '/persistentvolumeclaims': () => ({ phase: 'Pending' }),
  '/persistentvolumes': () => ({ phase: 'Pending' }),
  '/services': () => ({ loadBalancer: {} }),
  'apps/deployments': () => ({}),
  'apps/replicasets': () => ({ replicas: 0 }),
  'apps/statefulsets': () => ({ replicas: 0, availableReplicas: 0 }),
  'apps/daemonsets': () => ({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 }),
  'batch/jobs': () => ({}),
  'batch/cronjobs': () => ({}),
  'networking.k8s.io/ingresses': () => ({ loadBalancer: {} }),
  'policy/poddisruptionbudgets': () => ({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }),
};

export function strategyFor(info: ResourceInfo): Strategy {
  const gr = `${info.group}/${info.resource}`;
  const hasStatus = info.subresources.some((s) => s.name === 'status');
  const initial = INITIAL_STATUS[gr];
  return {
    hasStatusSubresource: hasStatus,
    tracksGeneration: info.custom === true || GENERATION_TRACKING.has(gr),
    allowCreateOnUpdate: CREATE_ON_UPDATE.has(gr),
    // Custom resources require a resourceVersion on update; built-ins allow last-write-wins.
    allowUnconditionalUpdate: info.custom !== true,
    finalized(obj: Obj) {
      if (obj.metadata?.finalizers?.length > 0) return false;
      return gr !== '/namespaces' || !(obj.spec?.finalizers?.length > 0);
    },
    prepareForCreate(obj: Obj) {
      if (!hasStatus) return;
      if (initial) obj.status = initial();
      else if (info.custom) delete obj.status;
      else delete obj.status;
    },
  };
}
