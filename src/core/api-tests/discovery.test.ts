// Discovery, /version and OpenAPI through the whole core (request → response), as kubectl reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startTestServer, type TestClient } from '../testing/api-server';

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer({ serverAddress: '127.0.0.1:6443' });
});
afterAll(async () => {
  await c.close();
});

const AGG = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const KUBECTL_ACCEPT = `${AGG},application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json`;

describe('aggregated discovery', () => {
  it('/api answers the core group with the exact Content-Type', async () => {
    const r = await c.get('/api?timeout=32s', { accept: KUBECTL_ACCEPT });
    expect(r.status).toBe(200);
    expect(r.headers['Content-Type']).toBe(AGG);
    expect(r.json.kind).toBe('APIGroupDiscoveryList');
    expect(r.json.apiVersion).toBe('apidiscovery.k8s.io/v2');
    expect(r.json.items).toHaveLength(1);
    const pods = r.json.items[0].versions[0].resources.find((x: any) => x.resource === 'pods');
    expect(pods).toMatchObject({ resource: 'pods', responseKind: { group: '', version: '', kind: 'Pod' }, scope: 'Namespaced', singularResource: 'pod', shortNames: ['po'], categories: ['all'] });
  });

  it('/apis lists the named groups, apps with its scale subresource', async () => {
    const r = await c.get('/apis', { accept: KUBECTL_ACCEPT });
    expect(r.headers['Content-Type']).toBe(AGG);
    const groups = r.json.items.map((g: any) => g.metadata.name);
    for (const g of ['apps', 'batch', 'apiextensions.k8s.io', 'rbac.authorization.k8s.io', 'networking.k8s.io', 'coordination.k8s.io', 'storage.k8s.io']) expect(groups).toContain(g);
    const apps = r.json.items.find((g: any) => g.metadata.name === 'apps');
    const deploy = apps.versions[0].resources.find((x: any) => x.resource === 'deployments');
    expect(deploy.shortNames).toEqual(['deploy']);
    expect(deploy.verbs).toEqual(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    expect(deploy.subresources).toContainEqual({ subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] });
  });
});

describe('legacy discovery', () => {
  it('/api answers APIVersions with the server address', async () => {
    const r = await c.get('/api', { accept: 'application/json' });
    expect(r.headers['Content-Type']).toBe('application/json');
    expect(r.json).toEqual({ kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' }] });
  });

  it('/apis answers APIGroupList with preferred versions', async () => {
    const r = await c.get('/apis');
    expect(r.json.kind).toBe('APIGroupList');
    expect(r.json.apiVersion).toBe('v1');
    const apps = r.json.groups.find((g: any) => g.name === 'apps');
    expect(apps).toEqual({ name: 'apps', versions: [{ groupVersion: 'apps/v1', version: 'v1' }], preferredVersion: { groupVersion: 'apps/v1', version: 'v1' } });
    const autoscaling = r.json.groups.find((g: any) => g.name === 'autoscaling');
    expect(autoscaling.versions.map((v: any) => v.version)).toEqual(['v2', 'v1', 'v2beta2', 'v2beta1']);
    expect(autoscaling.preferredVersion.version).toBe('v2');
  });

  it('/api/v1 and /apis/apps/v1 answer APIResourceLists', async () => {
    const core = (await c.get('/api/v1')).json;
    expect(core.kind).toBe('APIResourceList');
    expect(core.groupVersion).toBe('v1');
    const cms = core.resources.find((x: any) => x.name === 'configmaps');
    expect(cms).toMatchObject({ name: 'configmaps', singularName: '', namespaced: true, kind: 'ConfigMap', shortNames: ['cm'] });
    const apps = (await c.get('/apis/apps/v1')).json;
    expect(apps.groupVersion).toBe('apps/v1');
    expect(apps.resources.find((x: any) => x.name === 'deployments/scale')).toMatchObject({ name: 'deployments/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
  });

  it('/apis/apps answers the APIGroup', async () => {
    const r = await c.get('/apis/apps');
    expect(r.json).toMatchObject({ kind: 'APIGroup', apiVersion: 'v1', name: 'apps', preferredVersion: { groupVersion: 'apps/v1', version: 'v1' } });
  });

  it('an unserved group version → 404', async () => {
    expect(failure(await c.get('/apis/apps/v1beta1'))).toEqual({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource' });
  });
});

describe('/version', () => {
  it('answers v1.23 build info', async () => {
    const r = await c.get('/version?timeout=32s');
    expect(r.status).toBe(200);
    expect(r.headers['Content-Type']).toBe('application/json');
    expect(r.json).toMatchObject({ major: '1', minor: '23', platform: expect.stringMatching(/\//) });
    expect(r.json.gitVersion).toMatch(/^v1\.23\.\d+$/);
  });
});

describe('OpenAPI v3', () => {
  it('the index points at per-group-version documents kubectl can fetch', async () => {
    const index = (await c.get('/openapi/v3?timeout=32s')).json;
    expect(Object.keys(index.paths)).toEqual(expect.arrayContaining(['api/v1', 'apis/apps/v1']));
    const url: string = index.paths['apis/apps/v1'].serverRelativeURL;
    expect(url).toMatch(/^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-Za-z]+$/);
    const doc = await c.get(`${url}&timeout=32s`);
    expect(doc.status).toBe(200);
    expect(doc.json.openapi).toMatch(/^3\./);
    const patch = doc.json.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: 'apps', version: 'v1', kind: 'Deployment' });
    expect(patch.parameters.some((p: any) => p.name === 'fieldValidation' && p.in === 'query')).toBe(true);
    const schema = doc.json.components.schemas['io.k8s.api.apps.v1.Deployment'];
    expect(schema['x-kubernetes-group-version-kind']).toEqual([{ group: 'apps', version: 'v1', kind: 'Deployment' }]);
  });

  it('an unknown document → 404; /openapi/v2 is served as v1.23 serves it (api-openapi-v2.test.ts)', async () => {
    expect((await c.get('/openapi/v3/apis/nogroup/v1')).status).toBe(404);
    expect((await c.get('/openapi/v2')).status).toBe(200);
  });
});
