// How the HPA turns a metric's proposal into the replica count it writes (kube-controller-manager
// v1.23, horizontal.go): stabilization over recent recommendations, then rate limits. Without
// spec.behavior: the highest recommendation of the last 5 minutes on the way down, and at most
// max(2 × current, 4) on the way up. With spec.behavior: its stabilization windows (scale-down's
// unset window is the same 5 minutes) and its scaling policies against the scale events of each
// policy's period. Recommendations and scale events live in the controller's memory, as kube's.
import type { Obj } from '../registry/objects';

/** --horizontal-pod-autoscaler-downscale-stabilization (default 5m). */
export const DOWNSCALE_STABILIZATION_MS = 5 * 60_000;

interface Recommendation {
  replicas: number;
  at: number;
}

interface ScaleEvent {
  change: number;
  at: number;
}

export interface ConditionUpdate {
  type: 'AbleToScale' | 'ScalingLimited';
  status: 'True' | 'False';
  reason: string;
  message: string;
}

export interface Normalized {
  replicas: number;
  conditions: ConditionUpdate[];
}

interface Rules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: string;
  policies?: { type: string; value: number; periodSeconds: number }[];
}

/** The API server's defaults for a behavior that is given (SetDefaults_HorizontalPodAutoscalerBehavior), in case a part is still unset. */
function scaleUpRules(r: Rules | undefined): Required<Rules> {
  return {
    stabilizationWindowSeconds: r?.stabilizationWindowSeconds ?? 0,
    selectPolicy: r?.selectPolicy ?? 'Max',
    policies: r?.policies ?? [
      { type: 'Pods', value: 4, periodSeconds: 15 },
      { type: 'Percent', value: 100, periodSeconds: 15 },
    ],
  };
}

function scaleDownRules(r: Rules | undefined): Required<Rules> {
  return {
    // maybeInitScaleDownStabilizationWindow: unset means the controller's 5 minutes.
    stabilizationWindowSeconds: r?.stabilizationWindowSeconds ?? DOWNSCALE_STABILIZATION_MS / 1000,
    selectPolicy: r?.selectPolicy ?? 'Max',
    policies: r?.policies ?? [{ type: 'Percent', value: 100, periodSeconds: 15 }],
  };
}

const WITHIN_RANGE: [string, string] = ['DesiredWithinRange', 'the desired count is within the acceptable range'];

export class ReplicaNormalizer {
  private readonly recommendations = new Map<string, Recommendation[]>();
  private readonly scaleUpEvents = new Map<string, ScaleEvent[]>();
  private readonly scaleDownEvents = new Map<string, ScaleEvent[]>();

  /** recordInitialRecommendation: the current count is the first recommendation. */
  recordInitial(key: string, current: number, now: number): void {
    if (!this.recommendations.has(key)) this.recommendations.set(key, [{ replicas: current, at: now }]);
  }

  forget(key: string): void {
    this.recommendations.delete(key);
    this.scaleUpEvents.delete(key);
    this.scaleDownEvents.delete(key);
  }

  normalize(hpa: Obj, key: string, current: number, desired: number, minReplicas: number, now: number): Normalized {
    const behavior = hpa.spec?.behavior as Obj | undefined;
    return behavior ? this.withBehaviors(behavior, key, current, desired, minReplicas, Number(hpa.spec.maxReplicas), now) : this.withoutBehaviors(key, current, desired, minReplicas, Number(hpa.spec.maxReplicas), now);
  }

