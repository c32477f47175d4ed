// kube-controller-manager's cronjob controller (v1.23's cronjob_controllerv2): at each scheduled
// time a CronJob makes a Job named `<cronjob>-<scheduled time in Unix minutes>` from its
// jobTemplate, honouring suspend, startingDeadlineSeconds and concurrencyPolicy
// (Allow/Forbid/Replace); it keeps status.active, lastScheduleTime and lastSuccessfulTime, and
// deletes finished Jobs beyond successful/failedJobsHistoryLimit. It waits on the cluster clock
// (virtual in tests, sped up with --clock-speed), never polling: each sync asks to be run again
// 100 ms after the next scheduled time. Writes as `system:serviceaccount:kube-system:cronjob-controller`.
import { clone, type Obj } from '../registry/objects';
import { ApiCallError, type ApiClient } from './client';
import { rfc3339Seconds } from './clock';
import { controllerServiceAccount, type Controller, type ControllerContext } from './controller';
import { EventRecorder } from './events';
import { keyOf, type Informer } from './informer';
import { isJobFinished } from './job-conditions';
import { Requeue } from './job-requeue';
import { mostRecentScheduleTime, parseSchedule, type Schedule } from './cronjob-schedule';
import { controllerRefOf, ownerRefTo } from './pods';
import { KeyQueue } from './queue';

/** nextScheduleDelta: look again this long after the scheduled time, so the time has surely passed. */
const NEXT_SCHEDULE_DELTA_MS = 100;

/** Go's time.RFC1123Z in UTC, as the MissSchedule event prints the time. */
function rfc1123z(ms: number): string {
  const d = new Date(ms);
  const [wd, day, mon, year, time] = d.toUTCString().replace(',', '').split(' ');
  return `${wd}, ${day} ${mon} ${year} ${time} +0000`;
}

function finishedType(job: Obj): string | undefined {
  return ((job.status?.conditions ?? []) as Obj[]).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')?.type;
}

export class CronJobController implements Controller {
  readonly name = 'cronjob';
  private ctx!: ControllerContext;
  private client!: ApiClient;
  private events!: EventRecorder;
  private cronJobs!: Informer;
  private jobs!: Informer;
  private queue!: KeyQueue;
  private requeue!: Requeue;

  async start(ctx: ControllerContext): Promise<void> {
    this.ctx = ctx;
    this.client = ctx.client(controllerServiceAccount('cronjob-controller'));
    this.events = new EventRecorder(this.client, ctx.clock, 'cronjob-controller');
    this.queue = ctx.queue(new KeyQueue('cronjob-controller', ctx.clock, (key) => this.sync(key)));
    this.requeue = new Requeue(ctx.clock, this.queue);
    this.cronJobs = await ctx.informer('/apis/batch/v1/cronjobs');
    this.jobs = await ctx.informer('/apis/batch/v1/jobs');
    this.cronJobs.addHandlers({
      onAdd: (cj) => this.queue.add(keyOf(cj)),
      onUpdate: (cj) => this.queue.add(keyOf(cj)),
      onDelete: (cj) => this.requeue.cancel(keyOf(cj)),
    });
    const onJob = (job: Obj) => {
      const ref = controllerRefOf(job);
      if (ref?.kind === 'CronJob') this.queue.add(`${job.metadata.namespace}/${ref.name}`);
    };
    this.jobs.addHandlers({ onAdd: onJob, onUpdate: onJob, onDelete: onJob });
  }

  stop(): void {
    this.queue?.stop();
    this.requeue?.stop();
  }

  private statusPath(cj: Obj): string {
    return `/apis/batch/v1/namespaces/${cj.metadata.namespace}/cronjobs/${cj.metadata.name}/status`;
  }

  private async writeStatus(cj: Obj, status: Obj): Promise<void> {
    await this.client.update(this.statusPath(cj), { ...cj, apiVersion: 'batch/v1', kind: 'CronJob', status });
  }

