// Indexed Jobs (kube's pkg/controller/job/indexed_job_utils.go, v1.23): each pod carries its
// completion index in an annotation, the Job reports the indexes that succeeded as compressed
// intervals ("0-2,5"), and the controller creates pods for the lowest indexes neither running nor
// done.
import { clone, type Obj } from '../registry/objects';
import { deletionOrder } from './pods';

export const COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
const COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';

export function isIndexedJob(job: Obj): boolean {
  return job.spec?.completionMode === 'Indexed';
}

/** The pod's index, or -1 when it has none or it is not a decimal number ≥ 0. */
export function completionIndexOf(pod: Obj): number {
  const v = pod.metadata?.annotations?.[COMPLETION_INDEX_ANNOTATION];
  if (typeof v !== 'string' || !/^\d+$/.test(v)) return -1;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : -1;
}

function validIndex(pod: Obj, completions: number): boolean {
  const i = completionIndexOf(pod);
  return i >= 0 && i < completions;
}

/** Indexes of succeeded pods, ascending and without repeats. */
export function succeededIndexes(job: Obj, pods: Obj[]): number[] {
  const completions = Number(job.spec?.completions ?? 0);
  const set = new Set<number>();
  for (const p of pods) if (p.status?.phase === 'Succeeded' && validIndex(p, completions)) set.add(completionIndexOf(p));
  return [...set].sort((a, b) => a - b);
}

/** status.completedIndexes: consecutive runs as `first-last`, single indexes alone, joined by commas. */
export function formatIndexes(indexes: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < indexes.length; ) {
    let j = i;
    while (j + 1 < indexes.length && indexes[j + 1] === indexes[j] + 1) j++;
    parts.push(i === j ? String(indexes[i]) : `${indexes[i]}-${indexes[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** firstPendingIndexes: up to `count` of the lowest indexes with no active pod and no success. */
export function firstPendingIndexes(active: Obj[], succeeded: number[], count: number, completions: number): number[] {
  const taken = new Set<number>(succeeded);
  for (const p of active) taken.add(completionIndexOf(p));
  const out: number[] = [];
  for (let i = 0; i < completions && out.length < count; i++) if (!taken.has(i)) out.push(i);
  return out;
}

/**
 * appendDuplicatedIndexPodsForRemoval: active pods with no valid index, and all but one pod of a
 * repeated index (the one furthest along is kept), must go.
 */
export function duplicatedIndexPods(active: Obj[], completions: number): { remove: Obj[]; keep: Obj[] } {
  const remove: Obj[] = [];
  const byIndex = new Map<number, Obj[]>();
  for (const p of active) {
    if (!validIndex(p, completions)) remove.push(p);
    else byIndex.set(completionIndexOf(p), [...(byIndex.get(completionIndexOf(p)) ?? []), p]);
  }
  const keep: Obj[] = [];
  for (const group of byIndex.values()) {
    const sorted = [...group].sort(deletionOrder);
    remove.push(...sorted.slice(0, -1));
    keep.push(sorted[sorted.length - 1]);
  }
  return { remove, keep };
}

/** addCompletionIndexEnvVariables: JOB_COMPLETION_INDEX from the annotation, in every container that lacks it. */
export function withCompletionIndexEnv(template: Obj): Obj {
  const t = clone(template);
  const env = { name: COMPLETION_INDEX_ENV, valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${COMPLETION_INDEX_ANNOTATION}']` } } };
  for (const list of [t.spec?.initContainers, t.spec?.containers] as (Obj[] | undefined)[]) {
    for (const c of list ?? []) {
      const vars = (c.env ?? []) as Obj[];
      if (!vars.some((e) => e.name === COMPLETION_INDEX_ENV)) c.env = [...vars, clone(env)];
    }
  }
  return t;
}
