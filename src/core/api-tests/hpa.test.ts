// HorizontalPodAutoscaler defaults and validation through every served version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startTestServer, uniqueName, type TestClient } from '../testing/api-server';

let c: TestClient;
const url = (version: string) => `/apis/autoscaling/${version}/namespaces/default/horizontalpodautoscalers`;
const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

describe('HorizontalPodAutoscaler', () => {
  it('v1: minReplicas defaults to 1', async () => {
    const r = await c.post(url('v1'), { metadata: { name: uniqueName('h') }, spec: { scaleTargetRef: target, maxReplicas: 3 } });
    expect(r.status).toBe(201);
    expect(r.json.spec).toEqual({ scaleTargetRef: target, minReplicas: 1, maxReplicas: 3 });
  });

  it('v2: minReplicas 1, a CPU metric at 80% when none is given, and the unset parts of a behavior', async () => {
    const r = await c.post(url('v2'), { metadata: { name: uniqueName('h') }, spec: { scaleTargetRef: target, maxReplicas: 3, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } } });
    expect(r.status).toBe(201);
    expect(r.json.spec.minReplicas).toBe(1);
    expect(r.json.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
    expect(r.json.spec.behavior).toEqual({
      scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
    });
  });

  it('replica bounds and the target reference are validated', async () => {
    const name = uniqueName('h');
    const r = await c.post(url('v2'), { metadata: { name }, spec: { scaleTargetRef: { kind: 'Deployment' }, minReplicas: 0, maxReplicas: 0 } });
    expect(failure(r)).toEqual({
      code: 422,
      reason: 'Invalid',
      message: `HorizontalPodAutoscaler.autoscaling "${name}" is invalid: [spec.minReplicas: Invalid value: 0: must be greater than or equal to 1, spec.maxReplicas: Invalid value: 0: must be greater than 0, spec.scaleTargetRef.name: Required value]`,
    });
    const inverted = await c.post(url('v1'), { metadata: { name }, spec: { scaleTargetRef: target, minReplicas: 5, maxReplicas: 2 } });
    expect(failure(inverted).message).toBe(`HorizontalPodAutoscaler.autoscaling "${name}" is invalid: spec.maxReplicas: Invalid value: 2: must be greater than or equal to \`minReplicas\``);
  });
});
