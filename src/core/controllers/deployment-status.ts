// A Deployment's status as kube's deployment controller computes it (calculateStatus,
// syncRolloutStatus, checkPausedConditions): counts summed over its ReplicaSets, the Available
// condition from maxUnavailable, and Progressing with kube's reasons and messages.
import { clone, type Obj } from '../registry/objects';
import { getCondition, maxUnavailableOf, newCondition, removeCondition, replicasOf, setCondition, sum, type DeploymentCondition } from './deployment-util';

export const PROGRESSING = 'Progressing';
export const AVAILABLE = 'Available';

function hasProgressDeadline(d: Obj): boolean {
  const s = d.spec?.progressDeadlineSeconds;
  return s !== undefined && s !== null && s !== 2147483647;
}

/** calculateStatus. */
export function calculateStatus(d: Obj, allRSs: readonly Obj[], newRS: Obj | undefined, now: number): Obj {
  const replicas = Number(d.spec?.replicas ?? 1);
  const available = sum(allRSs, (rs) => Number(rs.status?.availableReplicas ?? 0));
  const total = sum(allRSs, replicasOf);
  const status: Obj = {
    observedGeneration: d.metadata?.generation,
    replicas: sum(allRSs, (rs) => Number(rs.status?.replicas ?? 0)),
    updatedReplicas: Number(newRS?.status?.replicas ?? 0),
    readyReplicas: sum(allRSs, (rs) => Number(rs.status?.readyReplicas ?? 0)),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, total - available),
  };
  if (d.status?.conditions) status.conditions = (d.status.conditions as Obj[]).map((c) => ({ ...c }));
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  if (available >= replicas - maxUnavailableOf(d)) setCondition(status, newCondition(AVAILABLE, 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.', now));
  else setCondition(status, newCondition(AVAILABLE, 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.', now));
  return status;
}

export function deploymentComplete(d: Obj, s: Obj): boolean {
  const replicas = Number(d.spec?.replicas ?? 1);
  return s.updatedReplicas === replicas && s.replicas === replicas && s.availableReplicas === replicas && Number(s.observedGeneration ?? 0) >= Number(d.metadata?.generation ?? 0);
}

function deploymentProgressing(d: Obj, s: Obj): boolean {
  const old = d.status ?? {};
  const oldOld = Number(old.replicas ?? 0) - Number(old.updatedReplicas ?? 0);
  const newOld = Number(s.replicas ?? 0) - Number(s.updatedReplicas ?? 0);
  return s.updatedReplicas > Number(old.updatedReplicas ?? 0) || newOld < oldOld || s.readyReplicas > Number(old.readyReplicas ?? 0) || s.availableReplicas > Number(old.availableReplicas ?? 0);
}

/** When the deadline of an unfinished rollout passes (undefined: no deadline in force). */
export function progressDeadlineAt(d: Obj, s: Obj): number | undefined {
  if (!hasProgressDeadline(d)) return undefined;
  const c = getCondition(s, PROGRESSING);
  if (!c || c.reason === 'NewReplicaSetAvailable' || c.reason === 'ProgressDeadlineExceeded') return undefined;
  return Date.parse(c.lastUpdateTime) + Number(d.spec.progressDeadlineSeconds) * 1000;
}

function timedOut(d: Obj, s: Obj, now: number): boolean {
  const c = getCondition(s, PROGRESSING);
  if (!c || c.reason === 'NewReplicaSetAvailable') return false;
  if (c.reason === 'ProgressDeadlineExceeded') return true;
  return Date.parse(c.lastUpdateTime) + Number(d.spec.progressDeadlineSeconds) * 1000 < now;
}

/** syncRolloutStatus's status: calculateStatus, the Progressing condition, then the ReplicaSets' ReplicaFailure. */
export function rolloutStatus(d: Obj, allRSs: readonly Obj[], newRS: Obj | undefined, now: number): Obj {
  const s = progressStatus(d, allRSs, newRS, now);
  const failure = replicaFailure(allRSs, newRS);
  if (failure) setCondition(s, failure);
  else removeCondition(s, REPLICA_FAILURE);
  return s;
}

const REPLICA_FAILURE = 'ReplicaFailure';

/** getReplicaFailures' first: the new ReplicaSet's ReplicaFailure before any old one's, as a Deployment condition. */
function replicaFailure(allRSs: readonly Obj[], newRS: Obj | undefined): DeploymentCondition | undefined {
  const find = (rs: Obj | undefined) => ((rs?.status?.conditions ?? []) as Obj[]).find((c) => c.type === REPLICA_FAILURE);
  const c = find(newRS) ?? allRSs.map(find).find(Boolean);
  if (!c) return undefined;
  // ReplicaSetToDeploymentCondition: both times are the ReplicaSet condition's transition time.
  return { type: REPLICA_FAILURE, status: String(c.status), lastUpdateTime: String(c.lastTransitionTime), lastTransitionTime: String(c.lastTransitionTime), reason: String(c.reason ?? ''), message: String(c.message ?? '') };
}

function progressStatus(d: Obj, allRSs: readonly Obj[], newRS: Obj | undefined, now: number): Obj {
  const s = calculateStatus(d, allRSs, newRS, now);
  if (!hasProgressDeadline(d)) removeCondition(s, PROGRESSING);
  const current = getCondition(d.status ?? {}, PROGRESSING);
  const complete = s.replicas === s.updatedReplicas && current?.reason === 'NewReplicaSetAvailable';
  if (!hasProgressDeadline(d) || complete) return s;
  const rsName = newRS?.metadata?.name;
  if (deploymentComplete(d, s)) {
    const msg = rsName ? `ReplicaSet "${rsName}" has successfully progressed.` : `Deployment "${d.metadata.name}" has successfully progressed.`;
    setCondition(s, newCondition(PROGRESSING, 'True', 'NewReplicaSetAvailable', msg, now));
  } else if (deploymentProgressing(d, s)) {
    const c = newCondition(PROGRESSING, 'True', 'ReplicaSetUpdated', `ReplicaSet "${rsName}" is progressing.`, now);
    // Progress updates lastUpdateTime even when the reason stays (kube removes and re-sets it).
    if (current) {
      if (current.status === 'True') c.lastTransitionTime = current.lastTransitionTime;
      removeCondition(s, PROGRESSING);
    }
    setCondition(s, c);
  } else if (timedOut(d, s, now)) {
    const msg = rsName ? `ReplicaSet "${rsName}" has timed out progressing.` : `Deployment "${d.metadata.name}" has timed out progressing.`;
    setCondition(s, newCondition(PROGRESSING, 'False', 'ProgressDeadlineExceeded', msg, now));
  }
  return s;
}

/** checkPausedConditions: the status to write when pausing or resuming, or undefined when nothing changes. */
export function pausedConditionStatus(d: Obj, now: number): Obj | undefined {
  if (!hasProgressDeadline(d)) return undefined;
  const c = getCondition(d.status ?? {}, PROGRESSING);
  if (c?.reason === 'ProgressDeadlineExceeded') return undefined;
  const pausedCond = c?.reason === 'DeploymentPaused';
  // Decided before copying: most syncs neither pause nor resume.
  if (Boolean(d.spec?.paused) === pausedCond) return undefined;
  const status: Obj = clone(d.status ?? {});
  if (d.spec?.paused) setCondition(status, newCondition(PROGRESSING, 'Unknown', 'DeploymentPaused', 'Deployment is paused', now));
  else setCondition(status, newCondition(PROGRESSING, 'Unknown', 'DeploymentResumed', 'Deployment is resumed', now));
  return status;
}

/** Counts a status may leave out when zero (omitempty): absent and 0 are the same. */
const ZERO_OMITTED = new Set(['unavailableReplicas', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas']);

/**
 * Equal statuses need no write (kube compares with DeepEqual). Member by member, without
 * building normalised copies: a Deployment compares on each of its syncs (one per ReplicaSet
 * status change in a rollout). Each member is compared by its JSON text, as before.
 */
export function sameDeploymentStatus(a: Obj | undefined, b: Obj): boolean {
  const x = a ?? {};
  const member = (s: Obj, k: string) => JSON.stringify(ZERO_OMITTED.has(k) ? s[k] || undefined : s[k]);
  for (const k of Object.keys(x)) if (member(x, k) !== member(b, k)) return false;
  for (const k of Object.keys(b)) if (!Object.hasOwn(x, k) && member(b, k) !== undefined) return false;
  return true;
}
