// kube-controller-manager's job controller (v1.23, pkg/controller/job): runs a Job's pods to
// `completions` successes with at most `parallelism` at a time, replaces failed pods after an
// exponential back-off until backoffLimit, stops at activeDeadlineSeconds, gives Indexed Jobs one
// pod per completion index, suspends and resumes, and reports active/succeeded/failed,
// startTime, completionTime, completedIndexes and the Complete/Failed/Suspended conditions.
//
// JobTrackingWithFinalizers is off by default in v1.23 (beta, disabled because of kube #109485),
// so this is kube's legacy tracking: counts come from the pods that exist, pods get no
// `batch.kubernetes.io/job-tracking` finalizer and status.uncountedTerminatedPods stays unset.
// Writes as `system:serviceaccount:kube-system:job-controller`.
import { clone, type Obj } from '../registry/objects';
import { ApiCallError, type ApiClient } from './client';
import { rfc3339Seconds } from './clock';
import { controllerServiceAccount, type Controller, type ControllerContext } from './controller';
import { EventRecorder } from './events';
import { keyOf, type Informer } from './informer';
import { BACKOFF_LIMIT_EXCEEDED, DEADLINE_EXCEEDED, deadlineLeftMs, ensureCondition, isJobFinished, jobBackOffMs, newCondition, pastBackoffLimitOnFailure } from './job-conditions';
import { COMPLETION_INDEX_ANNOTATION, duplicatedIndexPods, firstPendingIndexes, formatIndexes, isIndexedJob, succeededIndexes, withCompletionIndexEnv } from './job-indexes';
import { Requeue } from './job-requeue';
import { deletionOrder, isActivePod, ownerRefTo, podFromTemplate } from './pods';
import { podsControlledBy } from './claim-pods';
import { KeyQueue } from './queue';
import { followOwnedPods, PodExpectations } from './owned-pods';

/** MaxPodCreateDeletePerSync. */
const MAX_PER_SYNC = 500;

export class JobController implements Controller {
  readonly name = 'job';
  private ctx!: ControllerContext;
  private client!: ApiClient;
  private events!: EventRecorder;
  private jobs!: Informer;
  private pods!: Informer;
  private queue!: KeyQueue;
  private requeue!: Requeue;
  private readonly expectations = new PodExpectations();
  /** Per Job: failures seen so far in a row (the queue's requeue count) and when a replacement may start. */
  private readonly backoff = new Map<string, { requeues: number; until: number }>();

  async start(ctx: ControllerContext): Promise<void> {
    this.ctx = ctx;
    this.client = ctx.client(controllerServiceAccount('job-controller'));
    this.events = new EventRecorder(this.client, ctx.clock, 'job-controller');
    this.queue = ctx.queue(new KeyQueue('job-controller', ctx.clock, (key) => this.sync(key)));
    this.requeue = new Requeue(ctx.clock, this.queue);
    this.jobs = await ctx.informer('/apis/batch/v1/jobs');
    this.pods = await ctx.informer('/api/v1/pods');
    this.jobs.addHandlers({
      onAdd: (job) => this.queue.add(keyOf(job)),
      onUpdate: (job) => this.queue.add(keyOf(job)),
      onDelete: (job) => this.forget(keyOf(job)),
    });
    followOwnedPods(this.pods, { kind: 'Job', enqueue: (key) => this.queue.add(key), expectations: this.expectations });
  }

  stop(): void {
    this.queue?.stop();
    this.requeue?.stop();
  }

  private forget(key: string): void {
    this.expectations.forget(key);
    this.backoff.delete(key);
    this.requeue.cancel(key);
  }

