import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, deployment, type ClusterTest } from '../testing/controllers';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('simulated cluster', () => {
  it('a Deployment becomes available with pods running on simulated nodes', async () => {
    t = await startCluster('*', { kubeletDelayMs: 2000 });
    const nodes = await t.get('/api/v1/nodes');
    expect(nodes.json.items.map((n: any) => n.metadata.name)).toEqual(['node-1', 'node-2', 'node-3']);
    expect((await t.post('/apis/apps/v1/namespaces/default/deployments', deployment('web', 3))).status).toBe(201);
    await t.settle();
    const pods = await t.get('/api/v1/namespaces/default/pods');
    expect(pods.json.items).toHaveLength(3);
    expect(pods.json.items.every((p: any) => p.status.phase === 'Pending' && p.spec.nodeName)).toBe(true);
    await t.advance(2000);
    const d = (await t.get('/apis/apps/v1/namespaces/default/deployments/web')).json;
    expect(d.status.availableReplicas).toBe(3);
    expect((await t.get('/api/v1/namespaces/default/pods')).json.items.every((p: any) => p.status.phase === 'Running')).toBe(true);
  });

  it('is off unless selected: createApiServer without controllers keeps a cluster where nothing acts', async () => {
    const { startTestServer } = await import('../testing/api-server');
    const plain = await startTestServer();
    try {
      expect(plain.api.controllers).toBeUndefined();
      expect((await plain.get('/api/v1/nodes')).json.items).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it('informers list and watch again when the server ends their watches', async () => {
    t = await startCluster('nodes,kubelet,scheduler', { kubeletDelayMs: 0 }, { maxWatchSeconds: 1 });
    // Every watch of the controllers ends after a second of real time.
    await new Promise((resolve) => setTimeout(resolve, 1300));
    await t.post('/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'late' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    await t.settle();
    expect((await t.get('/api/v1/namespaces/default/pods/late')).json.status.phase).toBe('Running');
    const watches = t.api.audit!.events().filter((e) => e.verb === 'watch' && e.objectRef?.resource === 'pods' && e.user.username === 'system:kube-controller-manager');
    expect(watches.length).toBeGreaterThanOrEqual(2);
  });

  it('with RBAC on, every component is authorized by its bootstrap role (nodes by the Node authorizer)', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 }, { authorization: 'RBAC' });
    expect((await t.post('/apis/apps/v1/namespaces/default/deployments', deployment('web', 2))).status).toBe(201);
    await t.post('/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } });
    await t.settle();
    expect((await t.get('/apis/apps/v1/namespaces/default/deployments/web')).json.status.availableReplicas).toBe(2);
    expect((await t.get('/api/v1/namespaces/default/endpoints/web')).json.subsets[0].addresses).toHaveLength(2);
    const denied = t.api.audit!.events().filter((e) => e.responseStatus?.code === 403);
    expect(denied).toEqual([]);
    const roles = (await t.get('/apis/rbac.authorization.k8s.io/v1/clusterroles')).json.items.map((r: any) => r.metadata.name);
    expect(roles).toEqual(expect.arrayContaining(['system:controller:deployment-controller', 'system:controller:replicaset-controller', 'system:kube-scheduler', 'system:node']));
    // The controller's service account may not do what its role does not grant.
    const review = await t.post('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user: 'system:serviceaccount:kube-system:deployment-controller', groups: ['system:serviceaccounts'], resourceAttributes: { verb: 'delete', resource: 'secrets', namespace: 'default' } },
    });
    expect(review.json.status.allowed).toBe(false);
  });
});
