// ReplicationController, PodTemplate, Endpoints and EndpointSlice defaults and validation through
// the server (v1.23 wording), including the default/kubernetes objects the server writes itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE_V1, failure, startTestServer, uniqueName, type TestClient } from '../testing/api-server';

let c: TestClient;
const NS = '/api/v1/namespaces/default';
const SLICES = (version: string) => `/apis/discovery.k8s.io/${version}/namespaces/default/endpointslices`;
const containers = [{ name: 'web', image: 'nginx:1.25' }];

beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

describe('ReplicationController', () => {
  it('is defaulted from its template and prints like kube (kubectl get rc)', async () => {
    const name = uniqueName('rc');
    const r = await c.post(`${NS}/replicationcontrollers`, { metadata: { name }, spec: { template: { metadata: { labels: { app: name } }, spec: { containers } } } });
    expect(r.status).toBe(201);
    expect(r.json.metadata.labels).toEqual({ app: name });
    expect(r.json.metadata.generation).toBe(1);
    expect(r.json.spec.selector).toEqual({ app: name });
    expect(r.json.spec.replicas).toBe(1);
    expect(r.json.spec.template.spec.restartPolicy).toBe('Always');
    expect(r.json.spec.template.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
    expect(r.json.status).toEqual({ replicas: 0 });
    const table = await c.get(`${NS}/replicationcontrollers/${name}`, { accept: TABLE_V1 });
    expect(table.json.columnDefinitions.slice(0, 4).map((d: any) => d.name)).toEqual(['Name', 'Desired', 'Current', 'Ready']);
    expect(table.json.rows[0].cells.slice(0, 4)).toEqual([name, 1, 0, 0]);
  });

  it('reports a selector that does not match the template labels', async () => {
    const name = uniqueName('rc');
    const r = await c.post(`${NS}/replicationcontrollers`, { metadata: { name }, spec: { selector: { app: 'x' }, template: { metadata: { labels: { app: 'y' } }, spec: { containers } } } });
    expect(failure(r)).toEqual({
      code: 422,
      reason: 'Invalid',
      message: `ReplicationController "${name}" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"y"}: \`selector\` does not match template \`labels\``,
    });
  });

  it('requires a selector and template; checks restartPolicy on update', async () => {
    const name = uniqueName('rc');
    const missing = await c.post(`${NS}/replicationcontrollers`, { metadata: { name }, spec: { replicas: -1 } });
    expect(failure(missing).message).toBe(
      `ReplicationController "${name}" is invalid: [spec.selector: Required value, spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.template: Required value]`,
    );
    expect((await c.post(`${NS}/replicationcontrollers`, { metadata: { name }, spec: { template: { metadata: { labels: { app: name } }, spec: { containers } } } })).status).toBe(201);
    const patched = await c.patch(`${NS}/replicationcontrollers/${name}`, { spec: { template: { spec: { restartPolicy: 'Never' } } } });
    expect(failure(patched).message).toBe(`ReplicationController "${name}" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"`);
    const scaled = await c.patch(`${NS}/replicationcontrollers/${name}`, { spec: { replicas: 3 } });
    expect(scaled.status).toBe(200);
    expect(scaled.json.metadata.generation).toBe(2);
  });
});

describe('PodTemplate', () => {
  it('defaults the template pod spec and validates it', async () => {
    const name = uniqueName('pt');
    const r = await c.post(`${NS}/podtemplates`, { metadata: { name }, template: { metadata: { labels: { a: 'b' } }, spec: { containers } } });
    expect(r.status).toBe(201);
    expect(r.json.template.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler' });
    const bad = await c.post(`${NS}/podtemplates`, { metadata: { name: uniqueName('pt') }, template: { spec: { containers: [{ name: 'web' }] } } });
    expect(failure(bad)).toMatchObject({ code: 422, message: expect.stringContaining('template.spec.containers[0].image: Required value') });
  });
});

describe('Endpoints', () => {
  it('defaults port protocols to TCP', async () => {
    const name = uniqueName('ep');
    const r = await c.post(`${NS}/endpoints`, { metadata: { name }, subsets: [{ addresses: [{ ip: '10.244.0.7' }], ports: [{ name: 'http', port: 8080 }] }] });
    expect(r.status).toBe(201);
    expect(r.json.subsets).toEqual([{ addresses: [{ ip: '10.244.0.7' }], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] }]);
  });

  it('rejects loopback addresses and unnamed ports among several', async () => {
    const name = uniqueName('ep');
    const r = await c.post(`${NS}/endpoints`, { metadata: { name }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port: 80 }, { name: 'b', port: 81 }] }] });
    expect(failure(r)).toEqual({
      code: 422,
      reason: 'Invalid',
      message: `Endpoints "${name}" is invalid: [subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128), subsets[0].ports[0].name: Required value]`,
    });
  });

  it("accepts the server's own default/kubernetes Endpoints when written back", async () => {
    const current = await c.get(`${NS}/endpoints/kubernetes`);
    expect(current.status).toBe(200);
    expect((await c.put(`${NS}/endpoints/kubernetes`, current.json)).status).toBe(200);
  });
});

