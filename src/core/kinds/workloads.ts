// Workload kinds: apps, batch, autoscaling, policy.
import type { KindSpec } from '../registry/kind-spec';
import { JOB_FIELD_SET, REPLICAS_FIELD_SET } from '../selectors/field-sets';
import { JOB_FIELD_LABELS, REPLICAS_FIELD_LABELS } from '../selectors/fields';
import { SCALE_VIEW } from '../registry/scale-view';
import { daemonSetHooks } from './daemonset-template-generation';
import { controllerRevisionRules } from '../validation/api-misc';
import { daemonSetRules, deploymentRules, replicaSetRules, statefulSetRules } from '../validation/apps';
import { horizontalPodAutoscalerRules } from '../validation/autoscaling';
import { cronJobRules, jobRules } from '../validation/batch';
import { podDisruptionBudgetRules } from '../validation/policy';
import { controllerRevisionPrinter, podDisruptionBudgetPrinter } from '../codec/table/printers/cluster';
import { horizontalPodAutoscalerPrinter } from '../codec/table/printers/autoscaling';
import { cronJobPrinter, daemonSetPrinter, deploymentPrinter, jobPrinter, replicaSetPrinter, statefulSetPrinter } from '../codec/table/printers/workloads';

const TEMPLATE = ['spec', 'template'] as const;
const SCALE = { scale: SCALE_VIEW };

export const WORKLOAD_KINDS: KindSpec[] = [
  { group: 'apps', kind: 'ControllerRevision', rules: controllerRevisionRules, printer: controllerRevisionPrinter },
  {
    group: 'apps',
    kind: 'DaemonSet',
    tracksGeneration: true,
    initialStatus: () => ({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 }),
    rules: daemonSetRules,
    printer: daemonSetPrinter,
    podTemplatePath: TEMPLATE,
    hooks: () => daemonSetHooks(),
  },
  { group: 'apps', kind: 'Deployment', tracksGeneration: true, initialStatus: () => ({}), rules: deploymentRules, printer: deploymentPrinter, podTemplatePath: TEMPLATE, views: SCALE, statusResets: [['spec'], ['metadata', 'labels']] },
  {
    group: 'apps',
    kind: 'ReplicaSet',
    tracksGeneration: true,
    initialStatus: () => ({ replicas: 0 }),
    rules: replicaSetRules,
    printer: replicaSetPrinter,
    podTemplatePath: TEMPLATE,
    views: SCALE,
    fieldSelectors: { fields: REPLICAS_FIELD_SET, labels: REPLICAS_FIELD_LABELS },
  },
  {
    group: 'apps',
    kind: 'StatefulSet',
    tracksGeneration: true,
    initialStatus: () => ({ replicas: 0, availableReplicas: 0 }),
    rules: statefulSetRules,
    printer: statefulSetPrinter,
    podTemplatePath: TEMPLATE,
    views: SCALE,
  },
  { group: 'autoscaling', kind: 'HorizontalPodAutoscaler', tracksGeneration: true, rules: horizontalPodAutoscalerRules, printer: horizontalPodAutoscalerPrinter, statusResets: [['spec']] },
  {
    group: 'batch',
    kind: 'CronJob',
    tracksGeneration: true,
    initialStatus: () => ({}),
    rules: cronJobRules,
    printer: cronJobPrinter,
    podTemplatePath: ['spec', 'jobTemplate', 'spec', 'template'],
  },
  {
    group: 'batch',
    kind: 'Job',
    tracksGeneration: true,
    initialStatus: () => ({}),
    rules: jobRules,
    printer: jobPrinter,
    podTemplatePath: TEMPLATE,
    fieldSelectors: { fields: JOB_FIELD_SET, labels: JOB_FIELD_LABELS },
  },
  {
    group: 'policy',
    kind: 'PodDisruptionBudget',
    tracksGeneration: true,
    initialStatus: () => ({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }),
    rules: podDisruptionBudgetRules,
    // ValidatePodDisruptionBudget checks no metadata in v1.23; the generic create/update checks use
    // ValidatePathSegmentName for the name.
    nameRule: 'path-segment',
    printer: podDisruptionBudgetPrinter,
  },
  { group: 'policy', kind: 'PodSecurityPolicy' },
];
