// Allowed values of string fields whose v1.23 OpenAPI carries no `enum` (v1.23 describes them in
// prose, and the served schemas keep no such lists): the common fields people type by hand, keyed
// by `<definition name>.<property>`. For list fields (accessModes, ipFamilies, ...) the values are
// those of the items. Values as the v1.23 Go API types define them.
const CORE = 'io.k8s.api.core.v1.';

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const ACCESS_MODES = ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'];
const SET_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];
const WEBHOOK = { failurePolicy: ['Fail', 'Ignore'], sideEffects: ['None', 'NoneOnDryRun'], matchPolicy: ['Exact', 'Equivalent'] };

const TABLE: Record<string, Record<string, readonly string[]>> = {
  [`${CORE}Container`]: { imagePullPolicy: ['Always', 'IfNotPresent', 'Never'], terminationMessagePolicy: ['File', 'FallbackToLogsOnError'] },
  [`${CORE}EphemeralContainer`]: { imagePullPolicy: ['Always', 'IfNotPresent', 'Never'], terminationMessagePolicy: ['File', 'FallbackToLogsOnError'] },
  [`${CORE}PodSpec`]: { restartPolicy: ['Always', 'OnFailure', 'Never'], dnsPolicy: ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'], preemptionPolicy: ['PreemptLowerPriority', 'Never'] },
  [`${CORE}ContainerPort`]: { protocol: PROTOCOLS },
  [`${CORE}ServicePort`]: { protocol: PROTOCOLS },
  [`${CORE}EndpointPort`]: { protocol: PROTOCOLS },
  'io.k8s.api.discovery.v1.EndpointPort': { protocol: PROTOCOLS },
  'io.k8s.api.networking.v1.NetworkPolicyPort': { protocol: PROTOCOLS },
  [`${CORE}ServiceSpec`]: {
    type: ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'],
    sessionAffinity: ['None', 'ClientIP'],
    externalTrafficPolicy: ['Cluster', 'Local'],
    internalTrafficPolicy: ['Cluster', 'Local'],
    ipFamilyPolicy: ['SingleStack', 'PreferDualStack', 'RequireDualStack'],
    ipFamilies: ['IPv4', 'IPv6'],
  },
  [`${CORE}PersistentVolumeClaimSpec`]: { accessModes: ACCESS_MODES, volumeMode: ['Filesystem', 'Block'] },
  [`${CORE}PersistentVolumeSpec`]: { accessModes: ACCESS_MODES, volumeMode: ['Filesystem', 'Block'], persistentVolumeReclaimPolicy: ['Retain', 'Delete', 'Recycle'] },
  [`${CORE}Toleration`]: { operator: ['Equal', 'Exists'], effect: TAINT_EFFECTS },
  [`${CORE}Taint`]: { effect: TAINT_EFFECTS },
  [`${CORE}NodeSelectorRequirement`]: { operator: [...SET_OPERATORS, 'Gt', 'Lt'] },
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement': { operator: SET_OPERATORS },
  [`${CORE}ScopedResourceSelectorRequirement`]: { operator: SET_OPERATORS, scopeName: ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'] },
  [`${CORE}SeccompProfile`]: { type: ['RuntimeDefault', 'Localhost', 'Unconfined'] },
  [`${CORE}HTTPGetAction`]: { scheme: ['HTTP', 'HTTPS'] },
  [`${CORE}TopologySpreadConstraint`]: { whenUnsatisfiable: ['DoNotSchedule', 'ScheduleAnyway'] },
  [`${CORE}HostPathVolumeSource`]: { type: ['DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice'] },
  [`${CORE}PodSecurityContext`]: { fsGroupChangePolicy: ['OnRootMismatch', 'Always'] },
  [`${CORE}SecurityContext`]: { procMount: ['Default', 'Unmasked'] },
  'io.k8s.api.apps.v1.DeploymentStrategy': { type: ['RollingUpdate', 'Recreate'] },
  'io.k8s.api.apps.v1.DaemonSetUpdateStrategy': { type: ['RollingUpdate', 'OnDelete'] },
  'io.k8s.api.apps.v1.StatefulSetUpdateStrategy': { type: ['RollingUpdate', 'OnDelete'] },
  'io.k8s.api.apps.v1.StatefulSetSpec': { podManagementPolicy: ['OrderedReady', 'Parallel'] },
  'io.k8s.api.batch.v1.JobSpec': { completionMode: ['NonIndexed', 'Indexed'] },
  'io.k8s.api.batch.v1.CronJobSpec': { concurrencyPolicy: ['Allow', 'Forbid', 'Replace'] },
  'io.k8s.api.networking.v1.HTTPIngressPath': { pathType: ['Prefix', 'Exact', 'ImplementationSpecific'] },
  'io.k8s.api.networking.v1.NetworkPolicySpec': { policyTypes: ['Ingress', 'Egress'] },
  'io.k8s.api.admissionregistration.v1.ValidatingWebhook': WEBHOOK,
  'io.k8s.api.admissionregistration.v1.MutatingWebhook': { ...WEBHOOK, reinvocationPolicy: ['Never', 'IfNeeded'] },
  'io.k8s.api.admissionregistration.v1.RuleWithOperations': { scope: ['*', 'Cluster', 'Namespaced'], operations: ['*', 'CREATE', 'UPDATE', 'DELETE', 'CONNECT'] },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec': { scope: ['Namespaced', 'Cluster'] },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceConversion': { strategy: ['None', 'Webhook'] },
};

/** The known values of `definition.property`, or undefined when the table has none. */
export function knownEnum(definition: string | undefined, property: string): readonly string[] | undefined {
  return definition ? TABLE[definition]?.[property] : undefined;
}
