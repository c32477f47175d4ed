// The HPA's replica calculator for resource metrics (kube-controller-manager v1.23,
// pkg/controller/podautoscaler/replica_calculator.go): pods are grouped into ready, unready,
// missing (no metrics) and ignored; a change within the tolerance (0.1) keeps the current count;
// missing and unready pods are then counted pessimistically (a scale-down treats a missing pod
// as using its whole request, a scale-up treats missing and unready pods as using nothing), and
// a recount that would flip the direction keeps the current count. Values are milli-units, as
// kube's MilliValue().
import type { Obj } from '../registry/objects';
import { milli } from './pod-fit';

export const TOLERANCE = 0.1;
/** --horizontal-pod-autoscaler-cpu-initialization-period (default 5m). */
export const CPU_INITIALIZATION_PERIOD_MS = 5 * 60_000;
/** --horizontal-pod-autoscaler-initial-readiness-delay (default 30s). */
export const INITIAL_READINESS_DELAY_MS = 30_000;

export interface PodMetric {
  /** The pod's usage of the resource, summed over its containers, in milli-units. */
  value: number;
  timestamp: number;
  windowMs: number;
}

/** A failure, worded as kube's, that becomes the ScalingActive condition's message. */
export class MetricError extends Error {}

/** metrics.k8s.io PodMetrics items → pod name → usage (getPodMetrics: a pod missing the resource in a container is skipped). */
export function podMetricsOf(items: readonly Obj[], resource: string): Map<string, PodMetric> {
  const out = new Map<string, PodMetric>();
  for (const m of items) {
    const containers = (m.containers ?? []) as Obj[];
    if (!containers.length || containers.some((c) => c.usage?.[resource] === undefined)) continue;
    const value = containers.reduce((sum, c) => sum + Math.ceil(milli(c.usage[resource])), 0);
    out.set(String(m.metadata?.name), { value, timestamp: Date.parse(String(m.timestamp)), windowMs: parseSeconds(m.window) });
  }
  return out;
}

/** A metav1.Duration such as `15s` or `10.5s` (metrics-server writes seconds). */
function parseSeconds(text: unknown): number {
  const m = /^([0-9.]+)s$/.exec(String(text ?? ''));
  return m ? Math.round(Number(m[1]) * 1000) : 0;
}

interface Groups {
  readyPodCount: number;
  unready: Set<string>;
  missing: Set<string>;
  ignored: Set<string>;
}

/** groupPods: deleted and failed pods are ignored, pending pods too; CPU samples of pods still starting count as unready. */
function groupPods(pods: readonly Obj[], metrics: Map<string, PodMetric>, resource: string, now: number): Groups {
  const g: Groups = { readyPodCount: 0, unready: new Set(), missing: new Set(), ignored: new Set() };
  for (const pod of pods) {
    const name = String(pod.metadata?.name);
    if (pod.metadata?.deletionTimestamp || pod.status?.phase === 'Failed' || pod.status?.phase === 'Pending') {
      g.ignored.add(name);
      continue;
    }
    const metric = metrics.get(name);
    if (!metric) {
      g.missing.add(name);
      continue;
    }
    if (resource === 'cpu') {
      const ready = ((pod.status?.conditions ?? []) as Obj[]).find((c) => c.type === 'Ready');
      const startTime = Date.parse(String(pod.status?.startTime ?? ''));
      let unready: boolean;
      if (!ready || !Number.isFinite(startTime)) unready = true;
      else {
        const transition = Date.parse(String(ready.lastTransitionTime ?? '')) || 0;
        if (startTime + CPU_INITIALIZATION_PERIOD_MS > now) {
          // Still starting: a sample taken before one full window since readiness changed is not trusted.
          unready = ready.status === 'False' || metric.timestamp < transition + metric.windowMs;
        } else {
          // Unready and never been ready.
          unready = ready.status === 'False' && startTime + INITIAL_READINESS_DELAY_MS > transition;
        }
      }
      if (unready) {
        g.unready.add(name);
        continue;
      }
    }
    g.readyPodCount++;
  }
  return g;
}

/** calculatePodRequests: every container must request the resource. */
function podRequests(pods: readonly Obj[], resource: string): Map<string, number> {
  const requests = new Map<string, number>();
  for (const pod of pods) {
    let sum = 0;
    for (const c of (pod.spec?.containers ?? []) as Obj[]) {
      const request = c.resources?.requests?.[resource];
      if (request === undefined) throw new MetricError(`missing request for ${resource}`);
      sum += Math.ceil(milli(request));
    }
    requests.set(String(pod.metadata?.name), sum);
  }
  return requests;
}

