// Controllers that own pods: Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob,
// ReplicationController and PodTemplate, with the v1.23 column sets.
import {
  AGE_COLUMN,
  NAME_COLUMN,
  asRecord,
  boolPtr,
  column,
  containerCells,
  formatLabelSelector,
  formatLabels,
  int,
  selectorString,
  str,
} from '../format';
import { age, between, parseTimestamp, humanDuration } from '../time';
import type { ColumnDefinition, KubeObject, PrintedRow, Printer } from '../types';

const CONTAINERS = column('Containers', 'string', 'Container names of the pod template.', 1);
const IMAGES = column('Images', 'string', 'Container images of the pod template.', 1);
const SELECTOR = column('Selector', 'string', 'Label selector for the pods this object manages.', 1);

/** spec.replicas is defaulted to 1 by the server; absent means the default. */
function replicas(spec: KubeObject): number {
  return typeof spec.replicas === 'number' ? int(spec.replicas) : 1;
}

type Parts = { meta: KubeObject; spec: KubeObject; status: KubeObject };

function parts(obj: KubeObject): Parts {
  return { meta: asRecord(obj.metadata), spec: asRecord(obj.spec), status: asRecord(obj.status) };
}

function templateSpec(spec: KubeObject): KubeObject {
  return asRecord(asRecord(spec.template).spec);
}

/** What sets one pod-owning kind's table apart; the rest is the same for all of them. */
interface PodOwnerColumns {
  /** The columns between Name and Age. */
  columns: ColumnDefinition[];
  /** Their cells, in the same order. */
  cells(p: Parts, now: number): PrintedRow['cells'];
  /** The spec that holds `template` and `selector` (a CronJob's job template's); the object's own by default. */
  workloadSpec?(spec: KubeObject): KubeObject;
  /** How the wide Selector column prints the selector; absent: the kind has no Selector column. */
  selector?(selector: unknown): string;
}

/** Name, the kind's own columns, Age, then the wide Containers, Images (and Selector) columns. */
function podOwnerPrinter(t: PodOwnerColumns): Printer {
  return {
    columns: [NAME_COLUMN, ...t.columns, AGE_COLUMN, CONTAINERS, IMAGES, ...(t.selector ? [SELECTOR] : [])],
    print(obj, now) {
      const p = parts(obj);
      const workload = t.workloadSpec?.(p.spec) ?? p.spec;
      const [names, images] = containerCells(templateSpec(workload));
      const selector = t.selector ? [t.selector(workload.selector)] : [];
      return { cells: [str(p.meta.name), ...t.cells(p, now), age(p.meta.creationTimestamp, now), names, images, ...selector] };
    },
  };
}

export const deploymentPrinter = podOwnerPrinter({
  columns: [
    column('Ready', 'string', 'Ready pods out of desired replicas.'),
    column('Up-to-date', 'string', 'Pods running the latest pod template.'),
    column('Available', 'string', 'Pods available to serve (ready for at least minReadySeconds).'),
  ],
  cells: ({ spec, status }) => [`${int(status.readyReplicas)}/${replicas(spec)}`, int(status.updatedReplicas), int(status.availableReplicas)],
  selector: selectorString,
});

const REPLICA_COLUMNS = [
  column('Desired', 'integer', 'Desired number of pods.'),
  column('Current', 'integer', 'Pods currently created.'),
  column('Ready', 'integer', 'Pods that are ready.'),
];
const replicaCells = ({ spec, status }: Parts) => [replicas(spec), int(status.replicas), int(status.readyReplicas)];

export const replicaSetPrinter = podOwnerPrinter({ columns: REPLICA_COLUMNS, cells: replicaCells, selector: formatLabelSelector });

/** Same columns as ReplicaSet; the selector is a plain label map. */
export const replicationControllerPrinter = podOwnerPrinter({ columns: REPLICA_COLUMNS, cells: replicaCells, selector: formatLabels });

export const statefulSetPrinter = podOwnerPrinter({
  columns: [column('Ready', 'string', 'Ready pods out of desired replicas.')],
  cells: ({ spec, status }) => [`${int(status.readyReplicas)}/${replicas(spec)}`],
});

export const daemonSetPrinter = podOwnerPrinter({
  columns: [
    column('Desired', 'integer', 'Nodes that should run the daemon pod.'),
    column('Current', 'integer', 'Nodes running at least one daemon pod.'),
    column('Ready', 'integer', 'Nodes whose daemon pod is ready.'),
    column('Up-to-date', 'integer', 'Nodes running the latest daemon pod template.'),
    column('Available', 'integer', 'Nodes whose daemon pod is available.'),
    column('Node Selector', 'string', 'Node labels a node needs to run the daemon pod.'),
  ],
  cells: ({ spec, status }) => [
    int(status.desiredNumberScheduled),
    int(status.currentNumberScheduled),
    int(status.numberReady),
    int(status.updatedNumberScheduled),
    int(status.numberAvailable),
    formatLabels(templateSpec(spec).nodeSelector),
  ],
  selector: formatLabelSelector,
});

function jobCompletions(spec: KubeObject, status: KubeObject): string {
  const succeeded = int(status.succeeded);
  if (typeof spec.completions === 'number') return `${succeeded}/${int(spec.completions)}`;
  const parallelism = int(spec.parallelism);
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(status: KubeObject, now: number): string {
  const start = parseTimestamp(status.startTime);
  if (start === null || Number.isNaN(start)) return '';
  if (!status.completionTime) return humanDuration(now - start);
  return between(status.startTime, status.completionTime);
}

export const jobPrinter = podOwnerPrinter({
  columns: [
    column('Completions', 'string', 'Succeeded pods out of required completions.'),
    column('Duration', 'string', 'Time the job ran (until now while it is running).'),
  ],
  cells: ({ spec, status }, now) => [jobCompletions(spec, status), jobDuration(status, now)],
  selector: formatLabelSelector,
});

export const cronJobPrinter = podOwnerPrinter({
  columns: [
    column('Schedule', 'string', 'Cron schedule of the job.'),
    column('Suspend', 'boolean', 'Whether new runs are suspended.'),
    column('Active', 'integer', 'Jobs currently running.'),
    column('Last Schedule', 'string', 'Time since a job was last scheduled.'),
  ],
  cells: ({ spec, status }, now) => [
    str(spec.schedule),
    boolPtr(spec.suspend),
    Array.isArray(status.active) ? status.active.length : 0,
    status.lastScheduleTime ? age(status.lastScheduleTime, now) : '<none>',
  ],
  workloadSpec: (spec) => asRecord(asRecord(spec.jobTemplate).spec),
  selector: formatLabelSelector,
});

export const podTemplatePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Containers', 'string', 'Container names of the template.'),
    column('Images', 'string', 'Container images of the template.'),
    column('Pod Labels', 'string', 'Labels given to pods made from the template.'),
  ],
  print(obj) {
    const template = asRecord(obj.template);
    const [names, images] = containerCells(template.spec);
    return { cells: [str(asRecord(obj.metadata).name), names, images, formatLabels(asRecord(template.metadata).labels)] };
  },
};
