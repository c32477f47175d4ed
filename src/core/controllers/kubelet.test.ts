import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const pod = (name: string, nodeName?: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'web', image: 'nginx:1.25' }] } });

describe('simulated nodes', () => {
  it('register as a v1.23 kubelet does, as system:node:<name> with manager kubelet', async () => {
    t = await startCluster('nodes', { nodes: 2, nodeCpu: '2', nodeMemory: '4Gi' });
    const nodes = (await t.get('/api/v1/nodes')).json.items;
    expect(nodes.map((n: any) => n.metadata.name)).toEqual(['node-1', 'node-2']);
    const n = nodes[1];
    expect(n.metadata.labels).toEqual({ 'beta.kubernetes.io/arch': 'amd64', 'beta.kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', 'kubernetes.io/hostname': 'node-2', 'kubernetes.io/os': 'linux' });
    expect(n.spec).toEqual({ podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'] });
    expect(n.status.capacity).toEqual({ cpu: '2', 'ephemeral-storage': '100Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '4Gi', pods: '110' });
    expect(n.status.conditions.map((c: any) => [c.type, c.status, c.reason])).toEqual([
      ['MemoryPressure', 'False', 'KubeletHasSufficientMemory'],
      ['DiskPressure', 'False', 'KubeletHasNoDiskPressure'],
      ['PIDPressure', 'False', 'KubeletHasSufficientPID'],
      ['Ready', 'True', 'KubeletReady'],
    ]);
    expect(n.status.addresses).toEqual([
      { type: 'InternalIP', address: '172.18.0.3' },
      { type: 'Hostname', address: 'node-2' },
    ]);
    expect(n.status.nodeInfo).toMatchObject({ kubeletVersion: 'v1.23.17', operatingSystem: 'linux', architecture: 'amd64', containerRuntimeVersion: 'containerd://1.6.9' });
    expect(n.metadata.managedFields.map((m: any) => [m.manager, m.operation, m.subresource])).toEqual([
      ['kubelet', 'Update', undefined],
      ['kubelet', 'Update', 'status'],
    ]);
    // The audit log names the node as the user.
    const users = t.api.audit!.events().filter((e) => e.objectRef?.resource === 'nodes' && e.verb === 'create').map((e) => e.user.username);
    expect(users.sort()).toEqual(['system:node:node-1', 'system:node:node-2']);
  });

  it('renew their Lease in kube-node-lease every 10 s of cluster time', async () => {
    t = await startCluster('nodes', { nodes: 1 });
    const lease = async () => (await t!.get('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1')).json;
    const first = await lease();
    const node = (await t.get('/api/v1/nodes/node-1')).json;
    expect(first.spec).toEqual({ holderIdentity: 'node-1', leaseDurationSeconds: 40, renewTime: '2022-01-01T00:00:00.000000Z' });
    expect(first.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: node.metadata.uid }]);
    await t.advance(9_999);
    expect((await lease()).spec.renewTime).toBe('2022-01-01T00:00:00.000000Z');
    await t.advance(1);
    expect((await lease()).spec.renewTime).toBe('2022-01-01T00:00:10.000000Z');
  });
});

describe('simulated kubelet', () => {
  it('admits a bound pod at once and runs it after the delay, writing status as the node', async () => {
    t = await startCluster('nodes,kubelet', { kubeletDelayMs: 3000 });
    await t.post('/api/v1/namespaces/default/pods', pod('p', 'node-2'));
    await t.settle();
    let p = (await t.get('/api/v1/namespaces/default/pods/p')).json;
    expect(p.status).toMatchObject({ phase: 'Pending', hostIP: '172.18.0.3', startTime: '2022-01-01T00:00:00Z' });
    expect(p.status.podIP).toBeUndefined();
    expect(p.status.conditions.map((c: any) => [c.type, c.status, c.reason ?? '', c.message ?? ''])).toEqual([
      ['Initialized', 'True', '', ''],
      ['Ready', 'False', 'ContainersNotReady', 'containers with unready status: [web]'],
      ['ContainersReady', 'False', 'ContainersNotReady', 'containers with unready status: [web]'],
      ['PodScheduled', 'True', '', ''],
    ]);
    expect(p.status.containerStatuses).toEqual([{ name: 'web', state: { waiting: { reason: 'ContainerCreating' } }, lastState: {}, ready: false, restartCount: 0, image: 'nginx:1.25', imageID: '', started: false }]);
    await t.advance(2999);
    expect((await t.get('/api/v1/namespaces/default/pods/p')).json.status.phase).toBe('Pending');
    await t.advance(1);
    p = (await t.get('/api/v1/namespaces/default/pods/p')).json;
    expect(p.status).toMatchObject({ phase: 'Running', podIP: '10.244.1.2', podIPs: [{ ip: '10.244.1.2' }] });
    expect(p.status.conditions.map((c: any) => [c.type, c.status, c.lastTransitionTime])).toEqual([
      ['Initialized', 'True', '2022-01-01T00:00:00Z'],
      ['Ready', 'True', '2022-01-01T00:00:03Z'],
      ['ContainersReady', 'True', '2022-01-01T00:00:03Z'],
      ['PodScheduled', 'True', '2022-01-01T00:00:00Z'],
    ]);
    const cs = p.status.containerStatuses[0];
    expect(cs).toMatchObject({ name: 'web', ready: true, started: true, restartCount: 0, image: 'docker.io/library/nginx:1.25', state: { running: { startedAt: '2022-01-01T00:00:03Z' } } });
    expect(cs.imageID).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    expect(cs.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    const kubelet = p.metadata.managedFields.find((m: any) => m.manager === 'kubelet');
    expect(kubelet).toMatchObject({ operation: 'Update', subresource: 'status' });
    // The pod came with its nodeName (no binding), so the kubelet made the whole list, PodScheduled included.
    expect(Object.keys(kubelet.fieldsV1['f:status']['f:conditions'])).toEqual(['.', 'k:{"type":"ContainersReady"}', 'k:{"type":"Initialized"}', 'k:{"type":"PodScheduled"}', 'k:{"type":"Ready"}']);
    const users = t.api.audit!.events().filter((e) => e.objectRef?.subresource === 'status' && e.objectRef.name === 'p').map((e) => e.user.username);
    expect(new Set(users)).toEqual(new Set(['system:node:node-2']));
  });

  it('gives each pod on a node its own IP and frees it when the pod goes', async () => {
    t = await startCluster('nodes,kubelet', { kubeletDelayMs: 0 });
    await t.post('/api/v1/namespaces/default/pods', pod('a', 'node-1'));
    await t.post('/api/v1/namespaces/default/pods', pod('b', 'node-1'));
    await t.settle();
    const ip = async (n: string) => (await t!.get(`/api/v1/namespaces/default/pods/${n}`)).json.status.podIP;
    expect([await ip('a'), await ip('b')].sort()).toEqual(['10.244.0.2', '10.244.0.3']);
    const freed = await ip('a');
    await t.del('/api/v1/namespaces/default/pods/a');
    await t.settle();
    await t.post('/api/v1/namespaces/default/pods', pod('c', 'node-1'));
    await t.settle();
    expect(await ip('c')).toBe(freed);
  });

  it('leaves pods on nodes it does not simulate alone', async () => {
    t = await startCluster('nodes,kubelet');
    await t.post('/api/v1/namespaces/default/pods', pod('elsewhere', 'real-node'));
    await t.advance(5000);
    expect((await t.get('/api/v1/namespaces/default/pods/elsewhere')).json.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });
});
