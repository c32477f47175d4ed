// /metrics' storage families as kube-apiserver v1.23 writes them: etcd_request_duration_seconds
// per operation and Go type with kube's buckets, apiserver_storage_objects per resource.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient } from '../testing/api-server';
import { internalPackage } from './storage-types';

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

const CM = '/api/v1/namespaces/default/configmaps';
const series = (text: string, name: string) => text.split('\n').filter((line) => line.startsWith(name));

describe('storage metrics', () => {
  it('times storage requests per operation and type, in kube 1.23 buckets', async () => {
    expect((await c.post(CM, { metadata: { name: 'timed' } })).status).toBe(201);
    expect((await c.get(`${CM}/timed`)).status).toBe(200);
    expect((await c.get(CM)).status).toBe(200);
    expect((await c.put(`${CM}/timed`, { metadata: { name: 'timed' }, data: { a: 'b' } })).status).toBe(200);
    expect((await c.del(`${CM}/timed`)).status).toBe(200);
    expect((await c.post('/apis/apps/v1/namespaces/default/deployments', { metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } })).status).toBe(201);
    const text = (await c.get('/metrics')).text;
    expect(text).toContain('# HELP etcd_request_duration_seconds [ALPHA] Etcd request latency in seconds for each operation and object type.\n# TYPE etcd_request_duration_seconds histogram\n');
    const buckets = series(text, 'etcd_request_duration_seconds_bucket{operation="create",type="*core.ConfigMap"');
    expect(buckets.map((line) => /le="([^"]+)"/.exec(line)![1])).toEqual(['0.005', '0.025', '0.1', '0.25', '0.5', '1', '2', '4', '15', '30', '60', '+Inf']);
    for (const op of ['create', 'get', 'update', 'delete']) {
      expect(series(text, `etcd_request_duration_seconds_count{operation="${op}",type="*core.ConfigMap"}`)).toHaveLength(1);
    }
    expect(series(text, 'etcd_request_duration_seconds_count{operation="list",type="*core.ConfigMapList"}')).toHaveLength(1);
    expect(series(text, 'etcd_request_duration_seconds_count{operation="create",type="*apps.Deployment"}')).toEqual([
      'etcd_request_duration_seconds_count{operation="create",type="*apps.Deployment"} 1',
    ]);
    expect(series(text, 'apiserver_storage_objects{resource="deployments.apps"}')).toEqual(['apiserver_storage_objects{resource="deployments.apps"} 1']);
    // Only a store on etcd reports its database size.
    expect(text).not.toContain('etcd_db_total_size_in_bytes');
  });

  it('names internal packages as kube does', () => {
    expect(['', 'core', 'apps', 'rbac.authorization.k8s.io', 'coordination.k8s.io', 'apiregistration.k8s.io'].map(internalPackage)).toEqual([
      'core', 'core', 'apps', 'rbac', 'coordination', 'apiregistration',
    ]);
  });
});
