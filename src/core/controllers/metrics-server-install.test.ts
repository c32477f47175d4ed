// metrics-server's manifest objects as the simulated metrics-server installs them: the APIService
// the aggregator reports Available, and the ClusterRole aggregated into view, edit and admin.
import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';
import { TABLE_V1, eventually } from '../testing/api-server';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const API_SERVICE = '/apis/apiregistration.k8s.io/v1/apiservices/v1beta1.metrics.k8s.io';
const ROLES = '/apis/rbac.authorization.k8s.io/v1/clusterroles';
const METRICS_RULE = { apiGroups: ['metrics.k8s.io'], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] };

describe('metrics-server install manifest', () => {
  it('registers v1beta1.metrics.k8s.io with the aggregator, Available while metrics-server serves it', async () => {
    t = await startCluster('*', { nodes: 1 });
    await t.settle();
    const svc = (await t.get(API_SERVICE)).json;
    expect(svc.metadata.labels).toEqual({ 'k8s-app': 'metrics-server', 'addonmanager.kubernetes.io/mode': 'EnsureExists' });
    expect(svc.spec).toEqual({ group: 'metrics.k8s.io', version: 'v1beta1', service: { name: 'metrics-server', namespace: 'kube-system', port: 443 }, groupPriorityMinimum: 100, versionPriority: 100, insecureSkipTLSVerify: true });
    expect(svc.status.conditions).toEqual([{ type: 'Available', status: 'True', lastTransitionTime: expect.any(String), reason: 'Passed', message: 'all checks passed' }]);
    const row = (await t.get('/apis/apiregistration.k8s.io/v1/apiservices?fieldSelector=metadata.name%3Dv1beta1.metrics.k8s.io', { accept: TABLE_V1 })).json.rows[0].cells;
    expect(row.slice(0, 3)).toEqual(['v1beta1.metrics.k8s.io', 'kube-system/metrics-server', 'True']);
  });

  it('gives view, edit and admin read access to metrics through the aggregated ClusterRole', async () => {
    t = await startCluster('*', { nodes: 1 }, { authorization: 'RBAC' });
    await t.settle();
    // A namespace's viewer may read its pods' metrics (what `kubectl top pod` asks), not nodes'.
    await t.post('/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', {
      metadata: { name: 'jane-view' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'jane' }],
    });
    const asJane = { 'impersonate-user': 'jane' };
    // The aggregation controller writes view after the role appears: wait for its pass.
    await eventually(async () => ((await t!.get('/apis/metrics.k8s.io/v1beta1/namespaces/default/pods', asJane)).status === 200 ? true : undefined));
    expect((await t.get('/apis/metrics.k8s.io/v1beta1/namespaces/kube-system/pods', asJane)).status).toBe(403);
    expect((await t.get('/apis/metrics.k8s.io/v1beta1/nodes', asJane)).status).toBe(403);
    const reader = (await t.get(`${ROLES}/system:aggregated-metrics-reader`)).json;
    expect(reader.metadata.labels).toEqual({
      'k8s-app': 'metrics-server',
      'addonmanager.kubernetes.io/mode': 'EnsureExists',
      'rbac.authorization.k8s.io/aggregate-to-admin': 'true',
      'rbac.authorization.k8s.io/aggregate-to-edit': 'true',
      'rbac.authorization.k8s.io/aggregate-to-view': 'true',
    });
    expect(reader.rules).toEqual([METRICS_RULE]);
    for (const name of ['view', 'edit', 'admin']) expect((await t.get(`${ROLES}/${name}`)).json.rules).toContainEqual(METRICS_RULE);
  });

  it('is not installed when metrics-server is switched off', async () => {
    t = await startCluster('*,-metrics-server', { nodes: 1 });
    await t.settle();
    expect((await t.get(API_SERVICE)).status).toBe(404);
    expect((await t.get(`${ROLES}/view`)).json.rules).not.toContainEqual(METRICS_RULE);
  });
});
