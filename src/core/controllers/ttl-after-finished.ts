// kube-controller-manager's ttl-after-finished controller (v1.23, pkg/controller/ttlafterfinished):
// a finished Job with spec.ttlSecondsAfterFinished is deleted that long after it finished (its
// Complete or Failed condition's lastTransitionTime), with foreground propagation so its pods go
// first. Before deleting it reads the Job afresh, as kube does, in case the TTL was changed.
// Writes as `system:serviceaccount:kube-system:ttl-after-finished-controller`.
import type { Obj } from '../registry/objects';
import { ApiCallError, type ApiClient } from './client';
import { controllerServiceAccount, type Controller, type ControllerContext } from './controller';
import { keyOf, type Informer } from './informer';
import { finishedAt, isJobFinished } from './job-conditions';
import { Requeue } from './job-requeue';
import { KeyQueue } from './queue';

function needsCleanup(job: Obj): boolean {
  return typeof job.spec?.ttlSecondsAfterFinished === 'number' && isJobFinished(job) && !job.metadata?.deletionTimestamp;
}

/** Milliseconds until the Job expires (≤ 0: expired), or undefined when it has no TTL or has not finished. */
function timeLeft(job: Obj, now: number): number | undefined {
  if (!needsCleanup(job)) return undefined;
  const finished = finishedAt(job);
  if (finished === undefined) return undefined;
  return finished + Number(job.spec.ttlSecondsAfterFinished) * 1000 - now;
}

export class TtlAfterFinishedController implements Controller {
  readonly name = 'ttl-after-finished';
  private ctx!: ControllerContext;
  private client!: ApiClient;
  private jobs!: Informer;
  private queue!: KeyQueue;
  private requeue!: Requeue;

  async start(ctx: ControllerContext): Promise<void> {
    this.ctx = ctx;
    this.client = ctx.client(controllerServiceAccount('ttl-after-finished-controller'));
    this.queue = ctx.queue(new KeyQueue('ttl-after-finished-controller', ctx.clock, (key) => this.sync(key)));
    this.requeue = new Requeue(ctx.clock, this.queue);
    this.jobs = await ctx.informer('/apis/batch/v1/jobs');
    const onJob = (job: Obj) => {
      if (needsCleanup(job)) this.queue.add(keyOf(job));
    };
    this.jobs.addHandlers({ onAdd: onJob, onUpdate: onJob, onDelete: (job) => this.requeue.cancel(keyOf(job)) });
  }

  stop(): void {
    this.queue?.stop();
    this.requeue?.stop();
  }

  private async sync(key: string): Promise<void> {
    const cached = this.jobs.get(key);
    if (!cached) return;
    const left = timeLeft(cached, this.ctx.clock.now());
    if (left === undefined) return;
    if (left > 0) {
      this.requeue.at(key, left);
      return;
    }
    // The cache may be stale: the TTL could have been changed just now.
    const path = `/apis/batch/v1/namespaces/${cached.metadata.namespace}/jobs/${cached.metadata.name}`;
    const fresh = await this.client.getOrUndefined(path);
    if (!fresh) return;
    const freshLeft = timeLeft(fresh, this.ctx.clock.now());
    if (freshLeft === undefined) return;
    if (freshLeft > 0) {
      this.requeue.at(key, freshLeft);
      return;
    }
    try {
      await this.client.delete(path, { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Foreground', preconditions: { uid: fresh.metadata.uid } });
    } catch (err) {
      if (err instanceof ApiCallError && (err.code === 404 || err.code === 409)) return;
      throw err;
    }
  }
}