  /** normalizeDesiredReplicas. */
  private withoutBehaviors(key: string, current: number, desired: number, min: number, max: number, now: number): Normalized {
    const stabilized = this.stabilize(key, desired, now);
    const conditions: ConditionUpdate[] = [
      stabilized !== desired
        ? { type: 'AbleToScale', status: 'True', reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' }
        : { type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', message: 'recommended size matches current size' },
    ];
    // convertDesiredReplicasWithRules: no more than doubling (at least 4) per step.
    const scaleUpLimit = Math.max(2 * current, 4);
    let [reason, message] = max > scaleUpLimit ? ['ScaleUpLimit', 'the desired replica count is increasing faster than the maximum scale rate'] : ['TooManyReplicas', 'the desired replica count is more than the maximum replica count'];
    const maximum = Math.min(max, scaleUpLimit);
    let replicas = stabilized;
    if (stabilized < min) {
      [reason, message] = ['TooFewReplicas', 'the desired replica count is less than the minimum replica count'];
      replicas = min;
    } else if (stabilized > maximum) replicas = maximum;
    else [reason, message] = WITHIN_RANGE;
    conditions.push({ type: 'ScalingLimited', status: replicas === stabilized ? 'False' : 'True', reason, message });
    return { replicas, conditions };
  }

  /** stabilizeRecommendation: the highest recommendation within the window; the oldest outside it is replaced. */
  private stabilize(key: string, desired: number, now: number): number {
    const recs = this.recommendations.get(key) ?? [];
    const cutoff = now - DOWNSCALE_STABILIZATION_MS;
    let max = desired;
    let oldIndex = -1;
    recs.forEach((r, i) => {
      if (r.at < cutoff) oldIndex = i;
      else if (r.replicas > max) max = r.replicas;
    });
    if (oldIndex >= 0) recs[oldIndex] = { replicas: desired, at: now };
    else recs.push({ replicas: desired, at: now });
    this.recommendations.set(key, recs);
    return max;
  }

  /** normalizeDesiredReplicasWithBehaviors. */
  private withBehaviors(behavior: Obj, key: string, current: number, desired: number, min: number, max: number, now: number): Normalized {
    const up = scaleUpRules(behavior.scaleUp);
    const down = scaleDownRules(behavior.scaleDown);
    const stabilized = this.stabilizeWithBehaviors(key, current, desired, up, down, now);
    const conditions: ConditionUpdate[] = [];
    if (stabilized !== desired) {
      conditions.push(
        desired >= current
          ? { type: 'AbleToScale', status: 'True', reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' }
          : { type: 'AbleToScale', status: 'True', reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' },
      );
    } else {
      conditions.push({ type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', message: 'recommended size matches current size' });
    }
    const [replicas, reason, message] = this.limitRate(key, current, stabilized, min, max, up, down, now);
    conditions.push({ type: 'ScalingLimited', status: replicas === stabilized ? 'False' : 'True', reason, message });
    return { replicas, conditions };
  }

  private stabilizeWithBehaviors(key: string, current: number, desired: number, up: Required<Rules>, down: Required<Rules>, now: number): number {
    const recs = this.recommendations.get(key) ?? [];
    const upCutoff = now - up.stabilizationWindowSeconds * 1000;
    const downCutoff = now - down.stabilizationWindowSeconds * 1000;
    let upRecommendation = desired;
    let downRecommendation = desired;
    let oldIndex = -1;
    recs.forEach((r, i) => {
      if (r.at > upCutoff) upRecommendation = Math.min(r.replicas, upRecommendation);
      if (r.at > downCutoff) downRecommendation = Math.max(r.replicas, downRecommendation);
      if (r.at < upCutoff && r.at < downCutoff) oldIndex = i;
    });
    let recommendation = current;
    if (recommendation < upRecommendation) recommendation = upRecommendation;
    if (recommendation > downRecommendation) recommendation = downRecommendation;
    if (oldIndex >= 0) recs[oldIndex] = { replicas: desired, at: now };
    else recs.push({ replicas: desired, at: now });
    this.recommendations.set(key, recs);
    return recommendation;
  }

  /** convertDesiredReplicasWithBehaviorRate. */
  private limitRate(key: string, current: number, desired: number, min: number, max: number, up: Required<Rules>, down: Required<Rules>, now: number): [number, string, string] {
    if (desired > current) {
      const limit = Math.max(scaleUpLimit(current, this.scaleUpEvents.get(key) ?? [], up, now), current);
      const [maximum, reason, message] = max > limit ? [limit, 'ScaleUpLimit', 'the desired replica count is increasing faster than the maximum scale rate'] : [max, 'TooManyReplicas', 'the desired replica count is more than the maximum replica count'];
      if (desired > maximum) return [maximum, reason, message];
    } else if (desired < current) {
      const limit = Math.min(scaleDownLimit(current, this.scaleDownEvents.get(key) ?? [], down, now), current);
      const [minimum, reason, message] = min < limit ? [limit, 'ScaleDownLimit', 'the desired replica count is decreasing faster than the maximum scale rate'] : [min, 'TooFewReplicas', 'the desired replica count is less than the minimum replica count'];
      if (desired < minimum) return [minimum, reason, message];
    }
    return [desired, ...WITHIN_RANGE];
  }

  /** storeScaleEvent: only with a behavior; events older than the longest policy period are dropped. */
  recordScale(hpa: Obj, key: string, previous: number, next: number, now: number): void {
    const behavior = hpa.spec?.behavior as Obj | undefined;
    if (!behavior) return;
    const rising = next > previous;
    const rules = rising ? scaleUpRules(behavior.scaleUp) : scaleDownRules(behavior.scaleDown);
    const longest = Math.max(0, ...rules.policies.map((p) => p.periodSeconds)) * 1000;
    const store = rising ? this.scaleUpEvents : this.scaleDownEvents;
    const kept = (store.get(key) ?? []).filter((e) => e.at > now - longest);
    kept.push({ change: Math.abs(next - previous), at: now });
    store.set(key, kept);
  }
}

/** getReplicasChangePerPeriod. */
function changeInPeriod(periodSeconds: number, events: readonly ScaleEvent[], now: number): number {
  const cutoff = now - periodSeconds * 1000;
  return events.filter((e) => e.at > cutoff).reduce((sum, e) => sum + e.change, 0);
}

/** calculateScaleUpLimitWithScalingRules: Max picks the largest allowed count, Min the smallest, Disabled none. */
function scaleUpLimit(current: number, events: readonly ScaleEvent[], rules: Required<Rules>, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const pick = rules.selectPolicy === 'Min' ? Math.min : Math.max;
  let result = rules.selectPolicy === 'Min' ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
  for (const p of rules.policies) {
    const start = current - changeInPeriod(p.periodSeconds, events, now);
    const proposed = p.type === 'Pods' ? start + p.value : Math.ceil(start * (1 + p.value / 100));
    result = pick(result, proposed);
  }
  return result;
}

/** calculateScaleDownLimitWithBehaviors. */
function scaleDownLimit(current: number, events: readonly ScaleEvent[], rules: Required<Rules>, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const pick = rules.selectPolicy === 'Min' ? Math.max : Math.min;
  let result = rules.selectPolicy === 'Min' ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER;
  for (const p of rules.policies) {
    const start = current + changeInPeriod(p.periodSeconds, events, now);
    const proposed = p.type === 'Pods' ? start - p.value : Math.trunc(start * (1 - p.value / 100));
    result = pick(result, proposed);
  }
  return result;
}
