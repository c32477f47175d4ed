// HorizontalPodAutoscaler: autoscaling v1 (storage) / v2beta1 / v2beta2 / v2. The hub is the v2
// shape (identical to kube's internal type in 1.23). Fields v1 cannot express travel in
// annotations (facts from pkg/apis/autoscaling/v1/conversion.go and annotations.go); every
// version drops these annotations when read so they never leak into other versions.
import { type JsonObject, annotationsIn, arrayAt, compact, isObject, objectAt, withAnnotations } from './json';
import { metricSpecFromV2, metricSpecToV2, metricStatusFromV2, metricStatusToV2 } from './hpa-metrics';
import { setOwnKey } from '../codec/own-keys';

export const METRIC_SPECS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
export const METRIC_STATUSES_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';
const ROUND_TRIP = [METRIC_SPECS_ANNOTATION, METRIC_STATUSES_ANNOTATION, CONDITIONS_ANNOTATION, BEHAVIOR_ANNOTATION];

/** autoscaling/v1 implied this target when no metric is given; kube makes it explicit on read. */
export const DEFAULT_CPU_UTILIZATION = 80;

const isCpuResource = (m: JsonObject) => m.type === 'Resource' && objectAt(m, 'resource')?.name === 'cpu';

/** `annotations` without the round-trip ones: the same object when it has none (most reads). */
function withoutRoundTrip(annotations: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  if (!ROUND_TRIP.some((key) => Object.hasOwn(annotations, key))) return annotations;
  const out: Record<string, string> = {};
  for (const key of Object.keys(annotations)) if (!ROUND_TRIP.includes(key)) setOwnKey(out, key, annotations[key]);
  return out;
}

/** Go marshals maps with sorted keys, so annotations written by conversion come out sorted. */
function sortedAnnotations(kept: Readonly<Record<string, string>>, added: Record<string, string>): Record<string, string> {
  const all: Record<string, string> = { ...kept, ...added };
  const out: Record<string, string> = {};
  for (const key of Object.keys(all).sort()) setOwnKey(out, key, all[key]);
  return out;
}

function parseArray(text: string | undefined): JsonObject[] | undefined {
  if (text === undefined) return undefined;
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? parsed.filter(isObject) : [];
}

// The behavior annotation marshals kube's internal Go type, which has no json tags: its keys
// are the Go field names and nil pointers are written as null.
function rulesToGo(rules: unknown): unknown {
  if (!isObject(rules)) return null;
  const policies = arrayAt(rules, 'policies');
  return {
    StabilizationWindowSeconds: rules.stabilizationWindowSeconds ?? null,
    SelectPolicy: rules.selectPolicy ?? null,
    Policies: policies ? policies.map((p) => ({ Type: p.type ?? '', Value: p.value ?? 0, PeriodSeconds: p.periodSeconds ?? 0 })) : null,
  };
}

function rulesFromGo(rules: unknown): JsonObject | undefined {
  if (!isObject(rules)) return undefined;
  const policies = Array.isArray(rules.Policies) ? rules.Policies.filter(isObject) : undefined;
  return compact([
    ['stabilizationWindowSeconds', rules.StabilizationWindowSeconds ?? undefined],
    ['selectPolicy', rules.SelectPolicy ?? undefined],
    ['policies', policies?.map((p) => ({ type: p.Type, value: p.Value, periodSeconds: p.PeriodSeconds }))],
  ]);
}

export function encodeBehavior(behavior: JsonObject): string {
  return JSON.stringify({ ScaleUp: rulesToGo(behavior.scaleUp), ScaleDown: rulesToGo(behavior.scaleDown) });
}

export function decodeBehavior(text: string): JsonObject | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined; // kube moves only well-formed data from annotations to fields
  }
  if (!isObject(parsed)) return undefined;
  const behavior = compact([['scaleUp', rulesFromGo(parsed.ScaleUp)], ['scaleDown', rulesFromGo(parsed.ScaleDown)]]);
  return Object.keys(behavior).length ? behavior : undefined;
}

