// The API Priority and Fairness configuration a v1.23 kube-apiserver keeps in the cluster
// (k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap): the mandatory objects it always restores,
// and the suggested ones it creates and keeps current unless an operator opts out. Objects are
// written field by field in the Go structs' order so their stored JSON reads like kube's.
// (The endpoint-controller FlowSchema arrived in 1.24, not in any 1.23 patch release.)
import type { Obj } from '../registry/objects';

/** The annotation that lets the apiserver overwrite an object's spec (the value "true" or "false"). */
export const AUTO_UPDATE_ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';

const KUBE_CONTROLLER_MANAGER = 'system:kube-controller-manager';
const KUBE_SCHEDULER = 'system:kube-scheduler';
const NODES = 'system:nodes';
const MASTERS = 'system:masters';
const UNAUTHENTICATED = 'system:unauthenticated';
const AUTHENTICATED = 'system:authenticated';
const SERVICE_ACCOUNTS = 'system:serviceaccounts';

const meta = (name: string): Obj => ({ name, annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } });

const users = (...names: string[]): Obj[] => names.map((name) => ({ kind: 'User', user: { name } }));
const groups = (...names: string[]): Obj[] => names.map((name) => ({ kind: 'Group', group: { name } }));
/** Every service account of kube-system (ServiceAccountSubject keeps namespace before name). */
const kubeSystemServiceAccounts = (): Obj[] => [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } }];

/** A ResourcePolicyRule; clusterScope is left out when false, as Go's omitempty does. */
function resourceRule(verbs: string[], apiGroups: string[], resources: string[], namespaces: string[], clusterScope: boolean): Obj {
  const rule: Obj = { verbs, apiGroups, resources };
  if (clusterScope) rule.clusterScope = true;
  rule.namespaces = namespaces;
  return rule;
}

/** Rules that match every request of the given subjects. */
function everything(subjects: Obj[]): Obj {
  return {
    subjects,
    resourceRules: [resourceRule(['*'], ['*'], ['*'], ['*'], true)],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  };
}

function flowSchema(name: string, priorityLevel: string, matchingPrecedence: number, distinguisher: string, rules: Obj): Obj {
  const spec: Obj = { priorityLevelConfiguration: { name: priorityLevel }, matchingPrecedence };
  if (distinguisher) spec.distinguisherMethod = { type: distinguisher };
  spec.rules = [rules];
  return { metadata: meta(name), spec };
}

function queued(name: string, shares: number, queues: number, handSize: number, queueLengthLimit: number): Obj {
  return {
    metadata: meta(name),
    spec: { type: 'Limited', limited: { assuredConcurrencyShares: shares, limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit } } } },
  };
}

const leaderElectionVerbs = ['get', 'create', 'update'];

/** Mandatory PriorityLevelConfigurations, in kube's list order. */
export const MANDATORY_PRIORITY_LEVELS: readonly Obj[] = [
  { metadata: meta('catch-all'), spec: { type: 'Limited', limited: { assuredConcurrencyShares: 5, limitResponse: { type: 'Reject' } } } },
  { metadata: meta('exempt'), spec: { type: 'Exempt' } },
];

/** Mandatory FlowSchemas: sysadmins are never throttled; anything else has somewhere to go. */
export const MANDATORY_FLOW_SCHEMAS: readonly Obj[] = [
  flowSchema('exempt', 'exempt', 1, '', everything(groups(MASTERS))),
  flowSchema('catch-all', 'catch-all', 10000, 'ByUser', everything(groups(UNAUTHENTICATED, AUTHENTICATED))),
];

export const SUGGESTED_PRIORITY_LEVELS: readonly Obj[] = [
  queued('system', 30, 64, 6, 50),
  queued('node-high', 40, 64, 6, 50),
  queued('leader-election', 10, 16, 4, 50),
  queued('workload-high', 40, 128, 6, 50),
  queued('workload-low', 100, 128, 6, 50),
  queued('global-default', 20, 128, 6, 50),
];

export const SUGGESTED_FLOW_SCHEMAS: readonly Obj[] = [
  flowSchema('system-nodes', 'system', 500, 'ByUser', everything(groups(NODES))),
  flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: groups(NODES),
    resourceRules: [resourceRule(['*'], [''], ['nodes', 'nodes/status'], ['*'], true), resourceRule(['*'], ['coordination.k8s.io'], ['leases'], ['*'], false)],
  }),
  flowSchema('probes', 'exempt', 2, '', {
    subjects: groups(UNAUTHENTICATED, AUTHENTICATED),
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
  }),
  flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [...users(KUBE_CONTROLLER_MANAGER, KUBE_SCHEDULER), ...kubeSystemServiceAccounts()],
    resourceRules: [
      resourceRule(leaderElectionVerbs, [''], ['endpoints', 'configmaps'], ['kube-system'], false),
      resourceRule(leaderElectionVerbs, ['coordination.k8s.io'], ['leases'], ['*'], false),
    ],
  }),
  flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', {
    subjects: kubeSystemServiceAccounts(),
    resourceRules: [
      resourceRule(leaderElectionVerbs, [''], ['endpoints', 'configmaps'], ['*'], false),
      resourceRule(leaderElectionVerbs, ['coordination.k8s.io'], ['leases'], ['*'], false),
    ],
  }),
  flowSchema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', everything(users(KUBE_CONTROLLER_MANAGER))),
  flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', everything(users(KUBE_SCHEDULER))),
  flowSchema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', everything(kubeSystemServiceAccounts())),
  flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', everything(groups(SERVICE_ACCOUNTS))),
  flowSchema('global-default', 'global-default', 9900, 'ByUser', everything(groups(UNAUTHENTICATED, AUTHENTICATED))),
];