describe('EndpointSlice', () => {
  it('v1 defaults port name and protocol; v1beta1 too', async () => {
    const name = uniqueName('s');
    const r = await c.post(SLICES('v1'), { metadata: { name }, addressType: 'IPv4', endpoints: [{ addresses: ['10.244.0.9'] }], ports: [{ port: 80 }] });
    expect(r.status).toBe(201);
    expect(r.json.ports).toEqual([{ name: '', protocol: 'TCP', port: 80 }]);
    expect(r.json.endpoints).toEqual([{ addresses: ['10.244.0.9'], conditions: {} }]);
    const beta = await c.post(SLICES('v1beta1'), { metadata: { name: uniqueName('s') }, addressType: 'IPv4', endpoints: [{ addresses: ['10.244.0.9'] }], ports: [{ port: 80 }] });
    expect(beta.status).toBe(201);
    expect(beta.json.ports).toEqual([{ name: '', protocol: 'TCP', port: 80 }]);
  });

  it('checks addresses against the address type, and the type is immutable', async () => {
    const name = uniqueName('s');
    const bad = await c.post(SLICES('v1'), { metadata: { name }, addressType: 'IPv6', endpoints: [{ addresses: ['10.0.0.1'] }] });
    expect(failure(bad).message).toBe(`EndpointSlice.discovery.k8s.io "${name}" is invalid: endpoints[0].addresses[0]: Invalid value: "10.0.0.1": must be a valid IPv6 address`);
    expect((await c.post(SLICES('v1'), { metadata: { name }, addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'] }] })).status).toBe(201);
    const changed = await c.patch(`${SLICES('v1')}/${name}`, { addressType: 'FQDN', endpoints: [{ addresses: ['example.com'] }] });
    expect(failure(changed).message).toBe(`EndpointSlice.discovery.k8s.io "${name}" is invalid: addressType: Invalid value: "FQDN": field is immutable`);
  });

  it('v1beta1 topology is checked as deprecatedTopology, as kube reports it', async () => {
    const name = uniqueName('s');
    const r = await c.post(SLICES('v1beta1'), { metadata: { name }, addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'], topology: { 'x/y/z': 'a' } }] });
    expect(failure(r)).toMatchObject({ code: 422, message: expect.stringMatching(new RegExp(`^EndpointSlice.discovery.k8s.io "${name}" is invalid: endpoints\\[0\\]\\.deprecatedTopology: Invalid value: "x/y/z": `)) });
  });

  it('requires an addressType and unique port names', async () => {
    const name = uniqueName('s');
    const r = await c.post(SLICES('v1'), { metadata: { name }, ports: [{ name: 'a', port: 1 }, { name: 'a', port: 2 }] });
    expect(failure(r).message).toBe(`EndpointSlice.discovery.k8s.io "${name}" is invalid: [addressType: Required value, ports[1].name: Duplicate value: "a"]`);
  });

  it("accepts the server's own default/kubernetes EndpointSlice when written back", async () => {
    const current = await c.get(`${SLICES('v1')}/kubernetes`);
    expect(current.status).toBe(200);
    expect((await c.put(`${SLICES('v1')}/kubernetes`, current.json)).status).toBe(200);
  });
});

describe('generation and create-on-update', () => {
  it('EndpointSlice: generation starts at 1 and counts changes; a PUT does not create one', async () => {
    const name = uniqueName('gen');
    const body = { metadata: { name }, addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'] }] };
    const created = await c.post(SLICES('v1'), body);
    expect(created.json.metadata.generation).toBe(1);
    const changed = await c.put(`${SLICES('v1')}/${name}`, { ...created.json, endpoints: [{ addresses: ['10.0.0.2'] }] });
    expect(changed.json.metadata.generation).toBe(2);
    const missing = await c.put(`${SLICES('v1')}/${uniqueName('none')}`, { ...body, metadata: { name: 'x' } });
    expect(failure(missing).code).toBe(404);
  });

  it('PodTemplate: a template change bumps generation', async () => {
    const name = uniqueName('pt');
    const created = await c.post(`${NS}/podtemplates`, { metadata: { name }, template: { spec: { containers } } });
    expect(created.json.metadata.generation).toBe(1);
    const changed = await c.put(`${NS}/podtemplates/${name}`, { ...created.json, template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26' }] } } });
    expect(changed.json.metadata.generation).toBe(2);
  });
});
