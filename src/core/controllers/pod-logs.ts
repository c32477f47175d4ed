// `kubectl logs` for pods on simulated nodes: a short synthetic log per container run, the same
// every time for the same pod, container and run (an nginx-like start-up for nginx images, a
// crash for crash-loop images, a generic service start otherwise). Which run is read, and the
// errors when there is none, follow the kubelet's validateContainerLogStatus; the options
// (tailLines, limitBytes, timestamps, sinceSeconds/sinceTime, previous) are applied as the
// kubelet applies them. The apiserver relays a kubelet error as a 400 with its text.
import type { ApiResponse } from '../meta/types';
import type { Obj } from '../registry/objects';
import type { KubeletLogs, PodLogOptions } from '../registry/kubelet-logs';
import { ApiError } from '../meta/status';
import { newUuid } from '../registry/uuid';
import type { Clock } from './clock';
import { failureModeOfImage } from './kubelet-failures';

interface LogLine {
  at: number;
  text: string;
}

/** Go's time.RFC3339Nano: trailing zeros of the fraction dropped. */
function rfc3339Nano(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d*?)0*Z$/, (_, f: string) => (f ? `.${f}Z` : 'Z'));
}

/** nginx's error-log time: `2022/01/01 00:00:03`. */
function nginxTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace(/-/g, '/').replace('T', ' ');
}

function imageTag(image: string): string {
  const last = image.slice(image.lastIndexOf('/') + 1).split('@')[0];
  const colon = last.indexOf(':');
  return colon < 0 ? 'latest' : last.slice(colon + 1);
}

function isNginx(image: string): boolean {
  const name = image.slice(image.lastIndexOf('/') + 1).split(/[:@]/)[0];
  return name === 'nginx' || name.startsWith('nginx-');
}

/** The lines one run of a container wrote, from its start time. */
function runLines(pod: Obj, c: Obj, startedAt: number, attempt: number, init: boolean): LogLine[] {
  const image = String(c.image ?? '');
  const name = String(c.name);
  let texts: string[];
  if (failureModeOfImage(image) === 'crash-loop') {
    texts = [`starting ${name} (attempt ${attempt + 1})`, 'loading configuration from /etc/app/config.yaml', `fatal: simulated crash (image ${image}); exiting with code 1`];
  } else if (init) {
    texts = [`init container ${name}: preparing pod ${pod.metadata.namespace}/${pod.metadata.name}`, `init container ${name}: done`];
  } else if (isNginx(image)) {
    const version = /^\d+(\.\d+)*$/.test(imageTag(image)) ? imageTag(image) : '1.25.3';
    const t = nginxTime(startedAt);
    texts = [
      '/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
      '/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/',
      '/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh',
      '10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf',
      '10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf',
      '/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh',
      '/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh',
      '/docker-entrypoint.sh: Configuration complete; ready for start up',
      `${t} [notice] 1#1: using the "epoll" event method`,
      `${t} [notice] 1#1: nginx/${version}`,
      `${t} [notice] 1#1: OS: Linux 5.15.0-kube-playground`,
      `${t} [notice] 1#1: start worker processes`,
      `${t} [notice] 1#1: start worker process 29`,
    ];
  } else {
    const port = (c.ports as Obj[] | undefined)?.[0]?.containerPort ?? 8080;
    texts = [`starting ${name} (image ${image})`, `pod ${pod.metadata.namespace}/${pod.metadata.name} on node ${pod.spec?.nodeName}`, `listening on 0.0.0.0:${port}`, 'ready'];
  }
  // A millisecond apart, so timestamps and sinceTime see an order.
  return texts.map((text, i) => ({ at: startedAt + i, text }));
}

