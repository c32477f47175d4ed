// One object, every served version: objects written through one version are read, listed,
// watched, patched and deleted through the others, converted by the API.
import { specFor } from '../kinds';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient } from '../testing/api-server';
import { startWatch } from '../testing/watch';
import { Catalog } from './catalog';
import { builtinResources } from '../schema';

let c: TestClient;
beforeEach(async () => {
  c = await startTestServer();
});
afterEach(async () => {
  await c.close();
});

const HPA_V2 = {
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    minReplicas: 1,
    maxReplicas: 5,
    metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 60 } } }],
  },
};

describe('served versions sharing storage', () => {
  it('gives converted versions a codec and identical ones none (fast path), with one key prefix', () => {
    const catalog = new Catalog([...builtinResources], specFor);
    expect(catalog.lookup('batch', 'v1beta1', 'cronjobs')?.codec).toBeUndefined();
    expect(catalog.lookup('autoscaling', 'v1', 'horizontalpodautoscalers')?.codec).toBeUndefined();
    expect(catalog.lookup('autoscaling', 'v2', 'horizontalpodautoscalers')?.codec?.storageApiVersion).toBe('autoscaling/v1');
    expect(catalog.lookup('events.k8s.io', 'v1', 'events')?.keyPrefix).toBe(catalog.lookup('', 'v1', 'events')?.keyPrefix);
  });

  it('HPA written as v2 reads as v1 (metrics in the annotation) and back as v2, lossless', async () => {
    const created = await c.post('/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers', HPA_V2);
    expect(created.status).toBe(201);
    expect(created.json.apiVersion).toBe('autoscaling/v2');
    expect(created.json.spec.metrics).toEqual(HPA_V2.spec.metrics);
    const v1 = await c.get('/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web');
    expect(v1.json.apiVersion).toBe('autoscaling/v1');
    expect(v1.json.spec.metrics).toBeUndefined();
    expect(JSON.parse(v1.json.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics'])[0].resource.name).toBe('memory');
    for (const version of ['v2', 'v2beta2']) {
      const back = await c.get(`/apis/autoscaling/${version}/namespaces/default/horizontalpodautoscalers/web`);
      expect(back.json.apiVersion).toBe(`autoscaling/${version}`);
      expect(back.json.spec.metrics).toEqual(HPA_V2.spec.metrics);
      expect(back.json.metadata.annotations).toBeUndefined();
    }
    const beta1 = await c.get('/apis/autoscaling/v2beta1/namespaces/default/horizontalpodautoscalers/web');
    expect(beta1.json.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'memory', targetAverageUtilization: 60 } }]);
  });

  it('patches through one version and updates through another keep the fields of both', async () => {
    await c.post('/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers', HPA_V2);
    const patched = await c.patch('/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web', { spec: { maxReplicas: 9 } });
    expect(patched.status).toBe(200);
    expect(patched.json.apiVersion).toBe('autoscaling/v1');
    const v2 = await c.get('/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web');
    expect(v2.json.spec.maxReplicas).toBe(9);
    expect(v2.json.spec.metrics).toEqual(HPA_V2.spec.metrics);
    // managedFields record the apiVersion of each write.
    const versions = v2.json.metadata.managedFields.map((m: { apiVersion: string }) => m.apiVersion);
    expect(versions).toEqual(expect.arrayContaining(['autoscaling/v2', 'autoscaling/v1']));
    v2.json.spec.minReplicas = 2;
    const put = await c.put('/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web', v2.json);
    expect(put.status).toBe(200);
    expect(put.json.spec).toMatchObject({ minReplicas: 2, maxReplicas: 9, metrics: HPA_V2.spec.metrics });
  });

  it('lists and deletes at the requested version', async () => {
    await c.post('/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers', HPA_V2);
    const list = await c.get('/apis/autoscaling/v2beta2/horizontalpodautoscalers');
    expect(list.json.apiVersion).toBe('autoscaling/v2beta2');
    expect(list.json.items[0].spec.metrics).toEqual(HPA_V2.spec.metrics);
    const v1list = await c.get('/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers');
    expect(v1list.json.items[0].spec.metrics).toBeUndefined();
    const deleted = await c.del('/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web');
    expect(deleted.status).toBe(200);
    expect(deleted.json.spec.metrics).toEqual(HPA_V2.spec.metrics);
  });

  it('watches deliver the watched version', async () => {
    const w = await startWatch(c.api, '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers?watch=1');
    await c.post('/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers', {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'cpu' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3, targetCPUUtilizationPercentage: 70 },
    });
    const events = await w.waitForEvents(1);
    w.cancel();
    expect(events[0].type).toBe('ADDED');
    expect(events[0].object.apiVersion).toBe('autoscaling/v2');
    expect(events[0].object.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }]);
  });

  it('core v1 Events and events.k8s.io Events are the same objects', async () => {
    const created = await c.post('/apis/events.k8s.io/v1/namespaces/default/events', {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e1' },
      eventTime: '2024-01-01T00:00:00.000000Z',
      reportingController: 'example.com/ctl',
      reportingInstance: 'ctl-1',
      action: 'Sync',
      reason: 'Synced',
      regarding: { kind: 'Pod', namespace: 'default', name: 'p' },
      note: 'hello',
      type: 'Normal',
    });
    expect(created.status).toBe(201);
    const core = await c.get('/api/v1/namespaces/default/events/e1');
    expect(core.status).toBe(200);
    expect(core.json).toMatchObject({ apiVersion: 'v1', message: 'hello', involvedObject: { name: 'p' }, reportingComponent: 'example.com/ctl' });
    const selected = await c.get('/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dp');
    expect(selected.json.items.map((e: { metadata: { name: string } }) => e.metadata.name)).toEqual(['e1']);
    const beta = await c.get('/apis/events.k8s.io/v1beta1/namespaces/default/events');
    expect(beta.json.items[0]).toMatchObject({ note: 'hello', regarding: { name: 'p' } });
  });

  it('PDB v1beta1 empty selector keeps its meaning through v1', async () => {
    await c.post('/apis/policy/v1beta1/namespaces/default/poddisruptionbudgets', {
      apiVersion: 'policy/v1beta1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'none' },
      spec: { minAvailable: 1, selector: {} },
    });
    const v1 = await c.get('/apis/policy/v1/namespaces/default/poddisruptionbudgets/none');
    expect(v1.json.spec.selector.matchExpressions[0].operator).toBe('Exists');
    const beta = await c.get('/apis/policy/v1beta1/namespaces/default/poddisruptionbudgets/none');
    expect(beta.json.spec.selector).toEqual({});
  });

  it('a CronJob created as batch/v1beta1 reads as batch/v1 (same shape, no conversion)', async () => {
    const created = await c.post('/apis/batch/v1beta1/namespaces/default/cronjobs', {
      apiVersion: 'batch/v1beta1',
      kind: 'CronJob',
      metadata: { name: 'tick' },
      spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } } },
    });
    expect(created.status).toBe(201);
    const v1 = await c.get('/apis/batch/v1/namespaces/default/cronjobs/tick');
    expect(v1.json.apiVersion).toBe('batch/v1');
    expect(v1.json.spec.schedule).toBe('*/5 * * * *');
  });

  it('EndpointSlice v1beta1 topology reads as v1 zone/deprecatedTopology', async () => {
    await c.post('/apis/discovery.k8s.io/v1beta1/namespaces/default/endpointslices', {
      apiVersion: 'discovery.k8s.io/v1beta1',
      kind: 'EndpointSlice',
      metadata: { name: 's' },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.0.0.1'], topology: { 'kubernetes.io/hostname': 'n1', 'topology.kubernetes.io/zone': 'z1' } }],
    });
    const v1 = await c.get('/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/s');
    expect(v1.json.endpoints[0]).toMatchObject({ deprecatedTopology: { 'kubernetes.io/hostname': 'n1' }, zone: 'z1' });
    const beta = await c.get('/apis/discovery.k8s.io/v1beta1/namespaces/default/endpointslices/s');
    expect(beta.json.endpoints[0].topology).toEqual({ 'kubernetes.io/hostname': 'n1', 'topology.kubernetes.io/zone': 'z1' });
  });

  it('versions v1.23 no longer serves answer 404', async () => {
    for (const path of ['/apis/extensions/v1beta1/namespaces/default/deployments', '/apis/apps/v1beta1/namespaces/default/deployments', '/apis/apps/v1beta2/namespaces/default/deployments', '/apis/networking.k8s.io/v1beta1/namespaces/default/ingresses', '/apis/rbac.authorization.k8s.io/v1beta1/clusterroles', '/apis/apiextensions.k8s.io/v1beta1/customresourcedefinitions']) {
      expect((await c.get(path)).status, path).toBe(404);
    }
  });
});
