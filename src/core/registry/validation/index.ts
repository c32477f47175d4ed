// Validation and defaulting for built-in kinds, as kube-apiserver v1.23 does it. The registry
// calls, per write: prepareForUpdate (updates), defaults, allocateServiceAddresses (Services),
// validateObjectMeta[/Update] and the kind's validateCreate/validateUpdate.
import { mutatingWebhookConfigurationRules, validatingWebhookConfigurationRules } from './admission-registration';
import { horizontalPodAutoscalerRules } from './autoscaling';
import { cronJobRules, jobRules } from './batch';
import { configMapRules, secretRules } from './config';
import { eventRules, leaseRules, namespaceRules, nodeRules, serviceAccountRules } from './core-misc';
import { daemonSetRules, deploymentRules, replicaSetRules, statefulSetRules } from './apps';
import { endpointSliceRules, endpointsRules } from './endpoints';
import { podTemplateRules, replicationControllerRules } from './replication-controller';
import type { KindRules } from './kind-rules';
import type { NameRule } from './names';
import { ingressRules } from './networking';
import { ingressClassRules } from './ingress-class';
import { networkPolicyRules } from './network-policy';
import { podDisruptionBudgetRules } from './policy';
import { podRules } from './pod';
import { pvcRules } from './pvc';
import { limitRangeRules, resourceQuotaRules } from './quota';
import { persistentVolumeRules, storageClassRules } from './storage';
import { clusterRoleBindingRules, clusterRoleRules, roleBindingRules, roleRules } from './rbac';
import { serviceRules } from './service';
import { priorityClassRules } from './scheduling';
import { flowSchemaRules, priorityLevelConfigurationRules } from './flowcontrol';
import { runtimeClassRules } from './node';
import { eventsV1Rules } from './events-v1';
import { apiServiceRules, certificateSigningRequestRules, controllerRevisionRules } from './api-misc';
import { csiDriverRules, csiNodeRules, csiStorageCapacityRules, volumeAttachmentRules } from './storage-csi';

export type { KindRules } from './kind-rules';
export type { NameRule } from './names';
export { validateObjectMeta, validateObjectMetaUpdate, validateLabels, validateAnnotations, validateLabelSelector, selectorMatches, type ObjectMetaOptions } from './meta';
export {
  isDNS1123Subdomain,
  isDNS1123Label,
  isDNS1035Label,
  isQualifiedName,
  isValidLabelValue,
  isConfigMapKey,
  isValidPortName,
  isValidPortNum,
  isValidPathSegmentName,
  validateName,
} from './names';
export {
  ClusterIpAllocator,
  NodePortAllocator,
  KUBERNETES_SERVICE_IP,
  allocateServiceAddresses,
  releaseServiceAddresses,
  reserveServiceAddresses,
  type ServiceAllocators,
  type AllocationResult,
} from './cluster-ip';
export { parseQuantity, formatQuantity, compareQuantity, canonicalQuantity, QUANTITY_REGEX_ERROR, type Quantity } from './quantity';
export { podQOSClass } from './pod-defaults';
export { cronScheduleError } from './cron';
export { SYSTEM_PRIORITY_CLASSES } from './scheduling';

const RULES: Record<string, KindRules> = {
  'events.k8s.io/Event': eventsV1Rules,
  'apiregistration.k8s.io/APIService': apiServiceRules,
  'certificates.k8s.io/CertificateSigningRequest': certificateSigningRequestRules,
  'apps/ControllerRevision': controllerRevisionRules,
  'node.k8s.io/RuntimeClass': runtimeClassRules,
  'storage.k8s.io/CSIDriver': csiDriverRules,
  'storage.k8s.io/CSINode': csiNodeRules,
  'storage.k8s.io/VolumeAttachment': volumeAttachmentRules,
  'storage.k8s.io/CSIStorageCapacity': csiStorageCapacityRules,
  'flowcontrol.apiserver.k8s.io/FlowSchema': flowSchemaRules,
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration': priorityLevelConfigurationRules,
  '/Namespace': namespaceRules,
  '/Pod': podRules,
  '/Service': serviceRules,
  '/ConfigMap': configMapRules,
  '/Secret': secretRules,
  '/ServiceAccount': serviceAccountRules,
  '/Node': nodeRules,
  '/Event': eventRules,
  '/PersistentVolumeClaim': pvcRules,
  '/PersistentVolume': persistentVolumeRules,
  '/ResourceQuota': resourceQuotaRules,
  '/LimitRange': limitRangeRules,
  'storage.k8s.io/StorageClass': storageClassRules,
  '/ReplicationController': replicationControllerRules,
  '/PodTemplate': podTemplateRules,
  '/Endpoints': endpointsRules,
  'discovery.k8s.io/EndpointSlice': endpointSliceRules,
  'apps/Deployment': deploymentRules,
  'apps/ReplicaSet': replicaSetRules,
  'apps/StatefulSet': statefulSetRules,
  'apps/DaemonSet': daemonSetRules,
  'autoscaling/HorizontalPodAutoscaler': horizontalPodAutoscalerRules,
  'batch/Job': jobRules,
  'batch/CronJob': cronJobRules,
  'networking.k8s.io/Ingress': ingressRules,
  'networking.k8s.io/IngressClass': ingressClassRules,
  'networking.k8s.io/NetworkPolicy': networkPolicyRules,
  'policy/PodDisruptionBudget': podDisruptionBudgetRules,
  'rbac.authorization.k8s.io/Role': roleRules,
  'rbac.authorization.k8s.io/ClusterRole': clusterRoleRules,
  'rbac.authorization.k8s.io/RoleBinding': roleBindingRules,
  'rbac.authorization.k8s.io/ClusterRoleBinding': clusterRoleBindingRules,
  'coordination.k8s.io/Lease': leaseRules,
  'scheduling.k8s.io/PriorityClass': priorityClassRules,
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': mutatingWebhookConfigurationRules,
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': validatingWebhookConfigurationRules,
};

/** Key: "<group>/<Kind>" with "" for core, e.g. "/Pod", "apps/Deployment". */
export function rulesFor(group: string, kind: string): KindRules | undefined {
  return RULES[`${group}/${kind}`];
}

/** Name rules other than DNS-1123 subdomain, which is what most kinds use. */
const NAME_RULES: Record<string, NameRule> = {
  '/Namespace': 'label',
  '/Service': 'dns1035-label',
  'rbac.authorization.k8s.io/Role': 'path-segment',
  'rbac.authorization.k8s.io/ClusterRole': 'path-segment',
  'rbac.authorization.k8s.io/RoleBinding': 'path-segment',
  'rbac.authorization.k8s.io/ClusterRoleBinding': 'path-segment',
  // kube-aggregator's ValidateAPIService: `v1.` (the core group) is a valid name.
  'apiregistration.k8s.io/APIService': 'path-segment',
  // ValidatePodDisruptionBudget checks no metadata in v1.23; the generic create/update checks use
  // ValidatePathSegmentName for the name.
  'policy/PodDisruptionBudget': 'path-segment',
  // ValidateCertificateRequestName: "We don't care what you call your certificate requests."
  'certificates.k8s.io/CertificateSigningRequest': 'none',
};

/** The ValidateNameFunc kube-apiserver uses for the kind's metadata.name. */
export function nameRuleFor(group: string, kind: string): NameRule {
  return NAME_RULES[`${group}/${kind}`] ?? 'subdomain';
}
