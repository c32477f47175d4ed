import { describe, expect, it } from 'vitest';
import { BEHAVIOR_ANNOTATION, CONDITIONS_ANNOTATION, METRIC_SPECS_ANNOTATION, METRIC_STATUSES_ANNOTATION, decodeBehavior, encodeBehavior } from './hpa';
import { convert } from './index';
import { roundTrip } from './roundtrip.test-helper';

const ref = { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' };
const selector = { matchLabels: { q: 'a' } };
const behavior = {
  scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }] },
  scaleDown: { stabilizationWindowSeconds: 300, selectPolicy: 'Min', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
};
const conditions = [{ type: 'AbleToScale', status: 'True', lastTransitionTime: '2021-01-01T00:00:00Z', reason: 'SucceededRescale', message: 'ok' }];

/** A fully populated v2 (== v2beta2) HPA; the cpu utilization metric comes last because v1 re-appends it there. */
const v2 = (apiVersion: string) => ({
  apiVersion,
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'default', annotations: { team: 'a' } },
  spec: {
    scaleTargetRef: ref,
    minReplicas: 2,
    maxReplicas: 10,
    metrics: [
      { type: 'Pods', pods: { metric: { name: 'qps', selector }, target: { type: 'AverageValue', averageValue: '10' } } },
      { type: 'Object', object: { describedObject: ref, target: { type: 'Value', value: '5' }, metric: { name: 'hits' } } },
      { type: 'External', external: { metric: { name: 'queue', selector }, target: { type: 'AverageValue', averageValue: '3' } } },
      { type: 'ContainerResource', containerResource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' }, container: 'app' } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
    ],
    behavior,
  },
  status: {
    observedGeneration: 4,
    lastScaleTime: '2021-01-01T00:00:00Z',
    currentReplicas: 3,
    desiredReplicas: 4,
    currentMetrics: [
      { type: 'Pods', pods: { metric: { name: 'qps' }, current: { averageValue: '12' } } },
      { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '200m', averageUtilization: 40 } } },
    ],
    conditions,
  },
});

type Hpa = ReturnType<typeof v2>;

