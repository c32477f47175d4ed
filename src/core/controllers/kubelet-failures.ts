// Failure-simulating images for the simulated kubelets (decision 0034). An image whose tag is, or
// ends with `-` and, one of these behaves so:
//
//   crash-loop    starts, runs 1 s and exits 1; restarted at once the first time, then after the
//                 kubelet's back-off of 10 s doubling to 5 min (CrashLoopBackOff, restartCount grows).
//                 restartPolicy Never: the pod fails instead.
//   pull-error    never pulls: ErrImagePull, then ImagePullBackOff with the same back-off; the pod
//                 stays Pending (its sandbox has an IP).
//   never-ready   runs, but is never ready (as with a readiness probe that always fails).
//
// e.g. `busybox:crash-loop`, `nginx:pull-error`, `nginx:1.25-never-ready`. Everything is derived
// from the pod's startTime and the cluster clock, so a restarted host carries on where it was;
// the kubelet's events (Pulling, Pulled, Created, Started, BackOff, Failed, Unhealthy) are
// recorded as each step is reached. Other containers of such a pod run normally.
import type { Obj } from '../registry/objects';
import { rfc3339Seconds } from './clock';
import { hexId, imageId, normalizedImage } from './ids';

export type FailureMode = 'crash-loop' | 'pull-error' | 'never-ready';
const MODES: readonly FailureMode[] = ['crash-loop', 'pull-error', 'never-ready'];

/** How long a crash-looping container runs before it exits 1. */
export const CRASH_RUN_MS = 1000;
/** The kubelet's back-off: 10 s doubling to 5 min (crash loops and image pulls alike). */
export const BACKOFF_INITIAL_MS = 10_000;
export const BACKOFF_MAX_MS = 300_000;
/** From a failed pull to the pod worker's next sync, which reports the back-off. */
const PULL_RETRY_REPORT_MS = 1000;

function tagOf(image: string): string {
  const lastSlash = image.lastIndexOf('/');
  const name = image.slice(lastSlash + 1).split('@')[0];
  const colon = name.indexOf(':');
  return colon < 0 ? '' : name.slice(colon + 1);
}

/** The failure a container's image asks for, if any. */
export function failureModeOfImage(image: unknown): FailureMode | undefined {
  const tag = tagOf(String(image ?? ''));
  return MODES.find((m) => tag === m || tag.endsWith(`-${m}`));
}

export function hasFailureImage(pod: Obj): boolean {
  return ((pod.spec?.containers ?? []) as Obj[]).some((c) => failureModeOfImage(c.image) !== undefined);
}

/** The back-off before restart `k` (k ≥ 1): the first restart is immediate. */
function backoffBefore(k: number): number {
  return k <= 1 ? 0 : Math.min(BACKOFF_INITIAL_MS * 2 ** (k - 2), BACKOFF_MAX_MS);
}

/** Go's time.Duration String for whole seconds and minutes (`10s`, `1m20s`, `5m0s`). */
function goDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${s % 60}s`;
}

/** An event the kubelet records for the pod. */
export interface KubeletEvent {
  /** Unique per occurrence, so each is recorded once. */
  id: string;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export interface ContainerTimeline {
  status: Obj;
  /** Whether the container has ever started (the pod is Running, not Pending). */
  everStarted: boolean;
  /** Whether it is over for good (restartPolicy Never). */
  finished: boolean;
  events: KubeletEvent[];
  /** The next moment this container's state changes, if any. */
  nextChangeAt?: number;
}

function containerId(pod: Obj, name: string, attempt: number): string {
  return `containerd://${hexId(`${pod.metadata.uid}/${name}/${attempt}`)}`;
}

function startEvents(image: string, name: string, first: boolean, id: string): KubeletEvent[] {
  const pulled: KubeletEvent[] = first
    ? [
        { id: `${id}/pulling`, type: 'Normal', reason: 'Pulling', message: `Pulling image "${image}"` },
        { id: `${id}/pulled`, type: 'Normal', reason: 'Pulled', message: `Successfully pulled image "${image}" in 1s` },
      ]
    : [{ id: `${id}/pulled`, type: 'Normal', reason: 'Pulled', message: `Container image "${image}" already present on machine` }];
  return [...pulled, { id: `${id}/created`, type: 'Normal', reason: 'Created', message: `Created container ${name}` }, { id: `${id}/started`, type: 'Normal', reason: 'Started', message: `Started container ${name}` }];
}

function running(pod: Obj, c: Obj, attempt: number, startedAt: number, ready: boolean, lastState: Obj): Obj {
  return {
    name: c.name,
    state: { running: { startedAt: rfc3339Seconds(startedAt) } },
    lastState,
    ready,
    restartCount: attempt,
    image: normalizedImage(String(c.image ?? '')),
    imageID: imageId(String(c.image ?? '')),
    containerID: containerId(pod, String(c.name), attempt),
    started: true,
  };
}