function conditionToV1(c: JsonObject): JsonObject {
  return compact([
    ['type', c.type],
    ['status', c.status],
    ['lastTransitionTime', c.lastTransitionTime ?? null],
    ['reason', c.reason],
    ['message', c.message],
  ]);
}

function conditionFromV1(c: JsonObject): JsonObject {
  return compact([
    ['type', c.type],
    ['status', c.status],
    ['lastTransitionTime', c.lastTransitionTime ?? undefined],
    ['reason', c.reason],
    ['message', c.message],
  ]);
}

function hubSpec(spec: JsonObject, metrics: JsonObject[] | undefined, behavior: JsonObject | undefined): JsonObject {
  return compact([
    ['scaleTargetRef', spec.scaleTargetRef],
    ['minReplicas', spec.minReplicas],
    ['maxReplicas', spec.maxReplicas],
    ['metrics', metrics],
    ['behavior', behavior],
  ]);
}

function hubStatus(status: JsonObject, currentMetrics: JsonObject[] | undefined, conditions: JsonObject[] | undefined): JsonObject {
  return compact([
    ['observedGeneration', status.observedGeneration],
    ['lastScaleTime', status.lastScaleTime],
    ['currentReplicas', status.currentReplicas],
    ['desiredReplicas', status.desiredReplicas],
    ['currentMetrics', currentMetrics],
    ['conditions', conditions],
  ]);
}

function rebuild(obj: JsonObject, annotations: Readonly<Record<string, string>>, spec: JsonObject | undefined, status: JsonObject | undefined): JsonObject {
  const out = withAnnotations(obj, annotations);
  if (spec) out.spec = spec;
  if (status) out.status = status;
  return out;
}

function v1ToHub(obj: JsonObject): JsonObject {
  const annotations = annotationsIn(obj);
  const spec = objectAt(obj, 'spec');
  const status = objectAt(obj, 'status');
  let hubSpecValue: JsonObject | undefined;
  if (spec) {
    const metrics = (parseArray(annotations[METRIC_SPECS_ANNOTATION]) ?? []).map(metricSpecToV2);
    const cpu = spec.targetCPUUtilizationPercentage ?? (metrics.length === 0 ? DEFAULT_CPU_UTILIZATION : undefined);
    if (cpu !== undefined) {
      metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: cpu } } });
    }
    const behaviorText = annotations[BEHAVIOR_ANNOTATION];
    hubSpecValue = hubSpec(spec, metrics, behaviorText === undefined ? undefined : decodeBehavior(behaviorText));
  }
  let hubStatusValue: JsonObject | undefined;
  if (status) {
    let current = parseArray(annotations[METRIC_STATUSES_ANNOTATION])?.map(metricStatusToV2);
    if (!current && status.currentCPUUtilizationPercentage !== undefined) {
      current = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } }];
    }
    hubStatusValue = hubStatus(status, current, parseArray(annotations[CONDITIONS_ANNOTATION])?.map(conditionFromV1));
  }
  return rebuild(obj, withoutRoundTrip(annotations), hubSpecValue, hubStatusValue);
}

