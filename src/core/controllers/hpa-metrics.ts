// The HPA's computeReplicasForMetrics (v1.23 horizontal.go): one proposal per metric spec, the
// largest wins; a metric that fails sets ScalingActive=False with its own reason, and when every
// metric fails (or some fail and the rest would scale down) the whole computation fails with
// kube's "invalid metrics (n invalid out of m)" error. Resource metrics come from metrics.k8s.io
// through the API, as the HPA's REST metrics client reads them; custom and external metrics have
// no API here and fail as they do in a cluster without an adapter.
import type { Obj } from '../registry/objects';
import { canonicalQuantity } from '../validation/quantity';
import { matchesLabels, parseLabelSelector, type LabelSelector } from '../selectors/labels';
import { ApiCallError, type ApiClient } from './client';
import type { Informer } from './informer';
import { milli } from './pod-fit';
import { MetricError, podMetricsOf, resourceAverageValueReplicas, resourceUtilizationReplicas } from './hpa-replicas';

export interface ConditionSetting {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
}

/** A failed computation: the error's message, and the event kube records on the way (if any). */
export class ComputeError extends Error {
  constructor(
    message: string,
    readonly condition?: ConditionSetting,
  ) {
    super(message);
  }
}

export interface MetricsResult {
  replicas: number;
  metricName: string;
  statuses: Obj[];
}

export interface MetricsContext {
  client: ApiClient;
  pods: Informer;
  now: number;
  /** Records a Warning event on the HPA. */
  warn(reason: string, message: string): void;
  setCondition(c: ConditionSetting): void;
}

/** NewMilliQuantity(v, DecimalSI).String(). */
export function milliQuantity(v: number): string {
  return canonicalQuantity(`${v}m`);
}

/** The text of a failed API call as the Go client's error prints it (the Status message). */
export function statusMessage(err: unknown): string {
  if (err instanceof ApiCallError) return err.message.replace(/^\S+ \S+: \d+ /, '');
  return err instanceof Error ? err.message : String(err);
}

function unableToCompute(ctx: MetricsContext, reason: string, message: string): ComputeError {
  ctx.warn(reason, message);
  return new ComputeError(message, { type: 'ScalingActive', status: 'False', reason, message: `the HPA was unable to compute the replica count: ${message}` });
}

async function podMetrics(ctx: MetricsContext, namespace: string, selector: string, resource: string): Promise<Obj[]> {
  let list: Obj;
  try {
    list = await ctx.client.list(`/apis/metrics.k8s.io/v1beta1/namespaces/${namespace}/pods?labelSelector=${encodeURIComponent(selector)}`);
  } catch (err) {
    const detail = err instanceof ApiCallError && err.code === 404 ? 'the server could not find the requested resource (get pods.metrics.k8s.io)' : statusMessage(err);
    throw new MetricError(`unable to get metrics for resource ${resource}: unable to fetch metrics from resource metrics API: ${detail}`);
  }
  const items = (list.items ?? []) as Obj[];
  if (!items.length) throw new MetricError(`unable to get metrics for resource ${resource}: no metrics returned from resource metrics API`);
  return items;
}

/** computeStatusForResourceMetric: a proposal and the metric's status, or a ComputeError. */
async function resourceMetric(ctx: MetricsContext, hpa: Obj, spec: Obj, currentReplicas: number, selectorText: string, selector: LabelSelector): Promise<{ replicas: number; name: string; status: Obj }> {
  const resource = String(spec.resource?.name ?? '');
  const target = (spec.resource?.target ?? {}) as Obj;
  const namespace = String(hpa.metadata.namespace);
  try {
    const items = await podMetrics(ctx, namespace, selectorText, resource);
    const pods = ctx.pods.list().filter((p) => p.metadata?.namespace === namespace && matchesLabels(selector, p.metadata?.labels));
    const input = { currentReplicas, pods, metrics: podMetricsOf(items, resource), resource, now: ctx.now };
    if (target.averageValue !== undefined) {
      const proposal = resourceAverageValueReplicas(input, Math.ceil(milli(target.averageValue)));
      return { replicas: proposal.replicas, name: `${resource} resource`, status: { type: 'Resource', resource: { name: resource, current: { averageValue: milliQuantity(proposal.rawAverage) } } } };
    }
    if (target.averageUtilization === undefined) throw new MetricError('invalid resource metric source: neither an average utilization target nor an average value target was set');
    const proposal = resourceUtilizationReplicas(input, Number(target.averageUtilization));
    return {
      replicas: proposal.replicas,
      name: `${resource} resource utilization (percentage of request)`,
      status: { type: 'Resource', resource: { name: resource, current: { averageValue: milliQuantity(proposal.rawAverage), averageUtilization: proposal.utilization } } },
    };
  } catch (err) {
    if (!(err instanceof MetricError)) throw err;
    const inner = `failed to get ${resource} utilization: ${err.message}`;
    const failed = unableToCompute(ctx, 'FailedGetResourceMetric', inner);
    throw new ComputeError(`failed to get ${resource} resource metric value: ${inner}`, failed.condition);
  }
}

