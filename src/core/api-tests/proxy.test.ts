// pods/proxy, services/proxy and nodes/proxy answer what kube-apiserver answers when nothing
// listens on the target: the target's resolution errors, then the refused dial.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, pod, startTestServer, type TestClient } from '../testing/api-server';
import { splitSchemeNamePort } from '../handlers/proxy';
import { isGlobalUnicast } from '../validation/ip-address';

let c: TestClient;
const NS = '/api/v1/namespaces/default';

beforeAll(async () => {
  c = await startTestServer();
  const p = pod('web');
  p.spec.containers[0].ports = [{ containerPort: 8080 }];
  expect((await c.post(`${NS}/pods`, p)).status).toBe(201);
  expect((await c.post(`${NS}/pods`, pod('idle'))).status).toBe(201);
  const status = (await c.get(`${NS}/pods/web`)).json;
  expect((await c.put(`${NS}/pods/web/status`, { ...status, status: { phase: 'Running', podIP: '10.244.0.5', podIPs: [{ ip: '10.244.0.5' }] } })).status).toBe(200);
  expect((await c.post(`${NS}/services`, { metadata: { name: 'web' }, spec: { ports: [{ name: 'http', port: 80, targetPort: 8080 }] } })).status).toBe(201);
  expect((await c.post(`${NS}/services`, { metadata: { name: 'lonely' }, spec: { ports: [{ port: 80 }] } })).status).toBe(201);
  expect((await c.post(`${NS}/services`, { metadata: { name: 'empty' }, spec: { ports: [{ port: 80 }] } })).status).toBe(201);
  const endpoints = { metadata: { name: 'web' }, subsets: [{ addresses: [{ ip: '10.244.0.5', targetRef: { kind: 'Pod', namespace: 'default', name: 'web' } }], ports: [{ name: 'http', port: 8080 }] }] };
  expect((await c.post(`${NS}/endpoints`, endpoints)).status).toBe(201);
  expect((await c.post(`${NS}/endpoints`, { metadata: { name: 'empty' } })).status).toBe(201);
  const node = { metadata: { name: 'n1' }, status: { addresses: [{ type: 'InternalIP', address: '192.168.1.10' }] } };
  const created = await c.post('/api/v1/nodes', node);
  expect(created.status).toBe(201);
  expect((await c.put('/api/v1/nodes/n1/status', { ...created.json, status: node.status })).status).toBe(200);
});
afterAll(async () => {
  await c.close();
});

describe('proxy subresources', () => {
  it('pods: no address, a refused dial at the first declared port, a bad name', async () => {
    expect(failure(await c.get(`${NS}/pods/idle/proxy/`))).toEqual({ code: 400, reason: 'BadRequest', message: 'address not allowed' });
    expect(failure(await c.get(`${NS}/pods/web/proxy/healthz`))).toEqual({ code: 503, reason: 'ServiceUnavailable', message: 'error trying to reach service: dial tcp 10.244.0.5:8080: connect: connection refused' });
    expect(failure(await c.request('POST', `${NS}/pods/https:web:9443/proxy/x`, {})).message).toBe('error trying to reach service: dial tcp 10.244.0.5:9443: connect: connection refused');
    expect(failure(await c.get(`${NS}/pods/a:b:c:d/proxy/`))).toEqual({ code: 400, reason: 'BadRequest', message: 'invalid request "a:b:c:d"' });
    expect(failure(await c.get(`${NS}/pods/nope/proxy/`)).code).toBe(404);
  });

  it('services: endpoints, ports and addresses are resolved as kube does', async () => {
    expect(failure(await c.get(`${NS}/services/web:http/proxy/`)).message).toBe('error trying to reach service: dial tcp 10.244.0.5:8080: connect: connection refused');
    expect(failure(await c.get(`${NS}/services/web:80/proxy/a/b`)).message).toBe('error trying to reach service: dial tcp 10.244.0.5:8080: connect: connection refused');
    expect(failure(await c.get(`${NS}/services/web:81/proxy/`))).toEqual({ code: 503, reason: 'ServiceUnavailable', message: 'no service port 81 found for service "web"' });
    expect(failure(await c.get(`${NS}/services/web/proxy/`)).message).toBe('no endpoints available for service "web"');
    expect(failure(await c.get(`${NS}/services/lonely/proxy/`))).toEqual({ code: 404, reason: 'NotFound', message: 'endpoints "lonely" not found' });
    expect(failure(await c.get(`${NS}/services/empty/proxy/`)).message).toBe('no endpoints available for service "empty"');
    // The kubernetes Service's endpoint names no pod.
    expect(failure(await c.get(`${NS}/services/kubernetes:https/proxy/`)).message).toBe('no endpoints available for service "kubernetes:https"');
  });

  it("nodes: the kubelet's address", async () => {
    expect(failure(await c.get('/api/v1/nodes/n1/proxy/metrics'))).toEqual({ code: 503, reason: 'ServiceUnavailable', message: 'error trying to reach service: dial tcp 192.168.1.10:10250: connect: connection refused' });
    expect(failure(await c.get('/api/v1/nodes/n2/proxy/')).code).toBe(404);
  });

  it('other subresources still take no extra path', async () => {
    expect((await c.get(`${NS}/pods/web/status/extra`)).status).toBe(404);
  });
});

describe('proxy helpers', () => {
  it('splitSchemeNamePort', () => {
    expect(splitSchemeNamePort('web')).toEqual({ scheme: '', name: 'web', port: '' });
    expect(splitSchemeNamePort('https:web:443')).toEqual({ scheme: 'https', name: 'web', port: '443' });
    expect(splitSchemeNamePort('ftp:web:21')).toBeUndefined();
    expect(splitSchemeNamePort(':80')).toBeUndefined();
  });
  it('isGlobalUnicast', () => {
    expect(isGlobalUnicast('10.0.0.1')).toBe(true);
    expect(isGlobalUnicast('127.0.0.1')).toBe(false);
    expect(isGlobalUnicast('169.254.1.1')).toBe(false);
    expect(isGlobalUnicast('')).toBe(false);
    expect(isGlobalUnicast('2001:db8::1')).toBe(true);
    expect(isGlobalUnicast('fe80::1')).toBe(false);
  });
});
