import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, deployment, type ClusterTest } from '../testing/controllers';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const service = (name: string, selector: Record<string, string> | undefined, ports = [{ name: 'http', port: 80, targetPort: 'web' }]) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, labels: { tier: 'front' } },
  spec: { ...(selector ? { selector } : {}), ports },
});

async function readyPods(): Promise<any[]> {
  return ((await t!.get('/api/v1/namespaces/default/pods')).json.items as any[]).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}

describe('endpoint and endpointslice controllers', () => {
  it('list ready pods behind a Service, resolving a named target port', async () => {
    t = await startCluster('*', { kubeletDelayMs: 1000 });
    const d = deployment('web', 2) as any;
    d.spec.template.spec.containers[0].ports = [{ name: 'web', containerPort: 8080 }];
    await t.post('/apis/apps/v1/namespaces/default/deployments', d);
    await t.post('/api/v1/namespaces/default/services', service('web', { app: 'web' }));
    await t.settle();
    // Pods whose containers are still being created have no IP yet: nothing to list.
    let ep = (await t.get('/api/v1/namespaces/default/endpoints/web')).json;
    expect(ep.subsets).toBeUndefined();
    await t.advance(1000);
    const pods = await readyPods();
    ep = (await t.get('/api/v1/namespaces/default/endpoints/web')).json;
    expect(ep.metadata.labels).toEqual({ tier: 'front' });
    expect(ep.subsets).toEqual([
      {
        addresses: pods
          .map((p) => ({ ip: p.status.podIP, nodeName: p.spec.nodeName, targetRef: { kind: 'Pod', namespace: 'default', name: p.metadata.name, uid: p.metadata.uid } }))
          .sort((a, b) => a.ip.localeCompare(b.ip, undefined, { numeric: true })),
        ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
      },
    ]);
    const slices = (await t.get('/apis/discovery.k8s.io/v1/namespaces/default/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dweb')).json.items;
    expect(slices).toHaveLength(1);
    const svc = (await t.get('/api/v1/namespaces/default/services/web')).json;
    expect(slices[0].metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
    expect(slices[0].metadata.labels).toEqual({ tier: 'front', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
    expect(slices[0].metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: svc.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(slices[0].addressType).toBe('IPv4');
    expect(slices[0].ports).toEqual([{ name: 'http', protocol: 'TCP', port: 8080 }]);
    expect(slices[0].endpoints).toEqual(
      pods.map((p) => ({ addresses: [p.status.podIP], conditions: { ready: true, serving: true, terminating: false }, targetRef: { kind: 'Pod', namespace: 'default', name: p.metadata.name, uid: p.metadata.uid }, nodeName: p.spec.nodeName })),
    );
    // Managers as a v1.23 cluster records them: kube-controller-manager, Update.
    expect(ep.metadata.managedFields.map((m: any) => [m.manager, m.operation, m.subresource])).toEqual([['kube-controller-manager', 'Update', undefined]]);
    expect(Object.keys(ep.metadata.managedFields[0].fieldsV1)).toEqual(['f:metadata', 'f:subsets']);
    expect(slices[0].metadata.managedFields.map((m: any) => [m.manager, m.operation, m.subresource])).toEqual([['kube-controller-manager', 'Update', undefined]]);
    expect(Object.keys(slices[0].metadata.managedFields[0].fieldsV1)).toEqual(['f:addressType', 'f:endpoints', 'f:metadata', 'f:ports']);
    // Writers: the controllers' own service accounts.
    const users = t.api.audit!.events().filter((e) => e.verb === 'create' && (e.objectRef?.resource === 'endpoints' || e.objectRef?.resource === 'endpointslices') && e.objectRef.namespace === 'default').map((e) => e.user.username);
    expect(users.sort()).toEqual(['system:serviceaccount:kube-system:endpoint-controller', 'system:serviceaccount:kube-system:endpointslice-controller']);
  });

  it('follows scaling, and removes the Endpoints with the Service', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post('/apis/apps/v1/namespaces/default/deployments', deployment('web', 3));
    await t.post('/api/v1/namespaces/default/services', service('web', { app: 'web' }, [{ name: '', port: 80, targetPort: 80 } as any]));
    await t.settle();
    const count = async () => (await t!.get('/api/v1/namespaces/default/endpoints/web')).json.subsets?.[0]?.addresses?.length ?? 0;
    expect(await count()).toBe(3);
    await t.patch('/apis/apps/v1/namespaces/default/deployments/web/scale', { spec: { replicas: 1 } });
    await t.settle();
    expect(await count()).toBe(1);
    await t.del('/api/v1/namespaces/default/services/web');
    await t.settle();
    expect((await t.get('/api/v1/namespaces/default/endpoints/web')).status).toBe(404);
  });

  it('leaves Services without a selector to their users', async () => {
    t = await startCluster('*');
    await t.post('/api/v1/namespaces/default/services', service('external', undefined, [{ name: 'http', port: 80, targetPort: 80 } as any]));
    await t.settle();
    expect((await t.get('/api/v1/namespaces/default/endpoints/external')).status).toBe(404);
    // The kubernetes Service's Endpoints stay the API server's.
    const k = (await t.get('/api/v1/namespaces/default/endpoints/kubernetes')).json;
    expect(k.subsets[0].addresses).toHaveLength(1);
  });
});
