import { describe, expect, it } from 'vitest';
import { MetricError, resourceAverageValueReplicas, resourceUtilizationReplicas, type PodMetric } from './hpa-replicas';
import { ReplicaNormalizer } from './hpa-behavior';

const NOW = Date.UTC(2022, 0, 1, 1);
const started = new Date(NOW - 10 * 60_000).toISOString();

function pod(name: string, opts: { phase?: string; ready?: boolean; readySince?: number; request?: string } = {}) {
  return {
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'c', resources: opts.request === undefined ? { requests: { cpu: '100m' } } : opts.request ? { requests: { cpu: opts.request } } : {} }] },
    status: {
      phase: opts.phase ?? 'Running',
      startTime: started,
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True', lastTransitionTime: new Date(opts.readySince ?? NOW - 9 * 60_000).toISOString() }],
    },
  };
}

const metrics = (values: Record<string, number>) => new Map<string, PodMetric>(Object.entries(values).map(([k, value]) => [k, { value, timestamp: NOW, windowMs: 15_000 }]));

describe('the replica calculator (resource metrics)', () => {
  it('keeps the count within the 0.1 tolerance, and scales by the usage ratio outside it', () => {
    const pods = [pod('a'), pod('b')];
    expect(resourceUtilizationReplicas({ currentReplicas: 2, pods, metrics: metrics({ a: 54, b: 54 }), resource: 'cpu', now: NOW }, 50)).toMatchObject({ replicas: 2, utilization: 54, rawAverage: 54 });
    // 55/50 is 1.1 in floating point, a hair over the tolerance, as in kube's float64 arithmetic.
    expect(resourceUtilizationReplicas({ currentReplicas: 2, pods, metrics: metrics({ a: 55, b: 55 }), resource: 'cpu', now: NOW }, 50).replicas).toBe(3);
    expect(resourceUtilizationReplicas({ currentReplicas: 2, pods, metrics: metrics({ a: 150, b: 150 }), resource: 'cpu', now: NOW }, 50).replicas).toBe(6);
  });

  it('counts a pod without metrics at 100% of its request on a scale-down, and at 0 on a scale-up', () => {
    const pods = [pod('a'), pod('b'), pod('c')];
    // 10% measured; the missing pod at 100% makes it 40%: still down, but no lower than 3 pods' worth.
    expect(resourceUtilizationReplicas({ currentReplicas: 3, pods, metrics: metrics({ a: 10, b: 10 }), resource: 'cpu', now: NOW }, 50).replicas).toBe(3);
    // 200% measured; the missing pod at 0 makes it 133%: ceil(2.66 × 3) = 8.
    expect(resourceUtilizationReplicas({ currentReplicas: 3, pods, metrics: metrics({ a: 200, b: 200 }), resource: 'cpu', now: NOW }, 50).replicas).toBe(8);
  });

  it('ignores pending pods, and counts never-ready ones at 0 on a scale-up (a pod ready before keeps its sample)', () => {
    const pods = [pod('a'), pod('b'), pod('pending', { phase: 'Pending' }), pod('unready', { ready: false, readySince: NOW - 10 * 60_000 + 10_000 })];
    const r = resourceUtilizationReplicas({ currentReplicas: 4, pods, metrics: metrics({ a: 100, b: 100, unready: 100 }), resource: 'cpu', now: NOW }, 50);
    // Never ready since it started: unready. (100 + 100 + 0) / 300 = 66% → 1.33 over 3 pods → 4, the current count.
    expect(r.replicas).toBe(4);
  });

  it('fails with kube’s messages', () => {
    expect(() => resourceUtilizationReplicas({ currentReplicas: 1, pods: [], metrics: metrics({}), resource: 'cpu', now: NOW }, 50)).toThrow(new MetricError('no pods returned by selector while calculating replica count'));
    expect(() => resourceUtilizationReplicas({ currentReplicas: 1, pods: [pod('a', { request: '' })], metrics: metrics({ a: 10 }), resource: 'cpu', now: NOW }, 50)).toThrow('missing request for cpu');
    expect(() => resourceUtilizationReplicas({ currentReplicas: 1, pods: [pod('a', { phase: 'Pending' })], metrics: metrics({ a: 10 }), resource: 'cpu', now: NOW }, 50)).toThrow('did not receive metrics for any ready pods');
  });

  it('an average-value target fills a missing pod with the target on a scale-down and 0 on a scale-up', () => {
    const pods = [pod('a'), pod('b')];
    // Up: the missing pod counts 0, (300 + 0) / 2 = 150 → ceil(1.5 × 2) = 3.
    expect(resourceAverageValueReplicas({ currentReplicas: 2, pods, metrics: metrics({ a: 300 }), resource: 'cpu', now: NOW }, 100).replicas).toBe(3);
    expect(resourceAverageValueReplicas({ currentReplicas: 2, pods, metrics: metrics({ a: 20 }), resource: 'cpu', now: NOW }, 100).replicas).toBe(2);
  });
});

describe('the replica normalizer', () => {
  const hpa = (behavior?: object) => ({ spec: { maxReplicas: 10, ...(behavior ? { behavior } : {}) } });

  it('without behavior: the highest recommendation of the last 5 minutes wins on the way down', () => {
    const n = new ReplicaNormalizer();
    n.recordInitial('k', 6, 0);
    expect(n.normalize(hpa(), 'k', 6, 2, 1, 15_000).replicas).toBe(6);
    expect(n.normalize(hpa(), 'k', 6, 2, 1, 300_001).replicas).toBe(2);
  });

  it('with behavior: a Percent scale-down policy and no stabilization halves per period', () => {
    const n = new ReplicaNormalizer();
    const h = hpa({ scaleDown: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 50, periodSeconds: 60 }] } });
    n.recordInitial('k', 8, 0);
    const first = n.normalize(h, 'k', 8, 1, 1, 1000);
    expect(first.replicas).toBe(4);
    expect(first.conditions[1]).toEqual({ type: 'ScalingLimited', status: 'True', reason: 'ScaleDownLimit', message: 'the desired replica count is decreasing faster than the maximum scale rate' });
    n.recordScale(h, 'k', 8, 4, 1000);
    // Within the same period the limit counts from the 8 it started with.
    expect(n.normalize(h, 'k', 4, 1, 1, 30_000).replicas).toBe(4);
    expect(n.normalize(h, 'k', 4, 1, 1, 61_001).replicas).toBe(2);
  });

  it('selectPolicy Disabled never scales that way', () => {
    const n = new ReplicaNormalizer();
    const h = hpa({ scaleUp: { selectPolicy: 'Disabled' } });
    n.recordInitial('k', 2, 0);
    expect(n.normalize(h, 'k', 2, 6, 1, 15_000).replicas).toBe(2);
  });
});
