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
import type { KubeObject, Printer } from '../types';

const CONTAINERS = column('Containers', 'string', 'Container names of the pod template.', 1);
const IMAGES = column('Images', 'string', 'Container images of the pod template.', 1);
const SELECTOR = column('Selector', 'string', 'Label selector for the pods this object manages.', 1);

/** spec.replicas is defaulted to 1 by the server; absent means the default. */
function replicas(spec: KubeObject): number {
  return typeof spec.replicas === 'number' ? int(spec.replicas) : 1;
}

function parts(obj: KubeObject) {
  return { meta: asRecord(obj.metadata), spec: asRecord(obj.spec), status: asRecord(obj.status) };
}

function templateSpec(spec: KubeObject): KubeObject {
  return asRecord(asRecord(spec.template).spec);
}

export const deploymentPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Ready', 'string', 'Ready pods out of desired replicas.'),
    column('Up-to-date', 'string', 'Pods running the latest pod template.'),
    column('Available', 'string', 'Pods available to serve (ready for at least minReadySeconds).'),
    AGE_COLUMN,
    CONTAINERS,
    IMAGES,
    SELECTOR,
  ],
  print(obj, now) {
    const { meta, spec, status } = parts(obj);
    const [names, images] = containerCells(templateSpec(spec));
    return {
      cells: [
        str(meta.name),
        `${int(status.readyReplicas)}/${replicas(spec)}`,
        int(status.updatedReplicas),
        int(status.availableReplicas),
        age(meta.creationTimestamp, now),
        names,
        images,
        selectorString(spec.selector),
      ],
    };
  },
};

export const replicaSetPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Desired', 'integer', 'Desired number of pods.'),
    column('Current', 'integer', 'Pods currently created.'),
    column('Ready', 'integer', 'Pods that are ready.'),
    AGE_COLUMN,
    CONTAINERS,
    IMAGES,
    SELECTOR,
  ],
  print(obj, now) {
    const { meta, spec, status } = parts(obj);
    const [names, images] = containerCells(templateSpec(spec));
    return {
      cells: [
        str(meta.name),
        replicas(spec),
        int(status.replicas),
        int(status.readyReplicas),
        age(meta.creationTimestamp, now),
        names,
        images,
        formatLabelSelector(spec.selector),
      ],
    };
  },
};

/** Same columns as ReplicaSet; the selector is a plain label map. */
export const replicationControllerPrinter: Printer = {
  columns: replicaSetPrinter.columns,
  print(obj, now) {
    const { meta, spec, status } = parts(obj);
    const [names, images] = containerCells(templateSpec(spec));
    return {
      cells: [
        str(meta.name),
        replicas(spec),
        int(status.replicas),
        int(status.readyReplicas),
        age(meta.creationTimestamp, now),
        names,
        images,
        formatLabels(spec.selector),
      ],
    };
  },
};

export const statefulSetPrinter: Printer = {
  columns: [NAME_COLUMN, column('Ready', 'string', 'Ready pods out of desired replicas.'), AGE_COLUMN, CONTAINERS, IMAGES],
  print(obj, now) {
    const { meta, spec, status } = parts(obj);
    const [names, images] = containerCells(templateSpec(spec));
    return {
      cells: [str(meta.name), `${int(status.readyReplicas)}/${replicas(spec)}`, age(meta.creationTimestamp, now), names, images],
    };
  },
};

export const daemonSetPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Desired', 'integer', 'Nodes that should run the daemon pod.'),
    column('Current', 'integer', 'Nodes running at least one daemon pod.'),
    column('Ready', 'integer', 'Nodes whose daemon pod is ready.'),
    column('Up-to-date', 'integer', 'Nodes running the latest daemon pod template.'),
    column('Available', 'integer', 'Nodes whose daemon pod is available.'),
    column('Node Selector', 'string', 'Node labels a node needs to run the daemon pod.'),
    AGE_COLUMN,
    CONTAINERS,
    IMAGES,
    SELECTOR,
  ],
  print(obj, now) {
    const { meta, spec, status } = parts(obj);
    const podSpec = templateSpec(spec);
    const [names, images] = containerCells(podSpec);
    return {
      cells: [
        str(meta.name),
        int(status.desiredNumberScheduled),
        int(status.currentNumberScheduled),
        int(status.numberReady),
        int(status.updatedNumberScheduled),
        int(status.numberAvailable),
        formatLabels(podSpec.nodeSelector),
        age(meta.creationTimestamp, now),
        names,
        images,
        formatLabelSelector(spec.selector),
      ],
    };
  },
};

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

export const jobPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Completions', 'string', 'Succeeded pods out of required completions.'),
    column('Duration', 'string', 'Time the job ran (until now while it is running).'),
    AGE_COLUMN,
    CONTAINERS,
    IMAGES,
    SELECTOR,
  ],
  print(obj, now) {
    const { meta, spec, status } = parts(obj);
    const [names, images] = containerCells(templateSpec(spec));
    return {
      cells: [
        str(meta.name),
        jobCompletions(spec, status),
        jobDuration(status, now),
        age(meta.creationTimestamp, now),
        names,
        images,
        formatLabelSelector(spec.selector),
      ],
    };
  },
};

export const cronJobPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Schedule', 'string', 'Cron schedule of the job.'),
    column('Suspend', 'boolean', 'Whether new runs are suspended.'),
    column('Active', 'integer', 'Jobs currently running.'),
    column('Last Schedule', 'string', 'Time since a job was last scheduled.'),
    AGE_COLUMN,
    CONTAINERS,
    IMAGES,
    SELECTOR,
  ],
  print(obj, now) {
    const { meta, spec, status } = parts(obj);
    const jobSpec = asRecord(asRecord(spec.jobTemplate).spec);
    const [names, images] = containerCells(templateSpec(jobSpec));
    const active = Array.isArray(status.active) ? status.active.length : 0;
    return {
      cells: [
        str(meta.name),
        str(spec.schedule),
        boolPtr(spec.suspend),
        active,
        status.lastScheduleTime ? age(status.lastScheduleTime, now) : '<none>',
        age(meta.creationTimestamp, now),
        names,
        images,
        formatLabelSelector(jobSpec.selector),
      ],
    };
  },
};

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