function crashed(pod: Obj, name: string, attempt: number, start: number): Obj {
  return { terminated: { exitCode: 1, reason: 'Error', startedAt: rfc3339Seconds(start), finishedAt: rfc3339Seconds(start + CRASH_RUN_MS), containerID: containerId(pod, name, attempt) } };
}

/** A crash-looping container at `now`, started first at `t0`. */
function crashLoop(pod: Obj, c: Obj, t0: number, now: number): ContainerTimeline {
  const name = String(c.name);
  const image = String(c.image ?? '');
  const restarts = pod.spec?.restartPolicy !== 'Never';
  const events: KubeletEvent[] = [];
  let start = t0;
  for (let k = 0; ; k++) {
    events.push(...startEvents(image, name, k === 0, `${name}/${k}`));
    const exit = start + CRASH_RUN_MS;
    const last = k === 0 ? {} : crashed(pod, name, k - 1, start - backoffBefore(k) - CRASH_RUN_MS);
    if (now < exit) return { status: running(pod, c, k, start, true, last), everStarted: true, finished: false, events, nextChangeAt: exit };
    if (!restarts) {
      const terminated = crashed(pod, name, k, start);
      const status = { name, state: terminated, lastState: {}, ready: false, restartCount: 0, image: normalizedImage(image), imageID: imageId(image), containerID: containerId(pod, name, k), started: false };
      return { status, everStarted: true, finished: true, events };
    }
    const wait = backoffBefore(k + 1);
    const next = exit + wait;
    if (now < next) {
      events.push({ id: `${name}/${k}/backoff`, type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container' });
      const status = {
        name,
        state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off ${goDuration(wait)} restarting failed container=${name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})` } },
        lastState: crashed(pod, name, k, start),
        ready: false,
        restartCount: k,
        image: normalizedImage(image),
        imageID: imageId(image),
        containerID: containerId(pod, name, k),
        started: false,
      };
      return { status, everStarted: true, finished: false, events, nextChangeAt: next };
    }
    start = next;
  }
}

/** A container whose image never pulls, at `now`, first tried at `t0`. */
function pullError(c: Obj, t0: number, now: number): ContainerTimeline {
  const name = String(c.name);
  const image = String(c.image ?? '');
  const ref = normalizedImage(image);
  const pullMessage = `rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`;
  const events: KubeletEvent[] = [];
  const waiting = (reason: string, message: string): Obj => ({ name, state: { waiting: { reason, message } }, lastState: {}, ready: false, restartCount: 0, image, imageID: '', started: false });
  let attempt = t0;
  for (let k = 0; ; k++) {
    events.push(
      { id: `${name}/${k}/pulling`, type: 'Normal', reason: 'Pulling', message: `Pulling image "${image}"` },
      { id: `${name}/${k}/failed`, type: 'Warning', reason: 'Failed', message: `Failed to pull image "${image}": ${pullMessage}` },
      { id: `${name}/${k}/err`, type: 'Warning', reason: 'Failed', message: 'Error: ErrImagePull' },
    );
    const backoffFrom = attempt + PULL_RETRY_REPORT_MS;
    if (now < backoffFrom) return { status: waiting('ErrImagePull', pullMessage), everStarted: false, finished: false, events, nextChangeAt: backoffFrom };
    const next = backoffFrom + Math.min(BACKOFF_INITIAL_MS * 2 ** k, BACKOFF_MAX_MS);
    events.push(
      { id: `${name}/${k}/backoff`, type: 'Normal', reason: 'BackOff', message: `Back-off pulling image "${image}"` },
      { id: `${name}/${k}/backoff-err`, type: 'Warning', reason: 'Failed', message: 'Error: ImagePullBackOff' },
    );
    if (now < next) return { status: waiting('ImagePullBackOff', `Back-off pulling image "${image}"`), everStarted: false, finished: false, events, nextChangeAt: next };
    attempt = next;
  }
}

/** One container of a pod with failure images, at `now`; `t0` is when the kubelet first started the pod's containers. */
export function containerTimeline(pod: Obj, c: Obj, t0: number, now: number): ContainerTimeline {
  const mode = failureModeOfImage(c.image);
  if (mode === 'crash-loop') return crashLoop(pod, c, t0, now);
  if (mode === 'pull-error') return pullError(c, t0, now);
  const name = String(c.name);
  const events = startEvents(String(c.image ?? ''), name, false, `${name}/0`);
  if (mode === 'never-ready' && c.readinessProbe) events.push({ id: `${name}/unhealthy`, type: 'Warning', reason: 'Unhealthy', message: 'Readiness probe failed: HTTP probe failed with statuscode: 503' });
  return { status: running(pod, c, 0, t0, mode !== 'never-ready', {}), everStarted: true, finished: false, events };
}
