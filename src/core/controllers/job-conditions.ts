// Job conditions and the checks that end a Job, as kube's job controller (v1.23) words them.
import type { Obj } from '../registry/objects';
import { rfc3339Seconds } from './clock';

export const BACKOFF_LIMIT_EXCEEDED = { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' };
export const DEADLINE_EXCEEDED = { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' };

/** DefaultJobBackOff and MaxJobBackOff: a failed pod's replacement waits 10 s, doubling, at most 6 minutes. */
export function jobBackOffMs(requeues: number): number {
  if (requeues <= 0) return 0;
  return Math.min(10_000 * 2 ** (requeues - 1), 360_000);
}

export function newCondition(type: string, status: string, now: number, reason?: string, message?: string): Obj {
  const at = rfc3339Seconds(now);
  const c: Obj = { type, status, lastProbeTime: at, lastTransitionTime: at };
  if (reason) c.reason = reason;
  if (message) c.message = message;
  return c;
}

/** IsJobFinished: a Complete or Failed condition that is True. */
export function isJobFinished(job: Obj): boolean {
  return ((job.status?.conditions ?? []) as Obj[]).some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}

/** When the Job finished (the finished condition's lastTransitionTime), if it has. */
export function finishedAt(job: Obj): number | undefined {
  const c = ((job.status?.conditions ?? []) as Obj[]).find((x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True');
  const t = c ? Date.parse(String(c.lastTransitionTime ?? '')) : NaN;
  return Number.isFinite(t) ? t : undefined;
}

/**
 * ensureJobConditionStatus: updates the condition of that type when its status, reason or
 * message differ, appends it when absent unless it would be False. Returns whether it changed.
 */
export function ensureCondition(conditions: Obj[], type: string, status: string, reason: string, message: string, now: number): boolean {
  const i = conditions.findIndex((c) => c.type === type);
  if (i >= 0) {
    const c = conditions[i];
    if (c.status === status && (c.reason ?? '') === reason && (c.message ?? '') === message) return false;
    conditions[i] = newCondition(type, status, now, reason, message);
    return true;
  }
  if (status === 'False') return false;
  conditions.push(newCondition(type, status, now, reason, message));
  return true;
}

/** pastBackoffLimitOnFailure: with restartPolicy OnFailure, container restarts of running pods count against backoffLimit. */
export function pastBackoffLimitOnFailure(job: Obj, pods: Obj[]): boolean {
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    if (p.status?.phase !== 'Running' && p.status?.phase !== 'Pending') continue;
    for (const s of [...((p.status?.initContainerStatuses ?? []) as Obj[]), ...((p.status?.containerStatuses ?? []) as Obj[])]) restarts += Number(s.restartCount ?? 0);
  }
  const limit = Number(job.spec?.backoffLimit ?? 6);
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

/** Milliseconds left before activeDeadlineSeconds passes (≤ 0: passed); undefined when there is no deadline or the Job is suspended. */
export function deadlineLeftMs(job: Obj, startTime: string | undefined, now: number): number | undefined {
  const seconds = job.spec?.activeDeadlineSeconds;
  if (typeof seconds !== 'number' || !startTime || job.spec?.suspend === true) return undefined;
  return Date.parse(startTime) + seconds * 1000 - now;
}
