// pods/log, exec, attach and portforward without kubelets: kube-apiserver's answers up to the
// point where it would reach the pod's kubelet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startTestServer, type TestClient } from '../testing/api-server';

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

const PODS = '/api/v1/namespaces/default/pods';
const NODES = '/api/v1/nodes';
const pod = (name: string, spec: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'a', image: 'img' }], ...spec } });

describe('pod log and connect subresources', () => {
  it('a pod no node runs: log is 204 with no body, the connect endpoints say there is no host', async () => {
    await c.post(PODS, pod('idle'));
    const log = await c.get(`${PODS}/idle/log`);
    expect(log.status).toBe(204);
    expect(log.text).toBe('');
    for (const sub of ['exec?command=ls&stdout=true', 'attach?stdout=true', 'portforward?ports=80']) {
      expect(failure(await c.post(`${PODS}/idle/${sub}`, undefined))).toEqual({ code: 400, reason: 'BadRequest', message: 'pod idle does not have a host assigned' });
    }
    expect(failure(await c.get(`${PODS}/idle/exec?command=ls&stdout=true`))).toEqual({ code: 400, reason: 'BadRequest', message: 'pod idle does not have a host assigned' });
  });

  it('checks the pod and the container first', async () => {
    expect(failure(await c.get(`${PODS}/ghost/log`))).toEqual({ code: 404, reason: 'NotFound', message: 'pods "ghost" not found' });
    await c.post(PODS, pod('two', { containers: [{ name: 'a', image: 'img' }, { name: 'b', image: 'img' }], initContainers: [{ name: 'init', image: 'img' }] }));
    expect(failure(await c.get(`${PODS}/two/log`))).toEqual({ code: 400, reason: 'BadRequest', message: 'a container name must be specified for pod two, choose one of: [a b] or one of the init containers: [init]' });
    expect(failure(await c.get(`${PODS}/two/log?container=nope`))).toEqual({ code: 400, reason: 'BadRequest', message: 'container nope is not valid for pod two' });
    expect((await c.get(`${PODS}/two/log?container=init`)).status).toBe(204);
  });

  it('a pod bound to a node needs the Node, its address, and then a kubelet nobody serves', async () => {
    await c.post(PODS, pod('bound', { nodeName: 'n1' }));
    expect(failure(await c.get(`${PODS}/bound/log`))).toEqual({ code: 404, reason: 'NotFound', message: 'nodes "n1" not found' });
    await c.post(NODES, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
    expect(failure(await c.get(`${PODS}/bound/log`))).toEqual({ code: 500, reason: undefined, message: 'no preferred addresses found; known addresses: []' });
    const node = (await c.get(`${NODES}/n1`)).json;
    await c.put(`${NODES}/n1/status`, { ...node, status: { addresses: [{ type: 'ExternalIP', address: '192.0.2.9' }, { type: 'InternalIP', address: '10.1.2.3' }] } });
    expect(failure(await c.get(`${PODS}/bound/log`))).toEqual({
      code: 500,
      reason: undefined,
      message: 'Get "https://10.1.2.3:10250/containerLogs/default/bound/a": dial tcp 10.1.2.3:10250: connect: connection refused',
    });
    expect(failure(await c.post(`${PODS}/bound/exec?command=ls&stdout=true`, undefined))).toEqual({ code: 500, reason: undefined, message: 'error dialing backend: dial tcp 10.1.2.3:10250: connect: connection refused' });
  });
});
