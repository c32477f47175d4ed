// The v1.23 bootstrap ClusterRoles and ClusterRoleBindings users meet
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go). Lists are sorted as kube's
// rule builder sorts them; aggregated roles carry no rules here (the aggregation step fills them).
import { aggregateAll } from './aggregation';
import { componentClusterRoleBindings, componentClusterRoles } from './bootstrap-components';
import { RBAC_GROUP, type ClusterRole, type ClusterRoleBinding, type PolicyRule } from './types';

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const READ_WRITE = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

const AGG_ADMIN = 'rbac.authorization.k8s.io/aggregate-to-admin';
const AGG_EDIT = 'rbac.authorization.k8s.io/aggregate-to-edit';
const AGG_VIEW = 'rbac.authorization.k8s.io/aggregate-to-view';

const rule = (verbs: string[], apiGroups: string[], resources: string[]): PolicyRule => ({ verbs, apiGroups, resources });
const urls = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({ verbs, nonResourceURLs });

function meta(name: string, extraLabels: Record<string, string> = {}) {
  return {
    name,
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', ...extraLabels },
    annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
  };
}

function clusterRole(name: string, rules: PolicyRule[], labels?: Record<string, string>): ClusterRole {
  return { apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole', metadata: meta(name, labels), rules };
}

function aggregating(name: string, selectLabel: string, labels?: Record<string, string>): ClusterRole {
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: 'ClusterRole',
    metadata: meta(name, labels),
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [selectLabel]: 'true' } }] },
    rules: [],
  };
}

const PUBLIC_INFO = ['/healthz', '/livez', '/readyz', '/version', '/version/'];

/** The bootstrap ClusterRoles, rules of aggregating roles left empty. */
export function bootstrapClusterRoles(): ClusterRole[] {
  return [
    aggregating('admin', AGG_ADMIN),
    clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
    aggregating('edit', AGG_EDIT, { [AGG_ADMIN]: 'true' }),
    clusterRole(
      'system:aggregate-to-admin',
      [rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']), rule(READ_WRITE, [RBAC_GROUP], ['rolebindings', 'roles'])],
      { [AGG_ADMIN]: 'true' },
    ),
    clusterRole('system:aggregate-to-edit', aggregateToEditRules(), { [AGG_EDIT]: 'true' }),
    clusterRole('system:aggregate-to-view', aggregateToViewRules(), { [AGG_VIEW]: 'true' }),
    // selfsubjectreviews is newer than v1.23 (kubectl 1.34's `auth whoami` calls it); the rule is
    // the one later releases add to this role, so every user can ask who they are.
    clusterRole('system:basic-user', [
      rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
    ]),
    clusterRole('system:discovery', [urls(['get'], ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'])]),
    clusterRole('system:public-info-viewer', [urls(['get'], PUBLIC_INFO)]),
    aggregating('view', AGG_VIEW, { [AGG_EDIT]: 'true' }),
    ...componentClusterRoles(),
  ];
}

function aggregateToEditRules(): PolicyRule[] {
  return [
    rule(READ, [''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy']),
    rule(['impersonate'], [''], ['serviceaccounts']),
    rule(WRITE, [''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
    rule(['create'], [''], ['pods/eviction']),
    rule(WRITE, [''], ['configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy']),
    rule(['create'], [''], ['serviceaccounts/token']),
    rule(WRITE, ['apps'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale']),
    rule(WRITE, ['autoscaling'], ['horizontalpodautoscalers']),
    rule(WRITE, ['batch'], ['cronjobs', 'jobs']),
    rule(WRITE, ['extensions'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale']),
    rule(WRITE, ['policy'], ['poddisruptionbudgets']),
    rule(WRITE, ['networking.k8s.io'], ['ingresses', 'networkpolicies']),
    rule(READ_WRITE, ['coordination.k8s.io'], ['leases']),
  ];
}

function aggregateToViewRules(): PolicyRule[] {
  return [
    rule(READ, [''], ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status']),
    rule(READ, [''], ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status']),
    // Reading namespaces through a RoleBinding shows only that namespace: a hint of where one has access.
    rule(READ, [''], ['namespaces']),
    rule(READ, ['discovery.k8s.io'], ['endpointslices']),
    rule(READ, ['apps'], ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status']),
    rule(READ, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
    rule(READ, ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
    rule(READ, ['extensions'], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale']),
    rule(READ, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
    rule(READ, ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
  ];
}

function groupBinding(name: string, roleName: string, groups: string[]): ClusterRoleBinding {
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: meta(name),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: roleName },
    subjects: groups.map((g) => ({ apiGroup: RBAC_GROUP, kind: 'Group', name: g })),
  };
}

export function bootstrapClusterRoleBindings(): ClusterRoleBinding[] {
  return [
    groupBinding('cluster-admin', 'cluster-admin', ['system:masters']),
    groupBinding('system:basic-user', 'system:basic-user', ['system:authenticated']),
    groupBinding('system:discovery', 'system:discovery', ['system:authenticated']),
    groupBinding('system:public-info-viewer', 'system:public-info-viewer', ['system:authenticated', 'system:unauthenticated']),
    ...componentClusterRoleBindings(),
  ];
}

/** The bootstrap ClusterRoles as a running cluster shows them: admin/edit/view aggregated. */
export function bootstrapClusterRolesAggregated(): ClusterRole[] {
  const roles = bootstrapClusterRoles();
  const done = aggregateAll(roles);
  return roles.map((r) => done.get(r.metadata.name)!);
}