/** A kubelet error, relayed by the apiserver as a 400 with the kubelet's text. */
function kubeletError(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

interface Run {
  startedAt: number;
  attempt: number;
}

function runOf(state: Obj | undefined, attempt: number): Run | undefined {
  const s = state?.running ?? state?.terminated;
  const t = Date.parse(String(s?.startedAt ?? ''));
  return Number.isFinite(t) ? { startedAt: t, attempt } : undefined;
}

/** validateContainerLogStatus: which run the request reads, or the kubelet's error. */
function chooseRun(pod: Obj, container: string, previous: boolean): { run: Run; init: boolean } {
  const podName = String(pod.metadata.name);
  let cs = ((pod.status?.containerStatuses ?? []) as Obj[]).find((s) => s.name === container);
  let init = false;
  if (!cs) {
    cs = ((pod.status?.initContainerStatuses ?? []) as Obj[]).find((s) => s.name === container);
    init = cs !== undefined;
  }
  if (!cs) throw kubeletError(`container ${JSON.stringify(container)} in pod ${JSON.stringify(podName)} is not available`);
  const restarts = Number(cs.restartCount ?? 0);
  const last = cs.lastState?.terminated;
  const state = (cs.state ?? {}) as Obj;
  const lastRun = () => runOf(cs!.lastState, state.running ? restarts - 1 : restarts);
  let run: Run | undefined;
  if (previous) {
    if (!last?.containerID) throw kubeletError(`previous terminated container ${JSON.stringify(container)} in pod ${JSON.stringify(podName)} not found`);
    run = lastRun();
  } else if (state.running) run = runOf(state, restarts);
  else if (state.terminated) run = state.terminated.containerID ? runOf(state, restarts) : last?.containerID ? lastRun() : undefined;
  else if (last) run = last.containerID ? lastRun() : undefined;
  else if (state.waiting) {
    const reason = String(state.waiting.reason ?? '');
    const why = reason === 'ErrImagePull' ? "image can't be pulled" : reason === 'ImagePullBackOff' ? 'trying and failing to pull image' : reason;
    throw kubeletError(`container ${JSON.stringify(container)} in pod ${JSON.stringify(podName)} is waiting to start: ${why}`);
  } else throw kubeletError(`container ${JSON.stringify(container)} in pod ${JSON.stringify(podName)} is waiting to start - no logs yet`);
  if (!run) throw kubeletError(`container ${JSON.stringify(container)} in pod ${JSON.stringify(podName)} is terminated`);
  return { run, init };
}

/** The log text of one container of a pod on a simulated node, options applied as the kubelet does. */
export function containerLog(pod: Obj, container: string, opts: PodLogOptions, now: number): string {
  const { run, init } = chooseRun(pod, container, opts.previous);
  const spec = [...((pod.spec?.containers ?? []) as Obj[]), ...((pod.spec?.initContainers ?? []) as Obj[])].find((c) => c.name === container) ?? { name: container };
  let lines = runLines(pod, spec, run.startedAt, run.attempt, init);
  const since = opts.sinceTime ?? (opts.sinceSeconds !== undefined ? now - opts.sinceSeconds * 1000 : undefined);
  if (since !== undefined) lines = lines.filter((l) => l.at >= since);
  if (opts.tailLines !== undefined) lines = opts.tailLines === 0 ? [] : lines.slice(-opts.tailLines);
  let text = lines.map((l) => `${opts.timestamps ? `${rfc3339Nano(l.at)} ` : ''}${l.text}\n`).join('');
  if (opts.limitBytes !== undefined) {
    const bytes = new TextEncoder().encode(text);
    if (bytes.length > opts.limitBytes) text = new TextDecoder().decode(bytes.slice(0, opts.limitBytes));
  }
  return text;
}

/** The simulated kubelets' side of pods/log. */
export class SimulatedKubeletLogs implements KubeletLogs {
  constructor(
    private readonly nodes: ReadonlySet<string>,
    private readonly clock: Clock,
  ) {}

  serves(nodeName: string): boolean {
    return this.nodes.has(nodeName);
  }

  log(pod: Obj, container: string, opts: PodLogOptions): ApiResponse {
    const body = containerLog(pod, container, opts, this.clock.now());
    return { status: 200, headers: { 'Audit-Id': newUuid(), 'Cache-Control': 'no-cache, private', 'Content-Type': 'text/plain' }, body };
  }
}
