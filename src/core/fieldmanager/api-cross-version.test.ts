// Server-side apply through different versions of one object, end to end: managedFields keep
// each write's apiVersion, and ownership is compared at the owner's version, so applies through
// batch/v1beta1 and batch/v1 (CronJob), autoscaling/v1 and v2 (HPA, whose CPU target moves
// from spec.targetCPUUtilizationPercentage to spec.metrics) and a CRD's v1 and v2 conflict as
// they do on kube-apiserver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestServer, statusOf, type Reply, type TestClient } from '../testing/api-server';

const APPLY = 'application/apply-patch+yaml';
let c: TestClient;

beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

function apply(url: string, body: unknown, manager: string, extra = ''): Promise<Reply> {
  return c.patch(`${url}?fieldManager=${manager}${extra}`, JSON.stringify(body), APPLY);
}

const entries = (obj: any) => (obj.metadata.managedFields ?? []).map((e: any) => [e.manager, e.operation, e.apiVersion]);

describe('CronJob: batch/v1beta1 and batch/v1', () => {
  const cronJob = (apiVersion: string, schedule: string) => ({
    apiVersion,
    kind: 'CronJob',
    metadata: { name: 'tick' },
    spec: { schedule, jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } } } } },
  });
  const url = (v: string) => `/apis/batch/${v}/namespaces/default/cronjobs/tick`;

  it('an apply through v1 of a field applied through v1beta1 conflicts with the v1beta1 applier', async () => {
    expect((await apply(url('v1beta1'), cronJob('batch/v1beta1', '*/5 * * * *'), 'alice')).status).toBe(201);
    const r = await apply(url('v1'), cronJob('batch/v1', '*/10 * * * *'), 'bob');
    expect(r.status).toBe(409);
    expect(statusOf(r).message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.schedule');
  });

  it('managedFields record the apiVersion of each write', async () => {
    const forced = await apply(url('v1'), cronJob('batch/v1', '*/10 * * * *'), 'bob', '&force=true');
    expect(forced.status).toBe(200);
    expect(entries(forced.json)).toEqual([
      ['alice', 'Apply', 'batch/v1beta1'],
      ['bob', 'Apply', 'batch/v1'],
    ]);
    const patched = await c.patch(`${url('v1beta1')}?fieldManager=kubectl-edit`, { spec: { suspend: true } });
    expect(entries(patched.json)).toContainEqual(['kubectl-edit', 'Update', 'batch/v1beta1']);
  });
});

describe('HorizontalPodAutoscaler: autoscaling/v1 and v2', () => {
  const url = (v: string, name: string) => `/apis/autoscaling/${v}/namespaces/default/horizontalpodautoscalers/${name}`;
  const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
  const v1 = (name: string, cpu: number) => ({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name }, spec: { scaleTargetRef: target, maxReplicas: 5, targetCPUUtilizationPercentage: cpu } });
  const v2 = (name: string, cpu: number) => ({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name },
    spec: { scaleTargetRef: target, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: cpu } } }] },
  });

  it('a v2 apply changing the CPU target conflicts with the v1 applier on its v1 field', async () => {
    expect((await apply(url('v1', 'h1'), v1('h1', 50), 'alice')).status).toBe(201);
    const r = await apply(url('v2', 'h1'), v2('h1', 70), 'bob');
    expect(r.status).toBe(409);
    expect(statusOf(r).message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.targetCPUUtilizationPercentage');
    expect(statusOf(r).details.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.targetCPUUtilizationPercentage' }]);
  });

  it('the same CPU target through v2 is shared, not a conflict', async () => {
    const r = await apply(url('v2', 'h1'), v2('h1', 50), 'carol');
    expect(r.status).toBe(200);
  });

  it('force takes the field: the v1 applier loses it, seen at its own version', async () => {
    const r = await apply(url('v2', 'h1'), v2('h1', 70), 'bob', '&force=true');
    expect(r.status).toBe(200);
    const alice = r.json.metadata.managedFields.find((e: any) => e.manager === 'alice');
    expect(alice.apiVersion).toBe('autoscaling/v1');
    expect(Object.keys(alice.fieldsV1['f:spec'])).toEqual(['f:maxReplicas', 'f:scaleTargetRef']);
    expect((await c.get(url('v1', 'h1'))).json.spec.targetCPUUtilizationPercentage).toBe(70);
  });

  it('a v1 apply changing the target conflicts with the v2 applier on spec.metrics', async () => {
    const r = await apply(url('v1', 'h1'), v1('h1', 90), 'alice');
    expect(r.status).toBe(409);
    expect(statusOf(r).message).toBe('Apply failed with 1 conflict: conflict with "bob": .spec.metrics');
  });

  it('a v2 merge patch (Update) takes the v1 applier\'s field away', async () => {
    expect((await apply(url('v1', 'h2'), v1('h2', 50), 'alice')).status).toBe(201);
    const patched = await c.patch(`${url('v2', 'h2')}?fieldManager=editor`, { spec: { metrics: v2('h2', 60).spec.metrics } });
    expect(patched.status).toBe(200);
    const alice = patched.json.metadata.managedFields.find((e: any) => e.manager === 'alice');
    expect(Object.keys(alice.fieldsV1['f:spec'])).not.toContain('f:targetCPUUtilizationPercentage');
    expect(Object.keys(alice.fieldsV1['f:spec'])).toContain('f:maxReplicas');
  });
});

describe('CRD served at v1 and v2', () => {
  const group = 'xv.example.com';
  const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' } } } } } };
  const url = (v: string) => `/apis/${group}/${v}/namespaces/default/paints/p`;
  const paint = (v: string, color: string) => ({ apiVersion: `${group}/${v}`, kind: 'Paint', metadata: { name: 'p' }, spec: { color } });

  beforeAll(async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `paints.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'paints', singular: 'paint', kind: 'Paint' },
        versions: [
          { name: 'v1', served: true, storage: true, schema },
          { name: 'v2', served: true, storage: false, schema },
        ],
      },
    };
    expect((await c.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
    await eventually(async () => ((await c.get(`/apis/${group}/v2/namespaces/default/paints`)).status === 200 ? true : undefined));
  });

  it('an apply through v2 of a field applied through v1 conflicts, naming the v1 applier', async () => {
    expect((await apply(url('v1'), paint('v1', 'red'), 'alice')).status).toBe(201);
    const r = await apply(url('v2'), paint('v2', 'blue'), 'bob');
    expect(r.status).toBe(409);
    expect(statusOf(r).message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.color');
    const forced = await apply(url('v2'), paint('v2', 'blue'), 'bob', '&force=true');
    expect(entries(forced.json)).toEqual([['bob', 'Apply', `${group}/v2`]]);
  });
});
