// The APIServices kube-apiserver keeps for itself: one per served built-in group/version from the
// start (automanaged onstart), one per group/version CRDs serve (automanaged "true", following
// the CRDs), the Available condition, the table `kubectl get apiservices` prints, and what a
// restart with another --runtime-config does to them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBackend } from '../storage/memory-backend';
import { TABLE_V1, eventually, startTestServer, type TestClient } from '../testing/api-server';

const APIS = '/apis/apiregistration.k8s.io/v1/apiservices';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const LABEL = 'kube-aggregator.kubernetes.io/automanaged';
const LOCAL = { type: 'Available', status: 'True', reason: 'Local', message: 'Local APIServices are always available' };

/** Every group/version the server serves by default but apiregistration.k8s.io/v1 (kube has no APIService for it). */
const BUILTIN_NAMES = [
  'v1.',
  'v1.admissionregistration.k8s.io',
  'v1.apiextensions.k8s.io',
  'v1.apps',
  'v1.authentication.k8s.io',
  'v1.authorization.k8s.io',
  'v1.autoscaling',
  'v1.batch',
  'v1.certificates.k8s.io',
  'v1.coordination.k8s.io',
  'v1.discovery.k8s.io',
  'v1.events.k8s.io',
  'v1.networking.k8s.io',
  'v1.node.k8s.io',
  'v1.policy',
  'v1.rbac.authorization.k8s.io',
  'v1.scheduling.k8s.io',
  'v1.storage.k8s.io',
  'v1beta1.batch',
  'v1beta1.discovery.k8s.io',
  'v1beta1.events.k8s.io',
  'v1beta1.flowcontrol.apiserver.k8s.io',
  'v1beta1.node.k8s.io',
  'v1beta1.policy',
  'v1beta1.storage.k8s.io',
  'v1beta2.flowcontrol.apiserver.k8s.io',
  'v2.autoscaling',
  'v2beta1.autoscaling',
  'v2beta2.autoscaling',
];

const crd = (group: string, plural: string, versions: Array<{ name: string; served: boolean }>) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural, singular: plural.slice(0, -1), kind: plural[0].toUpperCase() + plural.slice(1, -1) },
    versions: versions.map((v, i) => ({ ...v, storage: i === 0, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } })),
  },
});

async function names(c: TestClient): Promise<string[]> {
  return (await c.get(APIS)).json.items.map((i: { metadata: { name: string } }) => i.metadata.name);
}

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

