import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, deployment, type ClusterTest } from '../testing/controllers';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const D = '/apis/apps/v1/namespaces/default/deployments';
const H2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const H1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';

function web(replicas: number, cpuUsage: string, request = '100m') {
  const d = deployment('web', replicas) as any;
  d.spec.template.metadata.annotations = { 'kube-playground.dev/cpu-usage': cpuUsage };
  d.spec.template.spec.containers[0].resources = { requests: { cpu: request } };
  return d;
}

const hpa = (spec: object = {}) => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web' },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }], ...spec },
});

const replicas = async () => (await t!.get(`${D}/web`)).json.spec.replicas;
const status = async () => (await t!.get(`${H2}/web`)).json.status;
const conditions = async () => (await status()).conditions.map((c: any) => [c.type, c.status, c.reason, c.message]);
const events = async (reason: string) => ((await t!.get('/api/v1/namespaces/default/events')).json.items as any[]).filter((e) => e.reason === reason).map((e) => e.message);

describe('horizontalpodautoscaling controller', () => {
  it('scales a Deployment up from CPU utilization, limited to max(2×, 4) per step, through the scale subresource', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post(D, web(2, '200m'));
    await t.settle();
    await t.post(H2, hpa());
    await t.settle();
    // Nothing before the first resync period has passed.
    expect((await t.get(`${H2}/web`)).json.status).toEqual({ desiredReplicas: 0 });
    await t.advance(15_000);
    expect(await replicas()).toBe(4);
    const s = await status();
    expect(s).toMatchObject({ currentReplicas: 2, desiredReplicas: 4, lastScaleTime: '2022-01-01T00:00:15Z' });
    expect(s.currentMetrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '200m', averageUtilization: 200 } } }]);
    expect(await conditions()).toEqual([
      ['AbleToScale', 'True', 'SucceededRescale', 'the HPA controller was able to update the target scale to 4'],
      ['ScalingActive', 'True', 'ValidMetricFound', 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)'],
      ['ScalingLimited', 'True', 'ScaleUpLimit', 'the desired replica count is increasing faster than the maximum scale rate'],
    ]);
    expect(await events('SuccessfulRescale')).toEqual(['New size: 4; reason: cpu resource utilization (percentage of request) above target']);
    // Next period: 4 pods at 200% want 16, capped by maxReplicas.
    await t.advance(15_000);
    expect(await replicas()).toBe(5);
    expect((await conditions())[2]).toEqual(['ScalingLimited', 'True', 'TooManyReplicas', 'the desired replica count is more than the maximum replica count']);
  });

  it('records the managedFields of v1.23: spec.replicas by kube-controller-manager through scale, status as autoscaling/v1 with the annotations', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.patch(`${D}/web?fieldManager=kubectl&force=true`, web(2, '200m'), 'application/apply-patch+yaml');
    await t.post(`${H2}?fieldManager=kubectl-autoscale`, hpa());
    await t.advance(15_000);
    const d = (await t.get(`${D}/web`)).json;
    const scaleEntry = d.metadata.managedFields.find((m: any) => m.subresource === 'scale');
    expect(scaleEntry).toMatchObject({ manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'apps/v1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
    const applied = d.metadata.managedFields.find((m: any) => m.manager === 'kubectl');
    expect(applied.fieldsV1['f:spec']['f:replicas']).toBeUndefined();
    // A later server-side apply of replicas conflicts with the HPA's write.
    const conflict = await t.patch(`${D}/web?fieldManager=kubectl`, web(2, '200m'), 'application/apply-patch+yaml');
    expect(conflict.status).toBe(409);
    expect(conflict.json.message).toBe('Apply failed with 1 conflict: conflict with "kube-controller-manager" with subresource "scale" using apps/v1: .spec.replicas');
    const h = (await t.get(`${H1}/web`)).json;
    const statusEntry = h.metadata.managedFields.find((m: any) => m.manager === 'kube-controller-manager');
    expect(statusEntry).toMatchObject({ operation: 'Update', apiVersion: 'autoscaling/v1', subresource: 'status' });
    expect(statusEntry.fieldsV1).toEqual({
      'f:metadata': { 'f:annotations': { '.': {}, 'f:autoscaling.alpha.kubernetes.io/conditions': {}, 'f:autoscaling.alpha.kubernetes.io/current-metrics': {} } },
      'f:status': { 'f:currentCPUUtilizationPercentage': {}, 'f:currentReplicas': {}, 'f:desiredReplicas': {}, 'f:lastScaleTime': {} },
    });
    expect(h.status).toMatchObject({ currentReplicas: 2, desiredReplicas: 4, currentCPUUtilizationPercentage: 200 });
  });

  it('scales down only after the 5-minute stabilization window, and stays within the tolerance', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post(D, web(4, '52m'));
    await t.post(H2, hpa());
    await t.advance(15_000);
    // 52% against 50%: within the 0.1 tolerance.
    expect(await replicas()).toBe(4);
    expect((await conditions())[0]).toEqual(['AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size']);
    const pods = (await t.get('/api/v1/namespaces/default/pods')).json.items as any[];
    for (const p of pods) await t.patch(`/api/v1/namespaces/default/pods/${p.metadata.name}`, { metadata: { annotations: { 'kube-playground.dev/cpu-usage': '10m' } } }, 'application/merge-patch+json');
    await t.advance(15_000);
    expect(await replicas()).toBe(4);
    expect((await conditions())[0]).toEqual(['AbleToScale', 'True', 'ScaleDownStabilized', 'recent recommendations were higher than current one, applying the highest recent recommendation']);
    await t.advance(300_000);
    expect(await replicas()).toBe(1);
    expect(await events('SuccessfulRescale')).toEqual(['New size: 1; reason: All metrics below target']);
  });

  it('honours behavior: a Pods policy limits each scale-up period', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post(D, web(1, '500m'));
    await t.post(H2, hpa({ maxReplicas: 10, behavior: { scaleUp: { policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } } }));
    await t.advance(15_000);
    expect(await replicas()).toBe(2);
    expect((await conditions())[2]).toEqual(['ScalingLimited', 'True', 'ScaleUpLimit', 'the desired replica count is increasing faster than the maximum scale rate']);
    await t.advance(15_000);
    // Still within the 60 s period of the first step.
    expect(await replicas()).toBe(2);
    await t.advance(45_000);
    expect(await replicas()).toBe(3);
  });

  it('scales on memory AverageValue, reporting the average in milli-precision DecimalSI as kube', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    const d = web(1, '10m') as any;
    d.spec.template.metadata.annotations['kube-playground.dev/memory-usage'] = '100Mi';
    await t.post(D, d);
    await t.post(H2, hpa({ metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '50Mi' } } }] }));
    await t.advance(15_000);
    expect(await replicas()).toBe(2);
    expect((await status()).currentMetrics).toEqual([{ type: 'Resource', resource: { name: 'memory', current: { averageValue: '104857600' } } }]);
    expect(await events('SuccessfulRescale')).toEqual(['New size: 2; reason: memory resource above target']);
  });

  it('says why it cannot scale: a missing request, a missing target', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    const d = web(1, '100m');
    delete d.spec.template.spec.containers[0].resources;
    await t.post(D, d);
    await t.post(H2, hpa());
    await t.advance(15_000);
    expect((await conditions())[1]).toEqual(['ScalingActive', 'False', 'FailedGetResourceMetric', 'the HPA was unable to compute the replica count: failed to get cpu utilization: missing request for cpu']);
    expect(await events('FailedGetResourceMetric')).toEqual(['failed to get cpu utilization: missing request for cpu']);
    expect(await events('FailedComputeMetricsReplicas')).toEqual(['invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: missing request for cpu']);
    await t.del(`${D}/web`);
    await t.advance(15_000);
    expect((await conditions())[0]).toEqual(['AbleToScale', 'False', 'FailedGetScale', 'the HPA controller was unable to get the target\'s current scale: deployments.apps "web" not found']);
  });

  it('with RBAC on, acts as system:serviceaccount:kube-system:horizontal-pod-autoscaler, authorized by its bootstrap role', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 }, { authorization: 'RBAC' });
    await t.post(D, web(2, '200m'));
    await t.post(H2, hpa());
    await t.advance(15_000);
    expect(await replicas()).toBe(4);
    expect(t.api.audit!.events().filter((e) => e.responseStatus?.code === 403)).toEqual([]);
    const users = new Set(t.api.audit!.events().filter((e) => e.objectRef?.subresource === 'scale' && e.verb === 'update').map((e) => e.user.username));
    expect(users).toEqual(new Set(['system:serviceaccount:kube-system:horizontal-pod-autoscaler']));
  });
});