/** Custom and external metrics: no custom.metrics.k8s.io or external.metrics.k8s.io is registered here. */
function unservedMetric(ctx: MetricsContext, hpa: Obj, spec: Obj): ComputeError {
  switch (spec.type) {
    case 'Pods': {
      const inner = `unable to get metric ${spec.pods?.metric?.name}: unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered`;
      return new ComputeError(`failed to get pods metric value: ${inner}`, unableToCompute(ctx, 'FailedGetPodsMetric', inner).condition);
    }
    case 'Object': {
      const inner = `unable to get metric ${spec.object?.metric?.name}: ${spec.object?.describedObject?.kind} on ${hpa.metadata.namespace} ${spec.object?.describedObject?.name}/unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered`;
      return new ComputeError(`failed to get object metric value: ${inner}`, unableToCompute(ctx, 'FailedGetObjectMetric', inner).condition);
    }
    case 'External': {
      const inner = `unable to get external metric ${spec.external?.metric?.name}: unable to fetch metrics from external metrics API: no external metrics API (external.metrics.k8s.io) registered`;
      return new ComputeError(`failed to get external metric value: ${inner}`, unableToCompute(ctx, 'FailedGetExternalMetric', inner).condition);
    }
    default: {
      const message = `unknown metric source type ${JSON.stringify(String(spec.type ?? ''))}`;
      return new ComputeError(message, unableToCompute(ctx, 'InvalidMetricSourceType', message).condition);
    }
  }
}

export async function computeReplicasForMetrics(ctx: MetricsContext, hpa: Obj, scale: Obj, specs: readonly Obj[]): Promise<MetricsResult> {
  const selectorText = String(scale.status?.selector ?? '');
  if (!selectorText) {
    ctx.warn('SelectorRequired', 'selector is required');
    ctx.setCondition({ type: 'ScalingActive', status: 'False', reason: 'InvalidSelector', message: "the HPA target's scale is missing a selector" });
    throw new ComputeError('selector is required');
  }
  let selector: LabelSelector;
  try {
    selector = parseLabelSelector(selectorText);
  } catch (err) {
    const message = `couldn't convert selector into a corresponding internal selector object: ${err instanceof Error ? err.message : String(err)}`;
    ctx.warn('InvalidSelector', message);
    ctx.setCondition({ type: 'ScalingActive', status: 'False', reason: 'InvalidSelector', message });
    throw new ComputeError(message);
  }
  const specReplicas = Number(scale.spec?.replicas ?? 0);
  // A metric that fails keeps the zero value of its status, as kube's slice does.
  const statuses: Obj[] = specs.map(() => ({ type: '' }));
  let replicas = 0;
  let metricName = '';
  let invalid = 0;
  let firstError: ComputeError | undefined;
  for (const [i, spec] of specs.entries()) {
    try {
      if (spec.type !== 'Resource') throw unservedMetric(ctx, hpa, spec);
      const proposal = await resourceMetric(ctx, hpa, spec, specReplicas, selectorText, selector);
      statuses[i] = proposal.status;
      if (replicas === 0 || proposal.replicas > replicas) {
        replicas = proposal.replicas;
        metricName = proposal.name;
      }
    } catch (err) {
      if (!(err instanceof ComputeError)) throw err;
      if (invalid === 0) firstError = err;
      invalid++;
    }
  }
  if (invalid >= specs.length || (invalid > 0 && replicas < specReplicas)) {
    if (firstError?.condition) ctx.setCondition(firstError.condition);
    throw new ComputeError(`invalid metrics (${invalid} invalid out of ${specs.length}), first error is: ${firstError?.message ?? ''}`);
  }
  ctx.setCondition({ type: 'ScalingActive', status: 'True', reason: 'ValidMetricFound', message: `the HPA was able to successfully calculate a replica count from ${metricName}` });
  return { replicas, metricName, statuses };
}
