// A CRD served at several versions (conversion strategy None): one key space, apiVersion
// rewritten per request, storedVersions, deprecation warnings, per-version schemas, unserved
// versions absent from discovery/OpenAPI and answering 404, and kube's version validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectStream, eventually, failure, startTestServer, statusOf, type TestClient } from '../testing/api-server';

let c: TestClient;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const NAME = 'widgets.multi.example.com';
const at = (v: string) => `/apis/multi.example.com/${v}/namespaces/default/widgets`;

const schema = (sizeType: string) => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: sizeType }, color: { type: 'string' } } } } } });

function crd(versions: unknown[]) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: NAME },
    spec: { group: 'multi.example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' }, versions },
  };
}

const V1BETA1 = { name: 'v1beta1', served: true, storage: false, deprecated: true, schema: schema('string') };
const V1 = { name: 'v1', served: true, storage: true, schema: schema('integer') };
const V2 = { name: 'v2', served: false, storage: false, schema: schema('integer') };

const widget = (version: string, name: string, spec: Record<string, unknown>) => ({ apiVersion: `multi.example.com/${version}`, kind: 'Widget', metadata: { name }, spec });

beforeAll(async () => {
  c = await startTestServer();
  expect((await c.post(CRDS, crd([V1BETA1, V1, V2]))).status).toBe(201);
  await eventually(async () => ((await c.get(`${CRDS}/${NAME}`)).json.status?.storedVersions?.length ? true : undefined));
});
afterAll(async () => {
  await c.close();
});

