// Cluster-wide API kinds: RBAC, admission registration, API extensions and registration,
// certificates, coordination, scheduling, storage, node, flow control, and the reviews.
import type { KindSpec } from '../registry/kind-spec';
import { CSR_FIELD_SET } from '../selectors/field-sets';
import { CSR_FIELD_LABELS } from '../selectors/fields';
import { mutatingWebhookConfigurationRules, validatingWebhookConfigurationRules } from '../validation/admission-registration';
import { apiServiceRules, certificateSigningRequestRules } from '../validation/api-misc';
import { leaseRules } from '../validation/core-misc';
import { flowSchemaRules, priorityLevelConfigurationRules } from '../validation/flowcontrol';
import { runtimeClassRules } from '../validation/node';
import { clusterRoleBindingRules, clusterRoleRules, roleBindingRules, roleRules } from '../validation/rbac';
import { priorityClassRules } from '../validation/scheduling';
import { storageClassRules } from '../validation/storage';
import { csiDriverRules, csiNodeRules, csiStorageCapacityRules, volumeAttachmentRules } from '../validation/storage-csi';
import { apiServicePrinter } from '../codec/table/printers/apiregistration';
import { certificateSigningRequestPrinter } from '../codec/table/printers/certificates';
import {
  clusterRoleBindingPrinter,
  leasePrinter,
  priorityClassPrinter,
  roleBindingPrinter,
  runtimeClassPrinter,
  storageClassPrinter,
  webhookConfigurationPrinter,
} from '../codec/table/printers/cluster';
import { flowSchemaPrinter, priorityLevelConfigurationPrinter } from '../codec/table/printers/flowcontrol';
import { apiServiceHooks } from './apiservices';
import { CSR_APPROVAL_WRITE, csrHooks } from './certificate-signing-requests';
import { priorityClassHooks } from './priority-classes';
import { crdHooks } from '../crd/hooks';

const ADMISSIONREGISTRATION = 'admissionregistration.k8s.io';
const FLOWCONTROL = 'flowcontrol.apiserver.k8s.io';
const RBAC = 'rbac.authorization.k8s.io';
const STORAGE = 'storage.k8s.io';

export const CLUSTER_KINDS: KindSpec[] = [
  { group: ADMISSIONREGISTRATION, kind: 'MutatingWebhookConfiguration', rules: mutatingWebhookConfigurationRules, printer: webhookConfigurationPrinter },
  { group: ADMISSIONREGISTRATION, kind: 'ValidatingWebhookConfiguration', rules: validatingWebhookConfigurationRules, printer: webhookConfigurationPrinter },
  {
    group: 'apiextensions.k8s.io',
    kind: 'CustomResourceDefinition',
    tracksGeneration: true,
    hooks: (env) => crdHooks({ validationExpressions: env.crdValidationExpressions }),
  },
  // kube-aggregator's ValidateAPIService: `v1.` (the core group) is a valid name.
  { group: 'apiregistration.k8s.io', kind: 'APIService', rules: apiServiceRules, nameRule: 'path-segment', printer: apiServicePrinter, hooks: () => apiServiceHooks() },
  { group: 'authentication.k8s.io', kind: 'SelfSubjectReview' },
  { group: 'authentication.k8s.io', kind: 'TokenReview' },
  { group: 'authorization.k8s.io', kind: 'LocalSubjectAccessReview' },
  { group: 'authorization.k8s.io', kind: 'SelfSubjectAccessReview' },
  { group: 'authorization.k8s.io', kind: 'SelfSubjectRulesReview' },
  { group: 'authorization.k8s.io', kind: 'SubjectAccessReview' },
  {
    group: 'certificates.k8s.io',
    kind: 'CertificateSigningRequest',
    rules: certificateSigningRequestRules,
    // ValidateCertificateRequestName: "We don't care what you call your certificate requests."
    nameRule: 'none',
    printer: certificateSigningRequestPrinter,
    fieldSelectors: { fields: CSR_FIELD_SET, labels: CSR_FIELD_LABELS },
    hooks: () => csrHooks(),
    subresourceWrites: { approval: CSR_APPROVAL_WRITE },
  },
  { group: 'coordination.k8s.io', kind: 'Lease', createOnUpdate: true, rules: leaseRules, printer: leasePrinter },
  { group: FLOWCONTROL, kind: 'FlowSchema', tracksGeneration: true, createOnUpdate: true, rules: flowSchemaRules, printer: flowSchemaPrinter },
  {
    group: FLOWCONTROL,
    kind: 'PriorityLevelConfiguration',
    tracksGeneration: true,
    createOnUpdate: true,
    rules: priorityLevelConfigurationRules,
    printer: priorityLevelConfigurationPrinter,
  },
  { group: 'node.k8s.io', kind: 'RuntimeClass', rules: runtimeClassRules, printer: runtimeClassPrinter },
  { group: RBAC, kind: 'ClusterRoleBinding', createOnUpdate: true, rules: clusterRoleBindingRules, nameRule: 'path-segment', printer: clusterRoleBindingPrinter },
  { group: RBAC, kind: 'ClusterRole', createOnUpdate: true, rules: clusterRoleRules, nameRule: 'path-segment' },
  { group: RBAC, kind: 'RoleBinding', createOnUpdate: true, rules: roleBindingRules, nameRule: 'path-segment', printer: roleBindingPrinter },
  { group: RBAC, kind: 'Role', createOnUpdate: true, rules: roleRules, nameRule: 'path-segment' },
  { group: 'scheduling.k8s.io', kind: 'PriorityClass', rules: priorityClassRules, printer: priorityClassPrinter, hooks: () => priorityClassHooks() },
  { group: STORAGE, kind: 'CSIDriver', rules: csiDriverRules },
  { group: STORAGE, kind: 'CSINode', rules: csiNodeRules },
  { group: STORAGE, kind: 'StorageClass', createOnUpdate: true, rules: storageClassRules, printer: storageClassPrinter },
  { group: STORAGE, kind: 'VolumeAttachment', rules: volumeAttachmentRules },
  { group: STORAGE, kind: 'CSIStorageCapacity', rules: csiStorageCapacityRules },
];
