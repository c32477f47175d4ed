// The pod status a v1.23 kubelet reports, at the two moments the simulation shows: just
// admitted (containers being created) and running. Conditions come in the kubelet's order —
// Initialized, Ready, ContainersReady, PodScheduled — and keep their lastTransitionTime while
// their status does not change.
import type { Obj } from '../registry/objects';
import { rfc3339Seconds } from './clock';
import { hexId, imageId, normalizedImage } from './ids';

export interface PodStatusInput {
  pod: Obj;
  hostIP: string;
  /** Absent while the containers are being created. */
  podIP?: string;
  now: number;
  /** When the kubelet first admitted the pod (status.startTime). */
  startTime: string;
}

function condition(old: Obj[], type: string, status: string, now: string, reason?: string, message?: string): Obj {
  const prev = old.find((c) => c.type === type);
  const lastTransitionTime = prev && prev.status === status ? prev.lastTransitionTime : now;
  const c: Obj = { type, status, lastProbeTime: null, lastTransitionTime };
  if (reason) c.reason = reason;
  if (message) c.message = message;
  return c;
}

function containerStatus(pod: Obj, c: Obj, running: boolean, now: string, old: Obj[]): Obj {
  if (!running) {
    return { name: c.name, state: { waiting: { reason: 'ContainerCreating' } }, lastState: {}, ready: false, restartCount: 0, image: c.image, imageID: '', started: false };
  }
  const prev = old.find((s) => s.name === c.name && s.state?.running);
  return {
    name: c.name,
    state: { running: { startedAt: prev?.state.running.startedAt ?? now } },
    lastState: {},
    ready: true,
    restartCount: 0,
    image: normalizedImage(String(c.image ?? '')),
    imageID: imageId(String(c.image ?? '')),
    containerID: `containerd://${hexId(`${pod.metadata.uid}/${c.name}`)}`,
    started: true,
  };
}

/** The whole status object the kubelet writes (through pods/status). */
export function kubeletPodStatus({ pod, hostIP, podIP, now, startTime }: PodStatusInput): Obj {
  const at = rfc3339Seconds(now);
  const running = podIP !== undefined;
  const containers = (pod.spec?.containers ?? []) as Obj[];
  const oldConditions = (pod.status?.conditions ?? []) as Obj[];
  const oldStatuses = (pod.status?.containerStatuses ?? []) as Obj[];
  const unready = running ? [] : containers.map((c) => String(c.name));
  const notReadyMessage = `containers with unready status: [${unready.join(' ')}]`;
  const conditions = [
    condition(oldConditions, 'Initialized', 'True', at),
    running ? condition(oldConditions, 'Ready', 'True', at) : condition(oldConditions, 'Ready', 'False', at, 'ContainersNotReady', notReadyMessage),
    running ? condition(oldConditions, 'ContainersReady', 'True', at) : condition(oldConditions, 'ContainersReady', 'False', at, 'ContainersNotReady', notReadyMessage),
    condition(oldConditions, 'PodScheduled', 'True', at),
  ];
  const status: Obj = {
    phase: running ? 'Running' : 'Pending',
    conditions,
    hostIP,
  };
  if (running) {
    status.podIP = podIP;
    status.podIPs = [{ ip: podIP }];
  }
  status.startTime = startTime;
  const inits = (pod.spec?.initContainers ?? []) as Obj[];
  if (inits.length) {
    // Init containers of a simulated pod finish at once, successfully.
    status.initContainerStatuses = inits.map((c) => ({
      name: c.name,
      state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: startTime, finishedAt: startTime, containerID: `containerd://${hexId(`${pod.metadata.uid}/init/${c.name}`)}` } },
      lastState: {},
      ready: true,
      restartCount: 0,
      image: normalizedImage(String(c.image ?? '')),
      imageID: imageId(String(c.image ?? '')),
      containerID: `containerd://${hexId(`${pod.metadata.uid}/init/${c.name}`)}`,
    }));
  }
  status.containerStatuses = containers.map((c) => containerStatus(pod, c, running, at, oldStatuses));
  if (pod.status?.qosClass) status.qosClass = pod.status.qosClass;
  return status;
}
