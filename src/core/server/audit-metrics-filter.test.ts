// Deprecation warnings, /metrics and audit events, through the API.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient } from '../testing/api-server';
import { startWatch } from '../testing/watch';
import { deprecationOf } from './deprecation';

let c: TestClient;
beforeEach(async () => {
  c = await startTestServer();
});
afterEach(async () => {
  await c.close();
});

const CRONJOB = {
  apiVersion: 'batch/v1beta1',
  kind: 'CronJob',
  metadata: { name: 'tick' },
  spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } } },
};

describe('deprecated versions', () => {
  it('word the warning as kube-apiserver v1.23', () => {
    expect(deprecationOf({ group: 'batch', version: 'v1beta1', resource: 'cronjobs', kind: 'CronJob' })?.warning).toBe(
      'batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob',
    );
    expect(deprecationOf({ group: 'policy', version: 'v1beta1', resource: 'podsecuritypolicies', kind: 'PodSecurityPolicy' })?.warning).toBe(
      'policy/v1beta1 PodSecurityPolicy is deprecated in v1.21+, unavailable in v1.25+',
    );
    expect(deprecationOf({ group: 'autoscaling', version: 'v2beta2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler' })).toEqual({
      warning: 'autoscaling/v2beta2 HorizontalPodAutoscaler is deprecated in v1.23+, unavailable in v1.26+; use autoscaling/v2 HorizontalPodAutoscaler',
      removedRelease: '1.26',
    });
    // Deprecated only from 1.24: a 1.23 server does not warn yet.
    expect(deprecationOf({ group: 'storage.k8s.io', version: 'v1beta1', resource: 'csistoragecapacities', kind: 'CSIStorageCapacity' })).toBeUndefined();
    expect(deprecationOf({ group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob' })).toBeUndefined();
  });

  it('answer a Warning header on every verb; the current version does not', async () => {
    const created = await c.post('/apis/batch/v1beta1/namespaces/default/cronjobs', CRONJOB);
    expect(created.status).toBe(201);
    expect(created.headers['Warning']).toBe('299 - "batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob"');
    const list = await c.get('/apis/batch/v1beta1/cronjobs');
    expect(list.headers['Warning']).toContain('batch/v1beta1 CronJob is deprecated');
    const current = await c.get('/apis/batch/v1/namespaces/default/cronjobs/tick');
    expect(current.status).toBe(200);
    expect(current.headers['Warning']).toBeUndefined();
  });
});

describe('/metrics', () => {
  it('counts requests, deprecated APIs and stored objects in Prometheus text', async () => {
    await c.post('/apis/batch/v1beta1/namespaces/default/cronjobs', CRONJOB);
    await c.get('/apis/batch/v1/namespaces/default/cronjobs/tick');
    await c.get('/apis/batch/v1/namespaces/default/cronjobs/missing');
    const res = await c.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['Content-Type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = res.text;
    expect(text).toContain('# TYPE apiserver_request_total counter\n');
    expect(text).toContain('apiserver_request_total{code="201",component="apiserver",dry_run="",group="batch",resource="cronjobs",scope="resource",subresource="",verb="POST",version="v1beta1"} 1\n');
    expect(text).toContain('apiserver_request_total{code="200",component="apiserver",dry_run="",group="batch",resource="cronjobs",scope="resource",subresource="",verb="GET",version="v1"} 1\n');
    expect(text).toContain('apiserver_request_total{code="404",component="apiserver",dry_run="",group="batch",resource="cronjobs",scope="resource",subresource="",verb="GET",version="v1"} 1\n');
    expect(text).toContain('apiserver_requested_deprecated_apis{group="batch",removed_release="1.25",resource="cronjobs",subresource="",version="v1beta1"} 1\n');
    expect(text).toContain('apiserver_storage_objects{resource="cronjobs.batch"} 1\n');
    expect(text).toMatch(/apiserver_storage_objects\{resource="namespaces"\} [1-9]/);
    expect(text).toContain('# TYPE apiserver_request_duration_seconds histogram\n');
    expect(text).toContain('apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="batch",resource="cronjobs",scope="resource",subresource="",verb="POST",version="v1beta1",le="+Inf"} 1\n');
  });

  it('tracks open watches and the events they send', async () => {
    const w = await startWatch(c.api, '/api/v1/namespaces/default/configmaps?watch=1');
    await c.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'a' } });
    // The initial ADDED of the namespace's kube-root-ca.crt, then the create.
    await w.waitForEvents(2);
    const open = (await c.get('/metrics')).text;
    expect(open).toContain('apiserver_longrunning_requests{component="apiserver",group="",resource="configmaps",scope="namespace",subresource="",verb="WATCH",version="v1"} 1\n');
    expect(open).toContain('apiserver_watch_events_total{kind="/v1, Kind=ConfigMap"} 2\n');
    expect(open).toContain('# HELP apiserver_longrunning_gauge [ALPHA] (Deprecated since 1.23.0) Gauge of all active');
    w.cancel();
    const closed = (await c.get('/metrics')).text;
    expect(closed).toContain('apiserver_longrunning_requests{component="apiserver",group="",resource="configmaps",scope="namespace",subresource="",verb="WATCH",version="v1"} 0\n');
  });

  it('reports apply patches as APPLY and dry runs as All', async () => {
    await c.patch('/api/v1/namespaces/default/configmaps/a?fieldManager=t&dryRun=All', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }, 'application/apply-patch+yaml');
    expect((await c.get('/metrics')).text).toContain('apiserver_request_total{code="201",component="apiserver",dry_run="All",group="",resource="configmaps",scope="resource",subresource="",verb="APPLY",version="v1"} 1\n');
  });
});

