// The built-in admission plug-ins, in kube-apiserver's order (decision 0039): mutating LimitRanger,
// Priority, DefaultTolerationSeconds and DefaultStorageClass before validation, then ResourceQuota (it sees the mutated
// object; it has always run in the mutating phase here, before the kind's own hooks such as a
// Service's ClusterIP allocation); PodSecurity validates after object validation and the mutating
// webhooks, for pods and for the workloads whose spec names a pod template. ServiceAccount
// defaulting lives in the pod defaults. Adding a plug-in: an AdmissionPlugin in its own file and
// its place in this list.
import type { AdmissionPlugin } from '../registry/admission-plugin';
import type { ServedResource } from '../registry/catalog';
import type { Obj } from '../registry/objects';
import { admitPodLimitRanges } from './limit-ranger';
import { admitPodPriority } from './priority';
import { admitClaimStorageClass } from './default-storage-class';
import { admitDefaultTolerationSeconds } from './default-toleration-seconds';
import { admitQuota } from './resource-quota';
import { COUNTED } from './quota-usage';
import { admitPodCreate, admitWorkload, preparePodUpdate, prepareWorkloadUpdate } from './pod-security-modes';
import { webhookConfigurationDefaults } from './webhooks/config-defaults';

const nsOf = (obj: Obj) => String(obj.metadata?.namespace ?? '');
const isCore = (r: ServedResource, kind: string) => r.info.group === '' && r.info.kind === kind;

const limitRanger: AdmissionPlugin = {
  name: 'LimitRanger',
  handles: (r) => isCore(r, 'Pod'),
  mutateCreate: (c, _r, obj) => admitPodLimitRanges(c, nsOf(obj), obj),
};

const priority: AdmissionPlugin = {
  name: 'Priority',
  handles: (r) => isCore(r, 'Pod'),
  mutateCreate: (c, _r, obj) => admitPodPriority(c, obj),
};

const defaultTolerationSeconds: AdmissionPlugin = {
  name: 'DefaultTolerationSeconds',
  handles: (r) => isCore(r, 'Pod'),
  mutateCreate: (_c, _r, obj) => admitDefaultTolerationSeconds(obj),
};

const defaultStorageClass: AdmissionPlugin = {
  name: 'DefaultStorageClass',
  handles: (r) => isCore(r, 'PersistentVolumeClaim'),
  mutateCreate: (c, _r, obj) => admitClaimStorageClass(c, obj),
};

const resourceQuota: AdmissionPlugin = {
  name: 'ResourceQuota',
  // The kinds quota has an evaluator for (quota-usage.ts).
  handles: (r) => !r.info.custom && `${r.info.group}/${r.info.resource}` in COUNTED,
  mutateCreate: (c, r, obj) => admitQuota(c, r, nsOf(obj), obj),
};

const podSecurity: AdmissionPlugin = {
  name: 'PodSecurity',
  handles: (r) => isCore(r, 'Pod') || r.spec?.podTemplatePath !== undefined,
  validateCreate: (c, r, obj, attrs) => (isCore(r, 'Pod') ? admitPodCreate(c, nsOf(obj), obj, attrs) : admitWorkload(c, r, nsOf(obj), obj, attrs)),
  // Workload updates: warnings and audit on the template, never a denial.
  prepareUpdateValidation: (c, r, ns, attrs) => (isCore(r, 'Pod') ? preparePodUpdate(c, ns, attrs) : prepareWorkloadUpdate(c, r, ns, attrs)),
};

/** Every built-in admission plug-in, in the order they run within each phase. */
export const ADMISSION_PLUGINS: readonly AdmissionPlugin[] = [webhookConfigurationDefaults, limitRanger, priority, defaultTolerationSeconds, defaultStorageClass, resourceQuota, podSecurity];
