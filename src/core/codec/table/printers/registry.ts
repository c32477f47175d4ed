// Which printer kube-apiserver v1.23 uses for each built-in group/Kind. Kinds not listed here
// (Role, ClusterRole, CustomResourceDefinition, LimitRange, ...) get the generic Name/Created At table.
import type { Printer } from '../types';
import { apiServicePrinter } from './apiregistration';
import { certificateSigningRequestPrinter } from './certificates';
import { horizontalPodAutoscalerPrinter } from './autoscaling';
import { componentStatusPrinter } from './component-status';
import {
  clusterRoleBindingPrinter,
  controllerRevisionPrinter,
  leasePrinter,
  podDisruptionBudgetPrinter,
  priorityClassPrinter,
  roleBindingPrinter,
  runtimeClassPrinter,
  storageClassPrinter,
  webhookConfigurationPrinter,
} from './cluster';
import {
  configMapPrinter,
  endpointsPrinter,
  namespacePrinter,
  nodePrinter,
  persistentVolumeClaimPrinter,
  persistentVolumePrinter,
  resourceQuotaPrinter,
  secretPrinter,
  serviceAccountPrinter,
  servicePrinter,
} from './core';
import { eventPrinter, eventsV1Printer } from './event';
import { flowSchemaPrinter, priorityLevelConfigurationPrinter } from './flowcontrol';
import { endpointSlicePrinter, ingressClassPrinter, ingressPrinter, networkPolicyPrinter } from './networking';
import { podPrinter } from './pod';
import {
  cronJobPrinter,
  daemonSetPrinter,
  deploymentPrinter,
  jobPrinter,
  podTemplatePrinter,
  replicaSetPrinter,
  replicationControllerPrinter,
  statefulSetPrinter,
} from './workloads';

const PRINTERS: Record<string, Printer> = {
  '/Pod': podPrinter,
  '/PodTemplate': podTemplatePrinter,
  '/ReplicationController': replicationControllerPrinter,
  '/Service': servicePrinter,
  '/Endpoints': endpointsPrinter,
  '/Node': nodePrinter,
  '/Event': eventPrinter,
  '/Namespace': namespacePrinter,
  '/Secret': secretPrinter,
  '/ConfigMap': configMapPrinter,
  '/ServiceAccount': serviceAccountPrinter,
  '/PersistentVolume': persistentVolumePrinter,
  '/PersistentVolumeClaim': persistentVolumeClaimPrinter,
  '/ResourceQuota': resourceQuotaPrinter,
  '/ComponentStatus': componentStatusPrinter,
  'apps/Deployment': deploymentPrinter,
  'apps/ReplicaSet': replicaSetPrinter,
  'apps/StatefulSet': statefulSetPrinter,
  'apps/DaemonSet': daemonSetPrinter,
  'apps/ControllerRevision': controllerRevisionPrinter,
  'batch/Job': jobPrinter,
  'batch/CronJob': cronJobPrinter,
  'autoscaling/HorizontalPodAutoscaler': horizontalPodAutoscalerPrinter,
  'policy/PodDisruptionBudget': podDisruptionBudgetPrinter,
  'networking.k8s.io/Ingress': ingressPrinter,
  'networking.k8s.io/IngressClass': ingressClassPrinter,
  'networking.k8s.io/NetworkPolicy': networkPolicyPrinter,
  'discovery.k8s.io/EndpointSlice': endpointSlicePrinter,
  'events.k8s.io/Event': eventsV1Printer,
  'rbac.authorization.k8s.io/RoleBinding': roleBindingPrinter,
  'rbac.authorization.k8s.io/ClusterRoleBinding': clusterRoleBindingPrinter,
  'coordination.k8s.io/Lease': leasePrinter,
  'scheduling.k8s.io/PriorityClass': priorityClassPrinter,
  'storage.k8s.io/StorageClass': storageClassPrinter,
  'node.k8s.io/RuntimeClass': runtimeClassPrinter,
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': webhookConfigurationPrinter,
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': webhookConfigurationPrinter,
  'flowcontrol.apiserver.k8s.io/FlowSchema': flowSchemaPrinter,
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration': priorityLevelConfigurationPrinter,
  'apiregistration.k8s.io/APIService': apiServicePrinter,
  'certificates.k8s.io/CertificateSigningRequest': certificateSigningRequestPrinter,
};

/** The printer for a built-in kind, or undefined when kube-apiserver has none. */
export function printerFor(group: string, kind: string): Printer | undefined {
  return PRINTERS[`${group}/${kind}`];
}
