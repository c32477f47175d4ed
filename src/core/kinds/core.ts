// The core group's kinds (`/v1`).
import type { KindSpec } from '../registry/kind-spec';
import { CORE_EVENT_FIELD_SET, NAMESPACE_FIELD_SET, NODE_FIELD_SET, POD_FIELD_SET, REPLICAS_FIELD_SET, SECRET_FIELD_SET } from '../selectors/field-sets';
import { CORE_EVENT_FIELD_LABELS, NAMESPACE_FIELD_LABELS, NODE_FIELD_LABELS, POD_FIELD_LABELS, REPLICAS_FIELD_LABELS, SECRET_FIELD_LABELS } from '../selectors/fields';
import { SCALE_VIEW } from '../registry/scale-view';
import { configMapRules, secretRules } from '../validation/config';
import { eventRules, namespaceRules, nodeRules, serviceAccountRules } from '../validation/core-misc';
import { endpointsRules } from '../validation/endpoints';
import { podTemplateRules, replicationControllerRules } from '../validation/replication-controller';
import { podRules } from '../validation/pod';
import { pvcRules } from '../validation/pvc';
import { limitRangeRules, resourceQuotaRules } from '../validation/quota';
import { persistentVolumeRules } from '../validation/storage';
import { serviceRules } from '../validation/service';
import { componentStatusPrinter } from '../codec/table/printers/component-status';
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
} from '../codec/table/printers/core';
import { eventPrinter } from '../codec/table/printers/event';
import { podPrinter } from '../codec/table/printers/pod';
import { podTemplatePrinter, replicationControllerPrinter } from '../codec/table/printers/workloads';
import { NAMESPACE_FINALIZE_WRITE, namespaceHooks } from './namespaces';
import { POD_BINDING_WRITE, POD_EPHEMERAL_CONTAINERS_WRITE } from './pod-subresources';
import { serviceHooks } from './services';

export const CORE_KINDS: KindSpec[] = [
  { group: '', kind: 'Binding', createsThrough: { resource: 'pods', subresource: 'binding' } },
  { group: '', kind: 'ComponentStatus', printer: componentStatusPrinter },
  { group: '', kind: 'ConfigMap', rules: configMapRules, printer: configMapPrinter },
  { group: '', kind: 'Endpoints', createOnUpdate: true, rules: endpointsRules, printer: endpointsPrinter },
  {
    group: '',
    kind: 'Event',
    createOnUpdate: true,
    rules: eventRules,
    printer: eventPrinter,
    fieldSelectors: { fields: CORE_EVENT_FIELD_SET, labels: CORE_EVENT_FIELD_LABELS },
  },
  { group: '', kind: 'LimitRange', createOnUpdate: true, rules: limitRangeRules },
  {
    group: '',
    kind: 'Namespace',
    initialStatus: () => ({ phase: 'Active' }),
    rules: namespaceRules,
    nameRule: 'label',
    printer: namespacePrinter,
    finalizersInSpec: true,
    subresourceWrites: { finalize: NAMESPACE_FINALIZE_WRITE },
    fieldSelectors: { fields: NAMESPACE_FIELD_SET, labels: NAMESPACE_FIELD_LABELS },
    hooks: (env) => namespaceHooks(env.namespaces),
  },
  { group: '', kind: 'Node', rules: nodeRules, printer: nodePrinter, fieldSelectors: { fields: NODE_FIELD_SET, labels: NODE_FIELD_LABELS } },
  { group: '', kind: 'PersistentVolumeClaim', initialStatus: () => ({ phase: 'Pending' }), rules: pvcRules, printer: persistentVolumeClaimPrinter },
  { group: '', kind: 'PersistentVolume', initialStatus: () => ({ phase: 'Pending' }), rules: persistentVolumeRules, printer: persistentVolumePrinter },
  {
    group: '',
    kind: 'Pod',
    initialStatus: () => ({ phase: 'Pending' }),
    rules: podRules,
    printer: podPrinter,
    fieldSelectors: { fields: POD_FIELD_SET, labels: POD_FIELD_LABELS },
    subresourceWrites: { ephemeralcontainers: POD_EPHEMERAL_CONTAINERS_WRITE, binding: POD_BINDING_WRITE },
  },
  { group: '', kind: 'PodTemplate', tracksGeneration: true, rules: podTemplateRules, printer: podTemplatePrinter, podTemplatePath: ['template'] },
  {
    group: '',
    kind: 'ReplicationController',
    tracksGeneration: true,
    rules: replicationControllerRules,
    printer: replicationControllerPrinter,
    podTemplatePath: ['spec', 'template'],
    views: { scale: SCALE_VIEW },
    fieldSelectors: { fields: REPLICAS_FIELD_SET, labels: REPLICAS_FIELD_LABELS },
  },
  { group: '', kind: 'ResourceQuota', rules: resourceQuotaRules, printer: resourceQuotaPrinter },
  { group: '', kind: 'Secret', rules: secretRules, printer: secretPrinter, fieldSelectors: { fields: SECRET_FIELD_SET, labels: SECRET_FIELD_LABELS } },
  { group: '', kind: 'ServiceAccount', rules: serviceAccountRules, printer: serviceAccountPrinter },
  {
    group: '',
    kind: 'Service',
    createOnUpdate: true,
    initialStatus: () => ({ loadBalancer: {} }),
    rules: serviceRules,
    nameRule: 'dns1035-label',
    printer: servicePrinter,
    hooks: (env) => serviceHooks(env.ctx),
  },
];