describe('multi-version CRD', () => {
  it('status.storedVersions starts with the storage version', async () => {
    expect((await c.get(`${CRDS}/${NAME}`)).json.status.storedVersions).toEqual(['v1']);
  });

  it('an object written at one version reads at every served version with apiVersion rewritten', async () => {
    const created = await c.post(at('v1'), widget('v1', 'a', { size: 3 }));
    expect(created.status).toBe(201);
    const old = await c.get(`${at('v1beta1')}/a`);
    expect(old.status).toBe(200);
    expect(old.json).toMatchObject({ apiVersion: 'multi.example.com/v1beta1', kind: 'Widget', spec: { size: 3 } });
    const list = (await c.get(at('v1beta1'))).json;
    expect(list.apiVersion).toBe('multi.example.com/v1beta1');
    expect(list.items.map((i: any) => [i.apiVersion, i.metadata.name])).toEqual([['multi.example.com/v1beta1', 'a']]);
  });

  it('each version validates with its own schema', async () => {
    // v1beta1 types size as a string, v1 as an integer.
    const bad = await c.post(at('v1beta1'), widget('v1beta1', 'b', { size: 3 }));
    expect(bad.status).toBe(422);
    expect(statusOf(bad).message).toBe('Widget.multi.example.com "b" is invalid: spec.size: Invalid value: "integer": spec.size in body must be of type string: "integer"');
    const ok = await c.post(at('v1beta1'), widget('v1beta1', 'b', { size: 'large' }));
    expect(ok.status).toBe(201);
    expect((await c.get(`${at('v1')}/b`)).json.apiVersion).toBe('multi.example.com/v1');
  });

  it('a deprecated version answers with the default Warning; the current one with none', async () => {
    const r = await c.get(`${at('v1beta1')}/a`);
    expect(r.headers['Warning']).toBe('299 - "multi.example.com/v1beta1 Widget is deprecated; use multi.example.com/v1 Widget"');
    expect((await c.get(`${at('v1')}/a`)).headers['Warning']).toBeUndefined();
    // Audit: deprecated, but no removed-release annotation (a CRD version has none).
    const events = c.api.audit?.events() ?? [];
    const ev = events.filter((e) => e.requestURI === `${at('v1beta1')}/a`).pop();
    expect(ev?.annotations).toEqual({ 'k8s.io/deprecated': 'true' });
  });

  it('an unserved version is absent from discovery and OpenAPI and answers 404', async () => {
    expect(failure(await c.get(at('v2')))).toMatchObject({ code: 404 });
    const group = (await c.get('/apis/multi.example.com')).json;
    expect(group.versions.map((v: any) => v.version)).toEqual(['v1', 'v1beta1']);
    expect(group.preferredVersion.version).toBe('v1');
    const paths = Object.keys((await c.get('/openapi/v3')).json.paths);
    expect(paths).toEqual(expect.arrayContaining(['apis/multi.example.com/v1', 'apis/multi.example.com/v1beta1']));
    expect(paths).not.toContain('apis/multi.example.com/v2');
    const agg = (await c.get('/apis', { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' })).json;
    const g = agg.items.find((x: any) => x.metadata.name === 'multi.example.com');
    expect(g.versions.map((v: any) => v.version)).toEqual(['v1', 'v1beta1']);
  });

  it('watches at either version see every object at that version', async () => {
    const watch = collectStream((await c.get(`${at('v1beta1')}?watch=true&resourceVersion=0`)).raw);
    try {
      await c.post(at('v1'), widget('v1', 'w', { size: 1 }));
      const events = await watch.waitFor(3);
      expect(events.map((e) => e.object.apiVersion)).toEqual(['multi.example.com/v1beta1', 'multi.example.com/v1beta1', 'multi.example.com/v1beta1']);
      expect(events.map((e) => e.object.metadata.name).sort()).toEqual(['a', 'b', 'w']);
    } finally {
      watch.cancel();
    }
  });

  it('serving and moving the storage version: v2 appears and storedVersions grows', async () => {
    const cur = (await c.get(`${CRDS}/${NAME}`)).json;
    cur.spec.versions = [V1BETA1, { ...V1, storage: false }, { ...V2, served: true, storage: true, deprecated: true, deprecationWarning: 'v2 is not for you' }];
    const put = await c.put(`${CRDS}/${NAME}`, cur);
    expect(put.status).toBe(200);
    expect(put.json.status.storedVersions).toEqual(['v1', 'v2']);
    const got = await eventually(async () => {
      const r = await c.get(`${at('v2')}/a`);
      return r.status === 200 ? r : undefined;
    });
    expect(got.json.apiVersion).toBe('multi.example.com/v2');
    expect(got.headers['Warning']).toBe('299 - "v2 is not for you"');
  });

  it('removing a version still in storedVersions is refused', async () => {
    const cur = (await c.get(`${CRDS}/${NAME}`)).json;
    cur.spec.versions = cur.spec.versions.filter((v: any) => v.name !== 'v1');
    const r = await c.put(`${CRDS}/${NAME}`, cur);
    expect(r.status).toBe(422);
    expect(statusOf(r).message).toBe(`CustomResourceDefinition.apiextensions.k8s.io "${NAME}" is invalid: status.storedVersions[0]: Invalid value: "v1": must appear in spec.versions`);
  });
});

describe('CRD version validation', () => {
  const create = async (versions: unknown[]) => statusOf(await c.post(CRDS, { ...crd(versions), metadata: { name: 'gadgets.multi.example.com' }, spec: { ...crd(versions).spec, names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' } } }));

  it('exactly one storage version', async () => {
    const s = await create([{ ...V1, name: 'v1' }, { ...V1, name: 'v2' }]);
    expect(s.code).toBe(422);
    expect(s.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: []apiextensions.CustomResourceDefinitionVersion{...}: must have exactly one version marked as storage version', field: 'spec.versions' }]);
  });

  it('unique version names', async () => {
    const s = await create([V1, { ...V1, storage: false }]);
    expect(s.details.causes.map((x: any) => x.message)).toEqual(['Invalid value: []apiextensions.CustomResourceDefinitionVersion{...}: must contain unique version names']);
  });

  it('deprecationWarning only on deprecated versions, never empty', async () => {
    const s = await create([{ ...V1, deprecationWarning: 'x' }, { ...V1BETA1, name: 'v1beta2', deprecationWarning: '' }]);
    expect(s.details.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: "x": can only be set for deprecated versions', field: 'spec.versions[0].deprecationWarning' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": must not be an empty string', field: 'spec.versions[1].deprecationWarning' },
    ]);
  });
});