  /** syncJob, legacy tracking. */
  private async sync(key: string): Promise<void> {
    const job = this.jobs.get(key);
    if (!job || isJobFinished(job)) return;
    const now = this.ctx.clock.now();
    const uid = String(job.metadata.uid);
    const pods = podsControlledBy(this.pods, uid).filter((p) => p.metadata.namespace === job.metadata.namespace);
    const active = pods.filter(isActivePod);
    let succeeded = pods.filter((p) => p.status?.phase === 'Succeeded').length;
    let failed = pods.filter((p) => p.status?.phase === 'Failed').length;
    const old = (job.status ?? {}) as Obj;
    const suspended = job.spec?.suspend === true;
    let startTime = old.startTime as string | undefined;
    if (!startTime && !suspended) startTime = rfc3339Seconds(now);
    const conditions = clone((old.conditions ?? []) as Obj[]);
    const parallelism = Number(job.spec?.parallelism ?? 1);
    const backoffLimit = Number(job.spec?.backoffLimit ?? 6);

    const hasNewFailure = failed > Number(old.failed ?? 0);
    let finished: Obj | undefined;
    const left = deadlineLeftMs(job, startTime, now);
    if ((hasNewFailure && active.length !== parallelism && failed > backoffLimit) || pastBackoffLimitOnFailure(job, pods)) {
      finished = newCondition('Failed', 'True', now, BACKOFF_LIMIT_EXCEEDED.reason, BACKOFF_LIMIT_EXCEEDED.message);
    } else if (left !== undefined && left <= 0) {
      finished = newCondition('Failed', 'True', now, DEADLINE_EXCEEDED.reason, DEADLINE_EXCEEDED.message);
    } else if (left !== undefined) {
      this.requeue.at(key, left);
    }

    if (hasNewFailure && !finished) {
      // A failed pod's replacement waits for the back-off (10 s, 20 s, 40 s, ... 6 min), as
      // kube's documentation promises (its queue requeues a Job with failures that way).
      const requeues = (this.backoff.get(key)?.requeues ?? 0) + 1;
      const wait = jobBackOffMs(requeues);
      this.backoff.set(key, { requeues, until: now + wait });
      this.requeue.at(key, wait);
    }

    const indexed = isIndexedJob(job);
    const doneIndexes = indexed ? succeededIndexes(job, pods) : [];
    if (indexed) succeeded = doneIndexes.length;
    let activeCount = active.length;
    let suspendChanged = false;
    if (finished) {
      // Legacy tracking: the active pods count as failed once their deletion is asked for.
      await this.deletePods(job, key, active, false);
      failed += activeCount;
      activeCount = 0;
    } else {
      let managed = false;
      if (this.expectations.satisfied(key) && !job.metadata.deletionTimestamp) {
        activeCount = await this.manage(job, key, active, succeeded, doneIndexes, now);
        managed = true;
      }
      const completions = job.spec?.completions;
      const complete = completions === undefined || completions === null ? succeeded > 0 && activeCount === 0 : succeeded >= Number(completions) && activeCount === 0;
      if (complete) {
        finished = newCondition('Complete', 'True', now);
      } else if (managed) {
        if (suspended) {
          suspendChanged = ensureCondition(conditions, 'Suspended', 'True', 'JobSuspended', 'Job suspended', now);
          if (suspendChanged) await this.events.record(job, 'Normal', 'Suspended', 'Job suspended');
        } else {
          suspendChanged = ensureCondition(conditions, 'Suspended', 'False', 'JobResumed', 'Job resumed', now);
          if (suspendChanged) {
            await this.events.record(job, 'Normal', 'Resumed', 'Job resumed');
            // activeDeadlineSeconds counts the time the Job is continuously active.
            startTime = rfc3339Seconds(now);
          }
        }
      }
    }
    // A new success clears the back-off (kube issue 56853).
    if (succeeded > Number(old.succeeded ?? 0)) this.backoff.delete(key);

    if (Number(old.active ?? 0) === activeCount && Number(old.succeeded ?? 0) === succeeded && Number(old.failed ?? 0) === failed && !suspendChanged && !finished) return;
    if (finished) conditions.push(finished);
    const status: Obj = {};
    if (conditions.length) status.conditions = conditions;
    if (startTime) status.startTime = startTime;
    if (finished?.type === 'Complete') status.completionTime = finished.lastTransitionTime;
    if (activeCount) status.active = activeCount;
    if (succeeded) status.succeeded = succeeded;
    if (failed) status.failed = failed;
    if (indexed) status.completedIndexes = formatIndexes(doneIndexes);
    try {
      await this.client.update(`/apis/batch/v1/namespaces/${job.metadata.namespace}/jobs/${job.metadata.name}/status`, { ...job, apiVersion: 'batch/v1', kind: 'Job', status });
    } catch (err) {
      if (err instanceof ApiCallError && err.code === 404) return;
      throw err;
    }
    if (finished) await this.enactFinished(job, finished, succeeded);
  }

  /** enactJobFinished's events (the condition and completionTime are already in the status). */
  private async enactFinished(job: Obj, cond: Obj, succeeded: number): Promise<void> {
    if (cond.type === 'Complete') {
      const completions = job.spec?.completions;
      if (completions !== undefined && completions !== null && succeeded > Number(completions)) {
        await this.events.record(job, 'Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached');
      }
      await this.events.record(job, 'Normal', 'Completed', 'Job completed');
    } else {
      await this.events.record(job, 'Warning', String(cond.reason), String(cond.message));
    }
    this.backoff.delete(keyOf(job));
  }