describe('HorizontalPodAutoscaler autoscaling v1 <-> v2 / v2beta2 / v2beta1', () => {
  it('round-trips a fully populated object through v1 storage for every pair', () => {
    for (const from of ['autoscaling/v2', 'autoscaling/v2beta2', 'autoscaling/v2beta1']) {
      const start = convert(v2('autoscaling/v2'), 'autoscaling/v2', from);
      for (const via of ['autoscaling/v1', 'autoscaling/v2', 'autoscaling/v2beta2', 'autoscaling/v2beta1']) {
        expect(roundTrip(start, from, 'autoscaling/v1', via), `${from} via ${via}`).toEqual(start);
      }
    }
    const v1 = convert(v2('autoscaling/v2'), 'autoscaling/v2', 'autoscaling/v1');
    expect(roundTrip(v1, 'autoscaling/v1', 'autoscaling/v1', 'autoscaling/v2beta1')).toEqual(v1);
  });

  it('writes v1 with targetCPUUtilizationPercentage and the rest in annotations', () => {
    const v1 = convert(v2('autoscaling/v2'), 'autoscaling/v2', 'autoscaling/v1') as Hpa & { spec: Record<string, unknown>; status: Record<string, unknown> };
    expect(v1.spec).toEqual({ scaleTargetRef: ref, minReplicas: 2, maxReplicas: 10, targetCPUUtilizationPercentage: 50 });
    expect(v1.status).toEqual({ observedGeneration: 4, lastScaleTime: '2021-01-01T00:00:00Z', currentReplicas: 3, desiredReplicas: 4, currentCPUUtilizationPercentage: 40 });
    const annotations = v1.metadata.annotations as Record<string, string>;
    expect(Object.keys(annotations)).toEqual([BEHAVIOR_ANNOTATION, CONDITIONS_ANNOTATION, METRIC_STATUSES_ANNOTATION, METRIC_SPECS_ANNOTATION, 'team']);
    expect(annotations[METRIC_SPECS_ANNOTATION]).toBe(
      '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10","selector":{"matchLabels":{"q":"a"}}}},' +
        '{"type":"Object","object":{"target":{"kind":"Deployment","name":"web","apiVersion":"apps/v1"},"metricName":"hits","targetValue":"5"}},' +
        '{"type":"External","external":{"metricName":"queue","metricSelector":{"matchLabels":{"q":"a"}},"targetAverageValue":"3"}},' +
        '{"type":"ContainerResource","containerResource":{"name":"memory","targetAverageValue":"100Mi","container":"app"}}]',
    );
    expect(annotations[METRIC_STATUSES_ANNOTATION]).toBe(
      '[{"type":"Pods","pods":{"metricName":"qps","currentAverageValue":"12"}},' +
        '{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":40,"currentAverageValue":"200m"}}]',
    );
    expect(annotations[CONDITIONS_ANNOTATION]).toBe(JSON.stringify(conditions));
    expect(annotations[BEHAVIOR_ANNOTATION]).toBe(
      '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15}]},' +
        '"ScaleDown":{"StabilizationWindowSeconds":300,"SelectPolicy":"Min","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}]}}',
    );
  });

  it('reads a plain v1 object as a cpu utilization metric, defaulting to 80%', () => {
    const plain = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'w' }, spec: { scaleTargetRef: ref, maxReplicas: 3, targetCPUUtilizationPercentage: 60 }, status: { currentReplicas: 1, desiredReplicas: 1, currentCPUUtilizationPercentage: 30 } };
    const out = convert(plain, 'autoscaling/v1', 'autoscaling/v2') as Hpa;
    expect(out.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }]);
    expect(out.status.currentMetrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 30 } } }]);
    expect(out.metadata).toEqual({ name: 'w' });
    const noTarget = { ...plain, spec: { scaleTargetRef: ref, maxReplicas: 3 } };
    expect((convert(noTarget, 'autoscaling/v1', 'autoscaling/v2') as Hpa).spec.metrics[0]).toEqual({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } });
  });

  it('converts v2beta1 metric shapes and keeps behavior in the annotation', () => {
    const beta1 = convert(v2('autoscaling/v2'), 'autoscaling/v2', 'autoscaling/v2beta1') as Hpa & { spec: { metrics: unknown[] } };
    expect(beta1.spec.metrics[4]).toEqual({ type: 'Resource', resource: { name: 'cpu', targetAverageUtilization: 50 } });
    expect(beta1.status.currentMetrics[1]).toEqual({ type: 'Resource', resource: { name: 'cpu', currentAverageUtilization: 40, currentAverageValue: '200m' } });
    expect('behavior' in beta1.spec).toBe(false);
    expect(Object.keys(beta1.metadata.annotations)).toEqual([BEHAVIOR_ANNOTATION, 'team']);
  });

  it('drops stale round-trip annotations when reading v2 / v2beta2', () => {
    const stale = v2('autoscaling/v2beta2');
    (stale.metadata.annotations as Record<string, string>)[METRIC_SPECS_ANNOTATION] = '[]';
    expect((convert(stale, 'autoscaling/v2beta2', 'autoscaling/v2') as Hpa).metadata.annotations).toEqual({ team: 'a' });
  });

  it('encodes behavior with Go field names and ignores malformed annotations', () => {
    expect(decodeBehavior(encodeBehavior(behavior))).toEqual(behavior);
    expect(encodeBehavior({ scaleUp: { policies: [] } })).toBe('{"ScaleUp":{"StabilizationWindowSeconds":null,"SelectPolicy":null,"Policies":[]},"ScaleDown":null}');
    expect(decodeBehavior('not json')).toBeUndefined();
    expect(decodeBehavior('{"ScaleUp":null,"ScaleDown":null}')).toBeUndefined();
  });
});
