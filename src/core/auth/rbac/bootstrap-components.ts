// The v1.23 bootstrap roles of the cluster components this server runs in process (decision
// 0029): kube-controller-manager's own user (its shared informers list and watch everything),
// the per-controller service accounts of the controllers that run here
// (bootstrappolicy/controller_policy.go, bound to `kube-system/<name>` service accounts as with
// --use-service-account-credentials), kube-scheduler, and the kubelet's `system:node` role,
// which kube leaves unbound: the Node authorizer grants it (see nodeAuthorizerObjects).
import { RBAC_GROUP, type ClusterRole, type ClusterRoleBinding, type PolicyRule, type Subject } from './types';

const rule = (verbs: string[], apiGroups: string[], resources: string[]): PolicyRule => ({ verbs, apiGroups, resources });
const READ = ['get', 'list', 'watch'];
/** eventsRule(): every controller records events, in both event APIs. */
const EVENTS = rule(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']);

function meta(name: string) {
  return { name, labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' }, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' } };
}

const role = (name: string, rules: PolicyRule[]): ClusterRole => ({ apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole', metadata: meta(name), rules });

/** The controllers that run here, with their controller_policy.go rules. */
const CONTROLLER_ROLES: [string, PolicyRule[]][] = [
  [
    'certificate-controller',
    [
      rule(['get', 'list', 'watch', 'delete'], ['certificates.k8s.io'], ['certificatesigningrequests']),
      rule(['update'], ['certificates.k8s.io'], ['certificatesigningrequests/status', 'certificatesigningrequests/approval']),
      { verbs: ['approve'], apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['kubernetes.io/kube-apiserver-client-kubelet'] },
      { verbs: ['sign'], apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving', 'kubernetes.io/legacy-unknown'] },
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
      EVENTS,
    ],
  ],
  [
    'cronjob-controller',
    [
      rule(['get', 'list', 'watch', 'update'], ['batch'], ['cronjobs']),
      rule(['get', 'list', 'watch', 'create', 'update', 'delete', 'patch'], ['batch'], ['jobs']),
      rule(['update'], ['batch'], ['cronjobs/status']),
      rule(['update'], ['batch'], ['cronjobs/finalizers']),
      rule(['list', 'delete'], [''], ['pods']),
      EVENTS,
    ],
  ],
  [
    'daemon-set-controller',
    [
      rule(READ, ['extensions', 'apps'], ['daemonsets']),
      rule(['update'], ['extensions', 'apps'], ['daemonsets/status']),
      rule(['update'], ['extensions', 'apps'], ['daemonsets/finalizers']),
      rule(['list', 'watch'], [''], ['nodes']),
      rule(['list', 'watch', 'create', 'delete', 'patch'], [''], ['pods']),
      rule(['create'], [''], ['pods/binding']),
      rule(['get', 'list', 'watch', 'create', 'delete', 'update', 'patch'], ['apps'], ['controllerrevisions']),
      EVENTS,
    ],
  ],
  [
    'deployment-controller',
    [
      rule(['get', 'list', 'watch', 'update'], ['extensions', 'apps'], ['deployments']),
      rule(['update'], ['extensions', 'apps'], ['deployments/status']),
      rule(['update'], ['extensions', 'apps'], ['deployments/finalizers']),
      rule(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], ['apps', 'extensions'], ['replicasets']),
      rule(['get', 'list', 'watch', 'update'], [''], ['pods']),
      EVENTS,
    ],
  ],
  [
    'endpoint-controller',
    [rule(READ, [''], ['services', 'pods']), rule(['get', 'list', 'create', 'update', 'delete'], [''], ['endpoints']), rule(['create'], [''], ['endpoints/restricted']), EVENTS],
  ],
  [
    'endpointslice-controller',
    [
      rule(READ, [''], ['services', 'pods', 'nodes']),
      rule(['update'], [''], ['services/finalizers']),
      rule(['get', 'list', 'create', 'update', 'delete'], ['discovery.k8s.io'], ['endpointslices']),
      EVENTS,
    ],
  ],
  [
    'endpointslicemirroring-controller',
    [
      rule(READ, [''], ['services', 'endpoints']),
      rule(['update'], [''], ['services/finalizers']),
      rule(['update'], [''], ['endpoints/finalizers']),
      rule(['get', 'list', 'create', 'update', 'delete'], ['discovery.k8s.io'], ['endpointslices']),
      EVENTS,
    ],
  ],
  [
    'horizontal-pod-autoscaler',
    [
      rule(READ, ['autoscaling'], ['horizontalpodautoscalers']),
      rule(['update'], ['autoscaling'], ['horizontalpodautoscalers/status']),
      rule(['get', 'update'], ['*'], ['*/scale']),
      rule(['list'], [''], ['pods']),
      { ...rule(['get'], [''], ['services/proxy']), resourceNames: ['https:heapster:', 'http:heapster:'] },
      rule(['list'], ['metrics.k8s.io'], ['pods']),
      rule(['get', 'list'], ['custom.metrics.k8s.io'], ['*']),
      rule(['get', 'list'], ['external.metrics.k8s.io'], ['*']),
      EVENTS,
    ],
  ],
  [
    'job-controller',
    [
      rule(['get', 'list', 'watch', 'update', 'patch'], ['batch'], ['jobs']),
      rule(['update'], ['batch'], ['jobs/status']),
      rule(['update'], ['batch'], ['jobs/finalizers']),
      rule(['list', 'watch', 'create', 'delete', 'patch'], [''], ['pods']),
      EVENTS,
    ],
  ],
  [
    'node-controller',
    [
      rule(['get', 'list', 'update', 'delete', 'patch'], [''], ['nodes']),
      rule(['patch', 'update'], [''], ['nodes/status']),
      rule(['update'], [''], ['pods/status']),
      rule(['list', 'delete'], [''], ['pods']),
      EVENTS,
    ],
  ],
  [
    'persistent-volume-binder',
    [
      rule(['get', 'list', 'watch', 'update', 'create', 'delete'], [''], ['persistentvolumes']),
      rule(['update'], [''], ['persistentvolumes/status']),
      rule(['get', 'list', 'watch', 'update'], [''], ['persistentvolumeclaims']),
      rule(['update'], [''], ['persistentvolumeclaims/status']),
      rule(['list', 'watch', 'get', 'create', 'delete'], [''], ['pods']),
      rule(READ, ['storage.k8s.io'], ['storageclasses']),
      rule(['get', 'list'], [''], ['nodes']),
      rule(['watch'], [''], ['events']),
      EVENTS,
    ],
  ],
  [
    'pod-garbage-collector',
    [rule(['list', 'watch', 'delete'], [''], ['pods']), rule(['get', 'list'], [''], ['nodes'])],
  ],
  [
    'replicaset-controller',
    [
      rule(['get', 'list', 'watch', 'update'], ['apps', 'extensions'], ['replicasets']),
      rule(['update'], ['apps', 'extensions'], ['replicasets/status']),
      rule(['update'], ['apps', 'extensions'], ['replicasets/finalizers']),
      rule(['list', 'watch', 'patch', 'create', 'delete'], [''], ['pods']),
      EVENTS,
    ],
  ],
  [
    'replication-controller',
    [
      rule(['get', 'list', 'watch', 'update'], [''], ['replicationcontrollers']),
      rule(['update'], [''], ['replicationcontrollers/status']),
      rule(['update'], [''], ['replicationcontrollers/finalizers']),
      rule(['list', 'watch', 'patch', 'create', 'delete'], [''], ['pods']),
      EVENTS,
    ],
  ],
  [
    'statefulset-controller',
    [
      rule(['list', 'watch'], [''], ['pods']),
      rule(['list', 'watch'], ['apps'], ['statefulsets']),
      rule(['update'], ['apps'], ['statefulsets/status']),
      rule(['update'], ['apps'], ['statefulsets/finalizers']),
      rule(['get', 'create', 'delete', 'update', 'patch'], [''], ['pods']),
      rule(['get', 'create', 'delete', 'update', 'patch', 'list', 'watch'], ['apps'], ['controllerrevisions']),
      rule(['get', 'create'], [''], ['persistentvolumeclaims']),
      EVENTS,
    ],
  ],
  ['ttl-after-finished-controller', [rule(['delete', 'get', 'list', 'watch'], ['batch'], ['jobs']), EVENTS]],
];

/** What a kubelet may do to its own node and pods (the system:node role, narrowed to what the simulation writes). */
export const NODE_ROLE = role('system:node', [
  rule(['create', 'get', 'list', 'watch', 'update', 'patch'], [''], ['nodes']),
  rule(['patch', 'update'], [''], ['nodes/status']),
  rule(READ, [''], ['pods', 'services', 'endpoints']),
  rule(['patch', 'update'], [''], ['pods/status']),
  rule(['create'], [''], ['pods/eviction']),
  rule(['get', 'create', 'update', 'patch', 'delete'], ['coordination.k8s.io'], ['leases']),
  EVENTS,
]);

export function componentClusterRoles(): ClusterRole[] {
  return [
    role('system:kube-controller-manager', [
      EVENTS,
      rule(['create'], ['coordination.k8s.io'], ['leases']),
      rule(['create'], [''], ['secrets', 'serviceaccounts']),
      rule(['delete'], [''], ['secrets']),
      rule(['get'], [''], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts']),
      rule(['update'], [''], ['secrets', 'serviceaccounts']),
      rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
      // Needed for all shared informers.
      rule(['list', 'watch'], ['*'], ['*']),
      rule(['create'], [''], ['serviceaccounts/token']),
    ]),
    role('system:kube-scheduler', [
      EVENTS,
      rule(['create'], ['coordination.k8s.io'], ['leases']),
      rule(READ, [''], ['nodes']),
      rule(['get', 'list', 'watch', 'delete'], [''], ['pods']),
      rule(['create'], [''], ['bindings', 'pods/binding']),
      rule(['patch', 'update'], [''], ['pods/status']),
      rule(READ, [''], ['replicationcontrollers', 'services']),
      rule(READ, ['apps', 'extensions'], ['replicasets']),
      rule(READ, ['apps'], ['statefulsets']),
      rule(READ, ['policy'], ['poddisruptionbudgets']),
      rule(READ, [''], ['persistentvolumeclaims', 'persistentvolumes']),
      rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
      rule(READ, ['storage.k8s.io'], ['csinodes']),
      rule(READ, [''], ['namespaces']),
      rule(READ, ['storage.k8s.io'], ['csidrivers', 'csistoragecapacities']),
    ]),
    NODE_ROLE,
    // kube-scheduler's volume binder pre-binds volumes and marks claims for provisioning.
    role('system:volume-scheduler', [
      rule(['get', 'list', 'watch', 'patch', 'update'], [''], ['persistentvolumes']),
      rule(READ, ['storage.k8s.io'], ['storageclasses']),
      rule(['get', 'list', 'watch', 'patch', 'update'], [''], ['persistentvolumeclaims']),
    ]),
    // bootstrappolicy's role for external provisioners; the storage add-on's is bound to it.
    role('system:persistent-volume-provisioner', [
      rule(['get', 'list', 'watch', 'create', 'delete'], [''], ['persistentvolumes']),
      rule(['get', 'list', 'watch', 'update'], [''], ['persistentvolumeclaims']),
      rule(READ, ['storage.k8s.io'], ['storageclasses']),
      rule(['watch'], [''], ['events']),
      EVENTS,
    ]),
    ...CONTROLLER_ROLES.map(([name, rules]) => role(`system:controller:${name}`, rules)),
  ];
}

function binding(name: string, subject: Subject): ClusterRoleBinding {
  return { apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRoleBinding', metadata: meta(name), roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name }, subjects: [subject] };
}

export function componentClusterRoleBindings(): ClusterRoleBinding[] {
  return [
    binding('system:kube-controller-manager', { apiGroup: RBAC_GROUP, kind: 'User', name: 'system:kube-controller-manager' }),
    binding('system:kube-scheduler', { apiGroup: RBAC_GROUP, kind: 'User', name: 'system:kube-scheduler' }),
    binding('system:volume-scheduler', { apiGroup: RBAC_GROUP, kind: 'User', name: 'system:kube-scheduler' }),
    { ...binding('system:persistent-volume-provisioner', { kind: 'ServiceAccount', name: 'storage-provisioner', namespace: 'kube-system' }), metadata: meta('storage-provisioner') },
    ...CONTROLLER_ROLES.map(([name]) => binding(`system:controller:${name}`, { kind: 'ServiceAccount', name, namespace: 'kube-system' })),
  ];
}

/**
 * kube's Node authorizer in small: a node's user (`system:node:<name>` in `system:nodes`) gets
 * the system:node role. (kube also limits each node to its own objects; the simulated kubelets
 * only touch theirs.)
 */
export function nodeAuthorizerObjects(): (ClusterRole | ClusterRoleBinding)[] {
  return [NODE_ROLE, { apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRoleBinding', metadata: meta('node-authorizer'), roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: 'system:node' }, subjects: [{ apiGroup: RBAC_GROUP, kind: 'Group', name: 'system:nodes' }] }];
}