  /** manageJob: returns the active count after its creates or deletes. */
  private async manage(job: Obj, key: string, active: Obj[], succeeded: number, doneIndexes: number[], now: number): Promise<number> {
    if (job.spec?.suspend === true) return active.length - (await this.deletePods(job, key, [...active].sort(deletionOrder), true));
    const parallelism = Number(job.spec?.parallelism ?? 1);
    const completions = job.spec?.completions;
    let wantActive: number;
    if (completions === undefined || completions === null) wantActive = succeeded > 0 ? active.length : parallelism;
    else wantActive = Math.max(0, Math.min(Number(completions) - succeeded, parallelism));

    const rmAtLeast = Math.max(0, active.length - wantActive);
    let remove: Obj[] = [];
    let left = active;
    if (isIndexedJob(job)) ({ remove, keep: left } = duplicatedIndexPods(active, Number(completions)));
    if (remove.length < rmAtLeast) remove = [...remove, ...[...left].sort(deletionOrder).slice(0, rmAtLeast - remove.length)];
    if (remove.length) return active.length - (await this.deletePods(job, key, remove.slice(0, MAX_PER_SYNC), true));

    if (active.length >= wantActive) return active.length;
    const wait = (this.backoff.get(key)?.until ?? 0) - now;
    if (wait > 0) {
      this.requeue.atLatest(key, wait);
      return active.length;
    }
    let diff = Math.min(wantActive - active.length, MAX_PER_SYNC);
    let indexes: number[] = [];
    if (isIndexedJob(job)) {
      indexes = firstPendingIndexes(active, doneIndexes, diff, Number(completions));
      diff = indexes.length;
    }
    return active.length + (await this.createPods(job, key, diff, indexes));
  }

  /** Creates `count` pods in slow-start batches (1, 2, 4, ...); returns how many were created. */
  private async createPods(job: Obj, key: string, count: number, indexes: number[]): Promise<number> {
    const ns = String(job.metadata.namespace);
    const exp = this.expectations.expect(key, count);
    const owner = ownerRefTo(job, 'batch/v1', 'Job');
    const template = isIndexedJob(job) ? withCompletionIndexEnv(job.spec.template) : job.spec.template;
    let created = 0;
    let next = 0;
    for (let batch = 1; next < count; batch *= 2) {
      const size = Math.min(batch, count - next);
      const attempts = Array.from({ length: size }, () => {
        const index = indexes[next++];
        const pod = podFromTemplate(template, String(job.metadata.name), ns, owner);
        if (index !== undefined) {
          pod.metadata.generateName = `${job.metadata.name}-${index}-`;
          pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [COMPLETION_INDEX_ANNOTATION]: String(index) };
          pod.spec.hostname = `${job.metadata.name}-${index}`;
        }
        return this.client.create(`/api/v1/namespaces/${ns}/pods`, pod);
      });
      const results = await Promise.allSettled(attempts);
      let failures = 0;
      for (const r of results) {
        if (r.status === 'fulfilled') {
          created++;
          await this.events.record(job, 'Normal', 'SuccessfulCreate', `Created pod: ${r.value.metadata.name}`);
        } else {
          failures++;
          exp.pendingAdds--;
          await this.events.record(job, 'Warning', 'FailedCreate', `Error creating: ${r.reason instanceof Error ? r.reason.message.replace(/^POST \S+: \d+ /, '') : String(r.reason)}`);
        }
      }
      if (failures) {
        exp.pendingAdds -= count - next;
        throw new Error(`failed to create ${failures} pods`);
      }
    }
    return created;
  }

  /** Deletes pods (events SuccessfulDelete); returns how many are gone. */
  private async deletePods(job: Obj, key: string, pods: Obj[], expect: boolean): Promise<number> {
    const uids = pods.map((p) => String(p.metadata.uid));
    // Deletes not expected (a finished Job's leftovers) are counted in a record no sync waits on.
    const exp = expect ? this.expectations.expect(key, 0, uids) : { pendingAdds: 0, deletes: new Set(uids) };
    let removed = 0;
    await Promise.all(
      pods.map(async (pod) => {
        try {
          await this.client.delete(`/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`);
          removed++;
          await this.events.record(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
        } catch (err) {
          exp.deletes.delete(String(pod.metadata.uid));
          if (err instanceof ApiCallError && err.code === 404) removed++;
          else throw err;
        }
      }),
    );
    return removed;
  }
}
