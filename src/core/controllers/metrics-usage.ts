// How much CPU and memory a simulated container uses: the playground's usage convention (decision
// 0034). Nothing runs in a simulated container, so its usage is what the pod says it is:
//
//   kube-playground.dev/cpu-usage: "250m"      each container of the pod uses 250 millicores
//   kube-playground.dev/memory-usage: "64Mi"   each container of the pod uses 64 MiB
//
// on the pod, or on a workload's pod template (pods copy the template's annotations). A value may
// also be a percentage of the container's request (`"80%"` of requests.cpu; the limit when no
// request is set), which keeps a lesson's numbers independent of the requests. Absent or
// unreadable values fall back to a small idle default. Node usage is the sum of its running pods
// plus a fixed share for the node's own system daemons.
import type { Obj } from '../registry/objects';
import { milli } from './pod-fit';

export const CPU_USAGE_ANNOTATION = 'kube-playground.dev/cpu-usage';
export const MEMORY_USAGE_ANNOTATION = 'kube-playground.dev/memory-usage';

/** An idle container: 1 millicore, 4 MiB. */
export const DEFAULT_CONTAINER_USAGE = { cpuMilli: 1, memoryBytes: 4 * 1024 * 1024 };
/** The node's own daemons (kubelet, containerd, the OS): 100 millicores, 512 MiB. */
export const NODE_SYSTEM_USAGE = { cpuMilli: 100, memoryBytes: 512 * 1024 * 1024 };

export interface Usage {
  /** CPU in millicores (fractions allowed: `1500u` is 1.5). */
  cpuMilli: number;
  memoryBytes: number;
}

/** An annotation value as millicores (cpu) or thousandths of a byte (memory), or undefined when unreadable. */
function annotated(value: unknown, request: unknown, limit: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const percent = /^([0-9]+(?:\.[0-9]+)?)%$/.exec(text);
  if (percent) {
    const base = milli(request) || milli(limit);
    return base ? (base * Number(percent[1])) / 100 : undefined;
  }
  if (!/^[0-9]/.test(text)) return undefined;
  const m = milli(text);
  return Number.isFinite(m) && m >= 0 ? m : undefined;
}

/** One container's usage under the convention above. */
export function containerUsage(pod: Obj, container: Obj): Usage {
  const annotations = (pod.metadata?.annotations ?? {}) as Record<string, unknown>;
  const requests = (container.resources?.requests ?? {}) as Obj;
  const limits = (container.resources?.limits ?? {}) as Obj;
  const cpu = annotated(annotations[CPU_USAGE_ANNOTATION], requests.cpu, limits.cpu);
  const memory = annotated(annotations[MEMORY_USAGE_ANNOTATION], requests.memory, limits.memory);
  return {
    cpuMilli: cpu ?? DEFAULT_CONTAINER_USAGE.cpuMilli,
    // milli() gives thousandths of a byte; usage is reported in whole bytes.
    memoryBytes: memory === undefined ? DEFAULT_CONTAINER_USAGE.memoryBytes : Math.round(memory / 1000),
  };
}

/** Whether a pod is running and so has usage to report (metrics-server skips the others). */
export function podHasMetrics(pod: Obj): boolean {
  if (pod.status?.phase !== 'Running' || pod.metadata?.deletionTimestamp) return false;
  const statuses = (pod.status?.containerStatuses ?? []) as Obj[];
  return statuses.some((s) => s.state?.running);
}

/** Per container (spec order) for a running pod; containers not running report nothing. */
export function podUsage(pod: Obj): { name: string; usage: Usage }[] {
  const statuses = (pod.status?.containerStatuses ?? []) as Obj[];
  return ((pod.spec?.containers ?? []) as Obj[])
    .filter((c) => statuses.some((s) => s.name === c.name && s.state?.running))
    .map((c) => ({ name: String(c.name), usage: containerUsage(pod, c) }));
}

/** A node's usage: its running pods plus the system share. */
export function nodeUsage(pods: readonly Obj[]): Usage {
  const total = { ...NODE_SYSTEM_USAGE };
  for (const pod of pods) {
    if (!podHasMetrics(pod)) continue;
    for (const { usage } of podUsage(pod)) {
      total.cpuMilli += usage.cpuMilli;
      total.memoryBytes += usage.memoryBytes;
    }
  }
  return total;
}

/** CPU as metrics-server prints it: nanocores (`250000000n`). */
export function formatCpu(cpuMilli: number): string {
  return `${Math.round(cpuMilli * 1_000_000)}n`;
}

/** Memory as metrics-server prints it: kibibytes (`65536Ki`), whole bytes when not a multiple. */
export function formatMemory(bytes: number): string {
  const b = Math.round(bytes);
  return b % 1024 === 0 ? `${b / 1024}Ki` : String(b);
}