describe('audit', () => {
  it('records a Metadata event per request, annotated for deprecated versions', async () => {
    await c.post('/apis/batch/v1beta1/namespaces/default/cronjobs', CRONJOB, { 'user-agent': 'kubectl/v1.34.0' });
    await c.get('/api/v1/namespaces/default/pods/nope');
    const events = c.api.audit?.events() ?? [];
    expect(events).toHaveLength(2);
    const [create, get] = events;
    expect(Object.keys(create)).toEqual(['kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'sourceIPs', 'userAgent', 'objectRef', 'responseStatus', 'requestReceivedTimestamp', 'stageTimestamp', 'annotations']);
    expect(create).toMatchObject({
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: 'Metadata',
      stage: 'ResponseComplete',
      requestURI: '/apis/batch/v1beta1/namespaces/default/cronjobs',
      verb: 'create',
      user: { username: 'kubernetes-admin' },
      userAgent: 'kubectl/v1.34.0',
      objectRef: { resource: 'cronjobs', namespace: 'default', apiGroup: 'batch', apiVersion: 'v1beta1' },
      responseStatus: { metadata: {}, code: 201 },
      annotations: { 'k8s.io/deprecated': 'true', 'k8s.io/removed-release': '1.25' },
    });
    expect(create.stageTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(get.responseStatus).toEqual({ metadata: {}, status: 'Failure', message: 'pods "nope" not found', reason: 'NotFound', details: { name: 'nope', kind: 'pods' }, code: 404 });
    expect(get.annotations).toBeUndefined();
  });

  it('feeds subscribers and keeps a bounded ring', async () => {
    const small = await startTestServer({ auditCapacity: 3 });
    const seen: string[] = [];
    small.api.audit?.subscribe((e) => seen.push(e.requestURI));
    for (let i = 0; i < 5; i++) await small.get(`/api/v1/namespaces/default/configmaps?i=${i}`);
    expect(seen).toHaveLength(5);
    expect(small.api.audit?.events().map((e) => e.requestURI)).toEqual(['/api/v1/namespaces/default/configmaps?i=2', '/api/v1/namespaces/default/configmaps?i=3', '/api/v1/namespaces/default/configmaps?i=4']);
    await small.close();
  });
});