/** GetResourceUtilizationRatio: usage over requests of the pods that have both, as an integer percentage. */
function utilizationRatio(metrics: Map<string, number>, requests: Map<string, number>, target: number): { ratio: number; utilization: number; rawAverage: number } {
  let metricsTotal = 0;
  let requestsTotal = 0;
  let entries = 0;
  for (const [name, value] of metrics) {
    const request = requests.get(name);
    if (request === undefined) continue;
    metricsTotal += value;
    requestsTotal += request;
    entries++;
  }
  if (requestsTotal === 0) throw new MetricError('no metrics returned matched known pods');
  const utilization = Math.trunc((metricsTotal * 100) / requestsTotal);
  return { ratio: utilization / target, utilization, rawAverage: Math.trunc(metricsTotal / entries) };
}

/** GetMetricUtilizationRatio: the plain average against an average-value target. */
function averageRatio(metrics: Map<string, number>, target: number): { ratio: number; average: number } {
  let total = 0;
  for (const v of metrics.values()) total += v;
  const average = Math.trunc(total / metrics.size);
  return { ratio: average / target, average };
}

export interface ResourceProposal {
  replicas: number;
  /** Utilization targets only: the integer percentage of the requests. */
  utilization?: number;
  /** The average usage per pod, in milli-units. */
  rawAverage: number;
  timestamp: number;
}

interface Input {
  currentReplicas: number;
  pods: readonly Obj[];
  metrics: Map<string, PodMetric>;
  resource: string;
  now: number;
}

function prepared({ pods, metrics, resource, now }: Input): { groups: Groups; values: Map<string, number> } {
  if (pods.length === 0) throw new MetricError('no pods returned by selector while calculating replica count');
  const groups = groupPods(pods, metrics, resource, now);
  const values = new Map<string, number>();
  for (const [name, m] of metrics) if (!groups.ignored.has(name) && !groups.unready.has(name)) values.set(name, m.value);
  if (values.size === 0) throw new MetricError('did not receive metrics for any ready pods');
  return { groups, values };
}

/**
 * The shared second half of both calculators: with missing or unready pods, fill their values
 * pessimistically, recompute, and keep the current count when the change is small or would flip
 * the scale direction.
 */
function withMissingAndUnready(input: Input, groups: Groups, values: Map<string, number>, ratio: number, missingOnScaleDown: (name: string) => number, recompute: () => number): number {
  const scaleUpWithUnready = groups.unready.size > 0 && ratio > 1;
  if (!scaleUpWithUnready && groups.missing.size === 0) {
    if (Math.abs(1 - ratio) <= TOLERANCE) return input.currentReplicas;
    return Math.ceil(ratio * groups.readyPodCount);
  }
  if (groups.missing.size > 0) {
    if (ratio < 1) for (const name of groups.missing) values.set(name, missingOnScaleDown(name));
    else if (ratio > 1) for (const name of groups.missing) values.set(name, 0);
  }
  if (scaleUpWithUnready) for (const name of groups.unready) values.set(name, 0);
  const newRatio = recompute();
  if (Math.abs(1 - newRatio) <= TOLERANCE || (ratio < 1 && newRatio > 1) || (ratio > 1 && newRatio < 1)) return input.currentReplicas;
  const replicas = Math.ceil(newRatio * values.size);
  if ((newRatio < 1 && replicas > input.currentReplicas) || (newRatio > 1 && replicas < input.currentReplicas)) return input.currentReplicas;
  return replicas;
}

/** GetResourceReplicas: a target utilization in percent of the pods' requests. */
export function resourceUtilizationReplicas(input: Input, targetUtilization: number): ResourceProposal {
  const { groups, values } = prepared(input);
  const requests = podRequests(input.pods, input.resource);
  const first = utilizationRatio(values, requests, targetUtilization);
  const fallback = Math.max(100, targetUtilization);
  const replicas = withMissingAndUnready(input, groups, values, first.ratio, (name) => Math.trunc(((requests.get(name) ?? 0) * fallback) / 100), () => utilizationRatio(values, requests, targetUtilization).ratio);
  return { replicas, utilization: first.utilization, rawAverage: first.rawAverage, timestamp: timestampOf(input.metrics) };
}

/** GetRawResourceReplicas: a target average value per pod (milli-units). */
export function resourceAverageValueReplicas(input: Input, targetMilli: number): ResourceProposal {
  const { groups, values } = prepared(input);
  const first = averageRatio(values, targetMilli);
  const replicas = withMissingAndUnready(input, groups, values, first.ratio, () => targetMilli, () => averageRatio(values, targetMilli).ratio);
  return { replicas, rawAverage: first.average, timestamp: timestampOf(input.metrics) };
}

/** The first item's timestamp, as the metrics client reports the list's. */
function timestampOf(metrics: Map<string, PodMetric>): number {
  return metrics.values().next().value?.timestamp ?? 0;
}