  private async sync(key: string): Promise<void> {
    let cj = this.cronJobs.get(key);
    if (!cj) return;
    const ns = String(cj.metadata.namespace);
    const children = this.jobs.list().filter((j) => j.metadata.namespace === ns && controllerRefOf(j)?.uid === cj!.metadata.uid);
    const status = clone((cj.status ?? {}) as Obj);
    let active = [...((status.active ?? []) as Obj[])];
    let changed = false;
    for (const j of children) {
      const found = active.some((a) => a.uid === j.metadata.uid);
      if (!found && !isJobFinished(j)) {
        // Our own status write may not have reached the cache yet: read the CronJob afresh first.
        const fresh = await this.client.getOrUndefined(`/apis/batch/v1/namespaces/${ns}/cronjobs/${cj.metadata.name}`);
        if (((fresh?.status?.active ?? []) as Obj[]).some((a) => a.uid === j.metadata.uid)) return this.queue.add(key);
        await this.events.record(cj, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${j.metadata.name}`);
      } else if (found && isJobFinished(j)) {
        active = active.filter((a) => a.uid !== j.metadata.uid);
        changed = true;
        await this.events.record(cj, 'Normal', 'SawCompletedJob', `Saw completed job: ${j.metadata.name}, status: ${finishedType(j)}`);
      } else if (isJobFinished(j) && j.status?.completionTime) {
        // A finished Job need not be in the active list for its completion time to count.
        const last = status.lastSuccessfulTime ? Date.parse(String(status.lastSuccessfulTime)) : undefined;
        if (last === undefined || Date.parse(String(j.status.completionTime)) > last) {
          status.lastSuccessfulTime = j.status.completionTime;
          changed = true;
        }
      }
    }
    const childUids = new Set(children.map((j) => j.metadata.uid));
    for (const a of [...active]) {
      if (childUids.has(a.uid)) continue;
      const job = await this.client.getOrUndefined(`/apis/batch/v1/namespaces/${ns}/jobs/${a.name}`);
      if (job) continue;
      await this.events.record(cj, 'Normal', 'MissingJob', `Active job went missing: ${a.name}`);
      active = active.filter((x) => x.uid !== a.uid);
      changed = true;
    }
    status.active = active.length ? active : undefined;
    if (changed) {
      await this.writeStatus(cj, status);
      // The status update comes back through the informer and syncs again from there.
      return;
    }
    if (cj.metadata.deletionTimestamp || cj.spec?.suspend === true) return;
    cj = await this.schedule(key, cj, status, active);
    if (cj) await this.cleanupFinishedJobs(cj, children);
  }

  /** The scheduling half of syncCronJob; returns the CronJob when it was not deleted meanwhile. */
  private async schedule(key: string, cj: Obj, status: Obj, active: Obj[]): Promise<Obj | undefined> {
    const now = this.ctx.clock.now();
    const spec = String(cj.spec?.schedule ?? '');
    let schedule: Schedule;
    try {
      schedule = parseSchedule(spec);
    } catch (err) {
      // A user error in the spec: not looked at again until the CronJob changes.
      await this.events.record(cj, 'Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(spec)} : ${(err as Error).message}`);
      return cj;
    }
    const lookAgain = () => {
      const next = schedule.next(now);
      if (next !== undefined) this.requeue.at(key, next + NEXT_SCHEDULE_DELTA_MS - now);
    };
    const startingDeadline = cj.spec?.startingDeadlineSeconds;
    let earliest = Date.parse(String(status.lastScheduleTime ?? cj.metadata.creationTimestamp));
    if (typeof startingDeadline === 'number') earliest = Math.max(earliest, now - startingDeadline * 1000);
    let scheduled: number | undefined;
    if (earliest <= now) {
      try {
        const recent = mostRecentScheduleTime(schedule, earliest, now);
        scheduled = recent.time;
        if (recent.missed > 100) {
          await this.events.record(cj, 'Warning', 'TooManyMissedTimes', `too many missed start times: ${recent.missed}. Set or decrease .spec.startingDeadlineSeconds or check clock skew`);
        }
      } catch (err) {
        await this.events.record(cj, 'Warning', 'InvalidSchedule', `invalid schedule: ${spec} : ${(err as Error).message}`);
        return cj;
      }
    }
    if (scheduled === undefined) {
      lookAgain();
      return cj;
    }
    if (typeof startingDeadline === 'number' && scheduled + startingDeadline * 1000 < now) {
      await this.events.record(cj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`);
      lookAgain();
      return cj;
    }
    const jobName = `${cj.metadata.name}-${Math.floor(scheduled / 60_000)}`;
    const lastSchedule = status.lastScheduleTime ? Date.parse(String(status.lastScheduleTime)) : undefined;
    if (active.some((a) => a.name === jobName) || lastSchedule === scheduled) {
      lookAgain();
      return cj;
    }
    const policy = cj.spec?.concurrencyPolicy ?? 'Allow';
    if (policy === 'Forbid' && active.length > 0) {
      await this.events.record(cj, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
      lookAgain();
      return cj;
    }
    if (policy === 'Replace') {
      for (const a of [...active]) {
        const job = await this.client.getOrUndefined(`/apis/batch/v1/namespaces/${cj.metadata.namespace}/jobs/${a.name}`);
        if (!job) continue;
        if (!(await this.deleteJob(cj, job))) throw new Error(`could not replace job ${cj.metadata.namespace}/${a.name}`);
        active = active.filter((x) => x.uid !== job.metadata.uid);
      }
    }
    const created = await this.createJob(cj, jobName);
    if (!created) return cj;
    active = [...active, { kind: 'Job', namespace: created.metadata.namespace, name: created.metadata.name, uid: created.metadata.uid, apiVersion: 'batch/v1', resourceVersion: created.metadata.resourceVersion }];
    try {
      await this.writeStatus(cj, { ...status, active, lastScheduleTime: rfc3339Seconds(scheduled) });
    } catch (err) {
      if (err instanceof ApiCallError && err.code === 404) return undefined;
      throw err;
    }
    lookAgain();
    return cj;
  }

  /** getJobFromTemplate2 and the create; undefined when it was not made (events say why). */
  private async createJob(cj: Obj, name: string): Promise<Obj | undefined> {
    const template = (cj.spec?.jobTemplate ?? {}) as Obj;
    const metadata: Obj = { name, namespace: cj.metadata.namespace };
    if (template.metadata?.labels) metadata.labels = { ...template.metadata.labels };
    if (template.metadata?.annotations) metadata.annotations = { ...template.metadata.annotations };
    metadata.ownerReferences = [ownerRefTo(cj, 'batch/v1', 'CronJob')];
    try {
      const job = await this.client.create(`/apis/batch/v1/namespaces/${cj.metadata.namespace}/jobs`, { apiVersion: 'batch/v1', kind: 'Job', metadata, spec: clone(template.spec ?? {}) });
      await this.events.record(cj, 'Normal', 'SuccessfulCreate', `Created job ${job.metadata.name}`);
      return job;
    } catch (err) {
      // Made by an earlier sync whose status write was lost: the job name is the lock.
      if (err instanceof ApiCallError && err.code === 409) return undefined;
      await this.events.record(cj, 'Warning', 'FailedCreate', `Error creating job: ${err instanceof Error ? err.message.replace(/^POST \S+: \d+ /, '') : String(err)}`);
      throw err;
    }
  }

  /** deleteJob: background propagation leaves the pods to the garbage collector. */
  private async deleteJob(cj: Obj, job: Obj): Promise<boolean> {
    try {
      await this.client.delete(`/apis/batch/v1/namespaces/${job.metadata.namespace}/jobs/${job.metadata.name}`, { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background' });
    } catch (err) {
      if (!(err instanceof ApiCallError && err.code === 404)) {
        await this.events.record(cj, 'Warning', 'FailedDelete', `Deleted job: ${err instanceof Error ? err.message : String(err)}`);
        return false;
      }
    }
    await this.events.record(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata.name}`);
    return true;
  }

  /** cleanupFinishedJobs: the oldest finished Jobs (by startTime) over each history limit go. */
  private async cleanupFinishedJobs(cj: Obj, children: Obj[]): Promise<void> {
    const successfulLimit = cj.spec?.successfulJobsHistoryLimit;
    const failedLimit = cj.spec?.failedJobsHistoryLimit;
    if ((successfulLimit ?? null) === null && (failedLimit ?? null) === null) return;
    const byStart = (a: Obj, b: Obj) => {
      const sa = a.status?.startTime;
      const sb = b.status?.startTime;
      if (!sa && sb) return 1;
      if (sa && !sb) return -1;
      if (sa !== sb) return Date.parse(String(sa)) - Date.parse(String(sb));
      return String(a.metadata.name).localeCompare(String(b.metadata.name));
    };
    for (const [type, limit] of [['Complete', successfulLimit], ['Failed', failedLimit]] as const) {
      if (typeof limit !== 'number') continue;
      const finished = children.filter((j) => finishedType(j) === type).sort(byStart);
      for (const job of finished.slice(0, Math.max(0, finished.length - limit))) await this.deleteJob(cj, job);
    }
  }
}