describe('built-in APIServices', () => {
  it('exist from the start, one per served group/version, with 1.23 priorities and the onstart label', async () => {
    expect(await names(c)).toEqual(BUILTIN_NAMES);
    const apps = (await c.get(`${APIS}/v1.apps`)).json;
    expect(apps.metadata.labels).toEqual({ [LABEL]: 'onstart' });
    // The APIService strategy does not track generation.
    expect(apps.metadata.generation).toBeUndefined();
    expect(apps.spec).toEqual({ group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 });
    expect(apps.status.conditions).toHaveLength(1);
    expect(apps.status.conditions[0]).toMatchObject(LOCAL);
    expect(apps.status.conditions[0].lastTransitionTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    // The core group has no group in its spec (Go leaves the empty string out).
    expect((await c.get(`${APIS}/v1.`)).json.spec).toEqual({ version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 });
    expect((await c.get(`${APIS}/v2.autoscaling`)).json.spec).toMatchObject({ groupPriorityMinimum: 17500, versionPriority: 30 });
    expect((await c.get(`${APIS}/v1beta2.flowcontrol.apiserver.k8s.io`)).json.spec).toMatchObject({ groupPriorityMinimum: 16100, versionPriority: 15 });
  });

  it('print as kubectl shows them: NAME, SERVICE, AVAILABLE, AGE', async () => {
    const table = (await c.get(APIS, { accept: TABLE_V1 })).json;
    expect(table.columnDefinitions.map((d: { name: string }) => d.name)).toEqual(['Name', 'Service', 'Available', 'Age']);
    const row = table.rows.find((r: { cells: unknown[] }) => r.cells[0] === 'v1.apps');
    expect(row.cells.slice(0, 3)).toEqual(['v1.apps', 'Local', 'True']);
    expect(row.cells[3]).toMatch(/^\d+s$/);
  });

  it('a client rewriting the status of a local one gets Local back', async () => {
    const r = await c.patch(`${APIS}/v1.batch/status`, { status: { conditions: [{ type: 'Available', status: 'False', reason: 'Broken', message: 'no' }] } });
    expect(r.status).toBe(200);
    const conditions = await eventually(async () => {
      const got = (await c.get(`${APIS}/v1.batch`)).json.status.conditions;
      return got[0].reason === 'Local' ? got : undefined;
    });
    expect(conditions).toHaveLength(1);
    expect(conditions[0]).toMatchObject(LOCAL);
  });
});

describe('APIServices of CRDs', () => {
  it('follow the served versions of the CRDs: created, added, kept while another CRD serves them, deleted', async () => {
    expect((await c.post(CRDS, crd('stable.example.com', 'widgets', [{ name: 'v1', served: true }, { name: 'v2', served: false }]))).status).toBe(201);
    const v1 = (await c.get(`${APIS}/v1.stable.example.com`)).json;
    expect(v1.metadata.labels).toEqual({ [LABEL]: 'true' });
    expect(v1.spec).toEqual({ group: 'stable.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100 });
    expect(v1.status.conditions[0]).toMatchObject(LOCAL);
    expect((await c.get(`${APIS}/v2.stable.example.com`)).status).toBe(404);

    // Serving v2 registers it; a second CRD of the same group/version shares v1's.
    const served = crd('stable.example.com', 'widgets', [{ name: 'v1', served: true }, { name: 'v2', served: true }]);
    expect((await c.patch(`${CRDS}/widgets.stable.example.com`, { spec: { versions: served.spec.versions } })).status).toBe(200);
    expect((await c.get(`${APIS}/v2.stable.example.com`)).status).toBe(200);
    expect((await c.post(CRDS, crd('stable.example.com', 'gadgets', [{ name: 'v1', served: true }]))).status).toBe(201);

    // A deleted CRD terminates first (its objects are cleaned up); its APIServices go with it.
    const gone = (url: string) => eventually(async () => ((await c.get(url)).status === 404 ? true : undefined));
    expect((await c.del(`${CRDS}/widgets.stable.example.com`)).status).toBe(200);
    await gone(`${APIS}/v2.stable.example.com`);
    expect((await c.get(`${APIS}/v1.stable.example.com`)).status).toBe(200);
    expect((await c.del(`${CRDS}/gadgets.stable.example.com`)).status).toBe(200);
    await gone(`${APIS}/v1.stable.example.com`);
    expect(await names(c)).toEqual(BUILTIN_NAMES);
  });

  it('leave a built-in group/version its own APIService', async () => {
    const shared = crd('events.k8s.io', 'notes', [{ name: 'v1', served: true }]);
    const approved = { ...shared, metadata: { ...shared.metadata, annotations: { 'api-approved.kubernetes.io': 'https://github.com/kubernetes/kubernetes/pull/1' } } };
    expect((await c.post(CRDS, approved)).status).toBe(201);
    const events = (await c.get(`${APIS}/v1.events.k8s.io`)).json;
    expect(events.metadata.labels).toEqual({ [LABEL]: 'onstart' });
    expect(events.spec).toEqual({ group: 'events.k8s.io', version: 'v1', groupPriorityMinimum: 17750, versionPriority: 15 });
    expect((await c.del(`${CRDS}/notes.events.k8s.io`)).status).toBe(200);
    expect((await c.get(`${APIS}/v1.events.k8s.io`)).status).toBe(200);
  });

  it('a deleted or edited CRD APIService is put back', async () => {
    expect((await c.post(CRDS, crd('back.example.com', 'things', [{ name: 'v1', served: true }]))).status).toBe(201);
    expect((await c.patch(`${APIS}/v1.back.example.com`, { spec: { versionPriority: 7 } })).status).toBe(200);
    await eventually(async () => ((await c.get(`${APIS}/v1.back.example.com`)).json.spec.versionPriority === 100 ? true : undefined));
    expect((await c.del(`${APIS}/v1.back.example.com`)).status).toBe(200);
    const again = await eventually(async () => {
      const r = await c.get(`${APIS}/v1.back.example.com`);
      return r.status === 200 ? r.json : undefined;
    });
    expect(again.metadata.labels).toEqual({ [LABEL]: 'true' });
    expect((await c.del(`${CRDS}/things.back.example.com`)).status).toBe(200);
  });
});

describe('an APIService of an aggregated server', () => {
  const svcRef = { namespace: 'default', name: 'metrics', port: 443 };
  const remote = { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1beta1.metrics.k8s.io' }, spec: { group: 'metrics.k8s.io', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 100, service: svcRef } };
  const available = (want: string) =>
    eventually(async () => {
      const conditions = (await c.get(`${APIS}/v1beta1.metrics.k8s.io`)).json.status?.conditions;
      return conditions?.[0]?.reason === want ? conditions[0] : undefined;
    });

  it('is checked against its Service and Endpoints, step by step, as kube-aggregator does', async () => {
    const created = await c.post(APIS, remote);
    expect(created.status).toBe(201);
    expect(created.json.status).toEqual({});
    expect(await available('ServiceNotFound')).toMatchObject({ type: 'Available', status: 'False', message: 'service/metrics in "default" is not present' });
    const row = (await c.get(`${APIS}/v1beta1.metrics.k8s.io`, { accept: TABLE_V1 })).json.rows[0];
    expect(row.cells.slice(0, 3)).toEqual(['v1beta1.metrics.k8s.io', 'default/metrics', 'False (ServiceNotFound)']);

    const svc = { metadata: { name: 'metrics' }, spec: { ports: [{ name: 'https', port: 8443 }] } };
    expect((await c.post('/api/v1/namespaces/default/services', svc)).status).toBe(201);
    expect((await available('ServicePortError')).message).toBe('service/metrics in "default" is not listening on port 443');
    expect((await c.patch('/api/v1/namespaces/default/services/metrics', { spec: { ports: [{ name: 'https', port: 443 }] } })).status).toBe(200);
    expect((await available('EndpointsNotFound')).message).toBe('cannot find endpoints for service/metrics in "default"');
    const eps = { metadata: { name: 'metrics' }, subsets: [{ addresses: [{ ip: '10.244.0.5' }], ports: [{ name: 'other', port: 443 }] }] };
    expect((await c.post('/api/v1/namespaces/default/endpoints', eps)).status).toBe(201);
    expect((await available('MissingEndpoints')).message).toBe('endpoints for service/metrics in "default" have no addresses with port name "https"');
    expect((await c.patch('/api/v1/namespaces/default/endpoints/metrics', { subsets: [{ addresses: [{ ip: '10.244.0.5' }], ports: [{ name: 'https', port: 443 }] }] })).status).toBe(200);
    const ip = (await c.get('/api/v1/namespaces/default/services/metrics')).json.spec.clusterIP;
    const url = `https://${ip}:443/apis/metrics.k8s.io/v1beta1`;
    expect((await available('FailedDiscoveryCheck')).message).toBe(`failing or missing response from ${url}: Get "${url}": dial tcp ${ip}:443: connect: connection refused`);
    expect((await c.del(`${APIS}/v1beta1.metrics.k8s.io`)).status).toBe(200);
  });
});

describe('a restart', () => {
  it('deletes the onstart APIServices of group/versions no longer served, puts specs back, and leaves clients\' alone', async () => {
    const backend = createMemoryBackend();
    const first = await startTestServer({ backend });
    expect((await first.patch(`${APIS}/v1.apps`, { spec: { versionPriority: 3 } })).status).toBe(200);
    expect((await first.del(`${APIS}/v1.policy`)).status).toBe(200);
    const mine = { metadata: { name: 'v1.mine.example.com' }, spec: { group: 'mine.example.com', version: 'v1', groupPriorityMinimum: 10, versionPriority: 10 } };
    expect((await first.post(APIS, mine)).status).toBe(201);
    expect((await first.post(CRDS, crd('kept.example.com', 'boxes', [{ name: 'v1', served: true }]))).status).toBe(201);
    await first.close();

    const second = await startTestServer({ backend, runtimeConfig: 'batch/v1beta1=false,policy/v1beta1=false' });
    try {
      const after = await names(second);
      expect(after).not.toContain('v1beta1.batch');
      expect(after).not.toContain('v1beta1.policy');
      expect(after).toContain('v1.policy');
      expect(after).toContain('v1.mine.example.com');
      expect(after).toContain('v1.kept.example.com');
      expect((await second.get(`${APIS}/v1.apps`)).json.spec.versionPriority).toBe(15);
      expect((await second.get(`${APIS}/v1.mine.example.com`)).json.status.conditions[0]).toMatchObject(LOCAL);
    } finally {
      await second.close();
    }
  });

  it('writes no APIService when every one is as it should be', async () => {
    const backend = createMemoryBackend();
    const versions = async (t: TestClient) => (await t.get(APIS)).json.items.map((i: { metadata: { name: string; resourceVersion: string } }) => `${i.metadata.name}@${i.metadata.resourceVersion}`);
    const first = await startTestServer({ backend });
    expect((await first.post(CRDS, crd('same.example.com', 'cups', [{ name: 'v1', served: true }]))).status).toBe(201);
    const before = await versions(first);
    await first.close();
    const second = await startTestServer({ backend });
    try {
      expect(await versions(second)).toEqual(before);
    } finally {
      await second.close();
    }
  });
});
