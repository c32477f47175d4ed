// What a DELETE asks of the garbage collector, written into the object as finalizers (kube's
// generic store, deletionFinalizersForGarbageCollection): `orphan` keeps the dependents and
// strips their references first; `foregroundDeletion` deletes the dependents before the owner.
// Background (and no policy, for most kinds) sets neither: the owner goes at once and the
// collector deletes its dependents afterwards.

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

export interface GcDeleteOptions {
  propagationPolicy?: string;
  orphanDependents?: boolean;
}

/**
 * Kinds whose default, asked through these versions, is to orphan (kept for clients older than
 * server-side garbage collection): v1 ReplicationControllers, batch/v1 Jobs, batch/v1beta1
 * CronJobs. Every other kind defaults to deleting dependents.
 */
const ORPHAN_BY_DEFAULT = new Set(['/v1/replicationcontrollers', 'batch/v1/jobs', 'batch/v1beta1/cronjobs']);

/** The default policy of the version a client's request named; internal deletes name none. */
export function orphansByDefault(group: string, version: string, resource: string): boolean {
  return ORPHAN_BY_DEFAULT.has(`${group}/${version}/${resource}`);
}

function shouldOrphan(finalizers: readonly string[], opts: GcDeleteOptions, defaultOrphan: boolean): boolean {
  if (opts.orphanDependents !== undefined) return opts.orphanDependents;
  if (opts.propagationPolicy) return opts.propagationPolicy === 'Orphan';
  for (const f of finalizers) {
    if (f === ORPHAN_FINALIZER) return true;
    if (f === FOREGROUND_FINALIZER) return false;
  }
  return defaultOrphan;
}

function shouldDeleteDependents(finalizers: readonly string[], opts: GcDeleteOptions): boolean {
  if (opts.orphanDependents !== undefined) return false;
  if (opts.propagationPolicy) return opts.propagationPolicy === 'Foreground';
  for (const f of finalizers) {
    if (f === FOREGROUND_FINALIZER) return true;
    if (f === ORPHAN_FINALIZER) return false;
  }
  return false;
}

/**
 * The object's finalizers after a delete with these options, or undefined when they stay as
 * they are (as a set). Both GC finalizers are removed, then the one the options ask for is added
 * at the end.
 */
export function deletionFinalizers(current: readonly string[] | undefined, opts: GcDeleteOptions, defaultOrphan: boolean): string[] | undefined {
  // Objects stored before their metadata was type-checked may hold anything here.
  const finalizers = Array.isArray(current) ? current : [];
  const next = finalizers.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (shouldOrphan(finalizers, opts, defaultOrphan)) next.push(ORPHAN_FINALIZER);
  if (shouldDeleteDependents(finalizers, opts)) next.push(FOREGROUND_FINALIZER);
  const before = new Set(finalizers);
  const after = new Set(next);
  if (before.size === after.size && [...after].every((f) => before.has(f))) return undefined;
  return next;
}
