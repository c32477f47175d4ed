// The simulated kubelet's handling of a pod with a failure image (kubelet-failures.ts): the pod
// status from its containers' timelines (phase, the kubelet's four conditions, container
// statuses), written only when it changed, the kubelet's events as each step is reached, and the
// next wake-up on the cluster clock.
import type { Obj } from '../registry/objects';
import { rfc3339Seconds } from './clock';
import type { EventRecorder } from './events';
import { containerTimeline, type ContainerTimeline } from './kubelet-failures';

function condition(old: Obj[], type: string, status: string, now: string, reason?: string, message?: string): Obj {
  const prev = old.find((c) => c.type === type);
  const c: Obj = { type, status, lastProbeTime: null, lastTransitionTime: prev && prev.status === status ? prev.lastTransitionTime : now };
  if (reason) c.reason = reason;
  if (message) c.message = message;
  return c;
}

export interface FailingPodStatus {
  status: Obj;
  events: ContainerTimeline['events'];
  nextChangeAt?: number;
}

/** The whole status of a pod with failure images at `now`; `t0` is when its containers were first started. */
export function failingPodStatus(pod: Obj, t0: number, now: number, hostIP: string, podIP: string): FailingPodStatus {
  const at = rfc3339Seconds(now);
  const containers = (pod.spec?.containers ?? []) as Obj[];
  const timelines = containers.map((c) => containerTimeline(pod, c, t0, now));
  const unready = timelines.filter((t) => !t.status.ready).map((t) => String(t.status.name));
  const old = (pod.status?.conditions ?? []) as Obj[];
  const message = `containers with unready status: [${unready.join(' ')}]`;
  const ready = unready.length === 0 ? 'True' : 'False';
  const phase = timelines.every((t) => t.finished) ? 'Failed' : timelines.some((t) => t.everStarted) ? 'Running' : 'Pending';
  const status: Obj = {
    phase,
    conditions: [
      condition(old, 'Initialized', 'True', at),
      condition(old, 'Ready', ready, at, ready === 'True' ? undefined : 'ContainersNotReady', ready === 'True' ? undefined : message),
      condition(old, 'ContainersReady', ready, at, ready === 'True' ? undefined : 'ContainersNotReady', ready === 'True' ? undefined : message),
      condition(old, 'PodScheduled', 'True', at),
    ],
    hostIP,
    // The sandbox exists whatever its containers do, so the pod has its IP.
    podIP,
    podIPs: [{ ip: podIP }],
    startTime: pod.status?.startTime ?? rfc3339Seconds(t0),
    containerStatuses: timelines.map((t) => t.status),
  };
  if (pod.status?.qosClass) status.qosClass = pod.status.qosClass;
  const changes = timelines.map((t) => t.nextChangeAt).filter((x): x is number => x !== undefined);
  return { status, events: timelines.flatMap((t) => t.events), nextChangeAt: changes.length ? Math.min(...changes) : undefined };
}

/** Which of a pod's kubelet events were recorded already (by pod uid), so each is recorded once. */
export class RecordedKubeletEvents {
  private readonly seen = new Map<string, Set<string>>();

  async record(recorder: EventRecorder, pod: Obj, events: ContainerTimeline['events']): Promise<void> {
    const uid = String(pod.metadata.uid);
    let seen = this.seen.get(uid);
    if (!seen) {
      this.seen.set(uid, (seen = new Set()));
      // A pod already reported by an earlier run of this host: its past steps were recorded then.
      if (pod.status?.podIP) for (const e of events) seen.add(e.id);
    }
    for (const e of events) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      await recorder.record(pod, e.type, e.reason, e.message);
    }
  }

  forget(uid: string): void {
    this.seen.delete(uid);
  }
}