function v1FromHub(obj: JsonObject): JsonObject {
  const annotations: Record<string, string> = {};
  const spec = objectAt(obj, 'spec');
  const status = objectAt(obj, 'status');
  let v1Spec: JsonObject | undefined;
  if (spec) {
    const metrics = arrayAt(spec, 'metrics') ?? [];
    const cpu = metrics.find(isCpuResource);
    const cpuUtilization = objectAt(objectAt(cpu, 'resource'), 'target')?.averageUtilization;
    const others = metrics.filter((m) => !(isCpuResource(m) && objectAt(objectAt(m, 'resource'), 'target')?.averageUtilization !== undefined));
    if (others.length) annotations[METRIC_SPECS_ANNOTATION] = JSON.stringify(others.map(metricSpecFromV2));
    if (isObject(spec.behavior)) annotations[BEHAVIOR_ANNOTATION] = encodeBehavior(spec.behavior);
    v1Spec = compact([
      ['scaleTargetRef', spec.scaleTargetRef],
      ['minReplicas', spec.minReplicas],
      ['maxReplicas', spec.maxReplicas],
      ['targetCPUUtilizationPercentage', cpuUtilization],
    ]);
  }
  let v1Status: JsonObject | undefined;
  if (status) {
    const current = arrayAt(status, 'currentMetrics') ?? [];
    let cpuCurrent: unknown;
    for (const m of current) {
      const utilization = objectAt(objectAt(m, 'resource'), 'current')?.averageUtilization;
      if (isCpuResource(m) && utilization !== undefined) cpuCurrent = utilization;
    }
    if (current.length) annotations[METRIC_STATUSES_ANNOTATION] = JSON.stringify(current.map(metricStatusFromV2));
    const conditions = arrayAt(status, 'conditions') ?? [];
    if (conditions.length) annotations[CONDITIONS_ANNOTATION] = JSON.stringify(conditions.map(conditionToV1));
    v1Status = compact([
      ['observedGeneration', status.observedGeneration],
      ['lastScaleTime', status.lastScaleTime],
      ['currentReplicas', status.currentReplicas],
      ['desiredReplicas', status.desiredReplicas],
      ['currentCPUUtilizationPercentage', cpuCurrent],
    ]);
  }
  return rebuild(obj, sortedAnnotations(withoutRoundTrip(annotationsIn(obj)), annotations), v1Spec, v1Status);
}

function v2beta1ToHub(obj: JsonObject): JsonObject {
  const annotations = annotationsIn(obj);
  const spec = objectAt(obj, 'spec');
  const status = objectAt(obj, 'status');
  const behaviorText = annotations[BEHAVIOR_ANNOTATION];
  const behavior = behaviorText === undefined ? undefined : decodeBehavior(behaviorText);
  return rebuild(
    obj,
    withoutRoundTrip(annotations),
    spec && hubSpec(spec, arrayAt(spec, 'metrics')?.map(metricSpecToV2), behavior),
    status && hubStatus(status, arrayAt(status, 'currentMetrics')?.map(metricStatusToV2), arrayAt(status, 'conditions')),
  );
}

function v2beta1FromHub(obj: JsonObject): JsonObject {
  const annotations: Record<string, string> = {};
  const spec = objectAt(obj, 'spec');
  const status = objectAt(obj, 'status');
  if (spec && isObject(spec.behavior)) annotations[BEHAVIOR_ANNOTATION] = encodeBehavior(spec.behavior);
  const v2beta1Spec = spec && compact([
    ['scaleTargetRef', spec.scaleTargetRef],
    ['minReplicas', spec.minReplicas],
    ['maxReplicas', spec.maxReplicas],
    ['metrics', arrayAt(spec, 'metrics')?.map(metricSpecFromV2)],
  ]);
  return rebuild(
    obj,
    sortedAnnotations(withoutRoundTrip(annotationsIn(obj)), annotations),
    v2beta1Spec,
    status && hubStatus(status, arrayAt(status, 'currentMetrics')?.map(metricStatusFromV2), arrayAt(status, 'conditions')),
  );
}

export function hpaToHub(obj: JsonObject, version: string): JsonObject {
  if (version === 'v1') return v1ToHub(obj);
  if (version === 'v2beta1') return v2beta1ToHub(obj);
  return withAnnotations(obj, withoutRoundTrip(annotationsIn(obj)));
}

export function hpaFromHub(obj: JsonObject, version: string): JsonObject {
  if (version === 'v1') return v1FromHub(obj);
  if (version === 'v2beta1') return v2beta1FromHub(obj);
  return withAnnotations(obj, withoutRoundTrip(annotationsIn(obj)));
}
