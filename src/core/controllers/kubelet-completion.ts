// Run-to-completion pods in the simulated kubelet: a pod whose restartPolicy is Never or
// OnFailure (a Job's pod, `kubectl run --restart=Never`) runs for a simulated time and its
// containers exit. What a container "does" is read from its command and args, so a manifest that
// would behave the same way in a real cluster behaves so here:
//   - `sleep N` in the command line: the container runs N seconds of cluster time (else the
//     cluster's jobRunMs, default 1 s);
//   - `exit N` with N ≠ 0: it exits with that code (else 0).
// Exit 0 everywhere → phase Succeeded; a failure with restartPolicy Never → phase Failed; with
// OnFailure the kubelet restarts the failed container after its crash back-off (10 s doubling to
// 5 min) and counts restartCount, which the Job controller's backoffLimit reads.
import type { Obj } from '../registry/objects';
import { rfc3339Seconds } from './clock';
import type { ControllerContext } from './controller';
import { hexId, imageId, normalizedImage } from './ids';
import type { KeyQueue } from './queue';

/** The kubelet's crash back-off: 10 s, doubling per restart, at most 5 minutes. */
export function crashBackOffMs(restarts: number): number {
  return Math.min(10_000 * 2 ** Math.max(0, restarts - 1), 300_000);
}

export interface ContainerRun {
  exitCode: number;
  runMs: number;
}

/** What a container does when run: how long, and how it exits (from `sleep N` / `exit N` in its command line). */
export function plannedRun(container: Obj, defaultRunMs: number): ContainerRun {
  const words = [...((container.command ?? []) as unknown[]), ...((container.args ?? []) as unknown[])].map(String).join(' ');
  const sleep = /\bsleep\s+(\d+(?:\.\d+)?)s?\b/.exec(words);
  const exit = /\bexit\s+(\d+)\b/.exec(words);
  return { runMs: sleep ? Math.round(Number(sleep[1]) * 1000) : defaultRunMs, exitCode: exit ? Number(exit[1]) % 256 : 0 };
}

export function runsToCompletion(pod: Obj): boolean {
  const policy = pod.spec?.restartPolicy;
  return policy === 'Never' || policy === 'OnFailure';
}

function condition(old: Obj[], type: string, status: string, at: string, reason?: string, message?: string): Obj {
  const prev = old.find((c) => c.type === type);
  const c: Obj = { type, status, lastProbeTime: null, lastTransitionTime: prev && prev.status === status ? prev.lastTransitionTime : at };
  if (reason) c.reason = reason;
  if (message) c.message = message;
  return c;
}

function terminated(pod: Obj, c: Obj, exitCode: number, startedAt: string, finishedAt: string): Obj {
  return { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt, finishedAt, containerID: `containerd://${hexId(`${pod.metadata.uid}/${c.name}`)}` };
}

/**
 * The simulated kubelet's part for pods that run to completion. The kubelet hands it each pod it
 * has reported running; it writes the next state when due, or asks the queue to look again then.
 */
export class KubeletCompletion {
  /** Pod uid → cluster time its current run (or crash back-off wait) began. */
  private readonly since = new Map<string, number>();

  constructor(
    private readonly ctx: ControllerContext,
    private readonly queue: KeyQueue,
  ) {}

  forget(uid: string): void {
    this.since.delete(uid);
  }

  /** `write` sends the whole status through pods/status as the node. */
  async sync(key: string, pod: Obj, write: (status: Obj) => Promise<void>): Promise<void> {
    if (!runsToCompletion(pod)) return;
    const uid = String(pod.metadata.uid);
    const now = this.ctx.clock.now();
    let since = this.since.get(uid);
    if (since === undefined) this.since.set(uid, (since = now));
    const containers = (pod.spec?.containers ?? []) as Obj[];
    const statuses = (pod.status?.containerStatuses ?? []) as Obj[];
    const waiting = statuses.some((s) => s.state?.waiting?.reason === 'CrashLoopBackOff');
    const restarts = Math.max(0, ...statuses.map((s) => Number(s.restartCount ?? 0)));
    const due = since + (waiting ? crashBackOffMs(restarts) : Math.max(0, ...containers.map((c) => plannedRun(c, this.ctx.cluster.jobRunMs).runMs)));
    if (due > now) {
      this.queue.addAfter(key, due - now);
      return;
    }
    this.since.set(uid, now);
    await write(waiting ? this.restarted(pod, now) : this.exited(pod, now));
  }

  /** Every container's run ended: the pod finishes, or (OnFailure) its failed containers wait to restart. */
  private exited(pod: Obj, now: number): Obj {
    const at = rfc3339Seconds(now);
    const containers = (pod.spec?.containers ?? []) as Obj[];
    const old = (pod.status?.containerStatuses ?? []) as Obj[];
    const runs = containers.map((c) => plannedRun(c, this.ctx.cluster.jobRunMs));
    const failed = runs.some((r) => r.exitCode !== 0);
    const restarting = failed && pod.spec?.restartPolicy === 'OnFailure';
    const containerStatuses = containers.map((c, i) => {
      const prev = old.find((s) => s.name === c.name) ?? {};
      const startedAt = String(prev.state?.running?.startedAt ?? prev.state?.terminated?.startedAt ?? at);
      const base = { name: c.name, lastState: {}, ready: false, restartCount: Number(prev.restartCount ?? 0), image: normalizedImage(String(c.image ?? '')), imageID: imageId(String(c.image ?? '')), containerID: `containerd://${hexId(`${pod.metadata.uid}/${c.name}`)}`, started: false };
      const end = terminated(pod, c, runs[i].exitCode, startedAt, at);
      if (restarting && runs[i].exitCode !== 0) {
        const restartCount = base.restartCount + 1;
        const message = `back-off ${crashBackOffMs(restartCount) / 1000}s restarting failed container=${c.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
        return { ...base, state: { waiting: { reason: 'CrashLoopBackOff', message } }, lastState: { terminated: end }, restartCount };
      }
      return { ...base, state: { terminated: end } };
    });
    const phase = restarting ? 'Running' : failed ? 'Failed' : 'Succeeded';
    const unready = containerStatuses.map((s) => String(s.name));
    return this.status(pod, phase, containerStatuses, at, phase === 'Succeeded' ? undefined : `containers with unready status: [${unready.join(' ')}]`);
  }

  /** OnFailure: the back-off passed and the failed containers run again. */
  private restarted(pod: Obj, now: number): Obj {
    const at = rfc3339Seconds(now);
    const old = (pod.status?.containerStatuses ?? []) as Obj[];
    const containerStatuses = old.map((s) => (s.state?.waiting?.reason === 'CrashLoopBackOff' ? { ...s, state: { running: { startedAt: at } }, ready: true, started: true } : s));
    const unready = containerStatuses.filter((s) => !s.ready).map((s) => String(s.name));
    return this.status(pod, 'Running', containerStatuses, at, unready.length ? `containers with unready status: [${unready.join(' ')}]` : undefined);
  }

  /**
   * The pod status around the container statuses, with the kubelet's conditions: a Succeeded pod
   * is Initialized, not Ready and not ContainersReady, all with reason PodCompleted
   * (kubelet/status/generate.go); otherwise unready containers give ContainersNotReady.
   */
  private status(pod: Obj, phase: string, containerStatuses: Obj[], at: string, notReadyMessage?: string): Obj {
    const old = (pod.status?.conditions ?? []) as Obj[];
    const completed = phase === 'Succeeded';
    const ready = !completed && notReadyMessage === undefined;
    const conditions = [
      condition(old, 'Initialized', 'True', at, completed ? 'PodCompleted' : undefined),
      ready ? condition(old, 'Ready', 'True', at) : condition(old, 'Ready', 'False', at, completed ? 'PodCompleted' : 'ContainersNotReady', notReadyMessage),
      ready ? condition(old, 'ContainersReady', 'True', at) : condition(old, 'ContainersReady', 'False', at, completed ? 'PodCompleted' : 'ContainersNotReady', notReadyMessage),
      condition(old, 'PodScheduled', 'True', at),
    ];
    const status: Obj = { phase, conditions, hostIP: pod.status?.hostIP };
    if (pod.status?.podIP) {
      status.podIP = pod.status.podIP;
      status.podIPs = pod.status.podIPs ?? [{ ip: pod.status.podIP }];
    }
    status.startTime = pod.status?.startTime;
    if (pod.status?.initContainerStatuses) status.initContainerStatuses = pod.status.initContainerStatuses;
    status.containerStatuses = containerStatuses;
    if (pod.status?.qosClass) status.qosClass = pod.status.qosClass;
    return status;
  }
}
