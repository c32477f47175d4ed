// Object semantics of create/update/patch through the whole core: system fields, generation,
// optimistic concurrency, create-on-update, merge and JSON patch, field validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_PATCH, MERGE_PATCH, configMap, deployment, failure, startTestServer, statusOf, type TestClient } from '../testing/api-server';

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

const CM = '/api/v1/namespaces/default/configmaps';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';

describe('create', () => {
  it('fills uid, creationTimestamp, resourceVersion and the namespace from the URL', async () => {
    const r = await c.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'sys' }, data: { a: '1' } });
    expect(r.status).toBe(201);
    const m = r.json.metadata;
    expect(Object.keys(r.json)).toEqual(['kind', 'apiVersion', 'metadata', 'data']);
    expect(m.namespace).toBe('default');
    expect(m.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(m.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(m.resourceVersion).toMatch(/^[1-9][0-9]*$/);
    expect(m.generation).toBeUndefined();
    const got = await c.get(`${CM}/sys`);
    expect(got.json).toEqual(r.json);
  });

  it('accepts a body without kind and apiVersion', async () => {
    const r = await c.post(CM, { metadata: { name: 'bare' } });
    expect(r.status).toBe(201);
    expect(r.json.kind).toBe('ConfigMap');
    expect(r.json.apiVersion).toBe('v1');
  });

  it('generateName appends five random characters', async () => {
    const a = await c.post(CM, { metadata: { generateName: 'gen-' } });
    const b = await c.post(CM, { metadata: { generateName: 'gen-' } });
    expect(a.status).toBe(201);
    expect(a.json.metadata.name).toMatch(/^gen-[a-z0-9]{5}$/);
    expect(a.json.metadata.generateName).toBe('gen-');
    expect(b.json.metadata.name).not.toBe(a.json.metadata.name);
  });

  it('ignores uid and creationTimestamp sent by the client', async () => {
    const r = await c.post(CM, configMap('fake-sys', {}, { uid: 'not-a-uid', creationTimestamp: '2000-01-01T00:00:00Z' }));
    expect(r.json.metadata.uid).not.toBe('not-a-uid');
    expect(r.json.metadata.creationTimestamp).not.toBe('2000-01-01T00:00:00Z');
  });

  it('a resourceVersion sent on create: a revision is a plain-error 500 from storage, after validation; anything else is ignored', async () => {
    const withRv = (name: string, resourceVersion: string) => ({ ...configMap(name), metadata: { name, resourceVersion } });
    expect(failure(await c.post(CM, withRv('rv-set', '5')))).toEqual({ code: 500, reason: undefined, message: 'resourceVersion should not be set on objects to be created' });
    expect((await c.get(`${CM}/rv-set`)).status).toBe(404);
    // Validation comes first; a dry run never reaches the check.
    expect((await c.post(CM, withRv('Bad_Name', '5'))).status).toBe(422);
    expect((await c.post(`${CM}?dryRun=All`, withRv('rv-dry', '5'))).status).toBe(201);
    // Not a revision (or revision 0): the create goes through with a real one.
    for (const [name, rv] of [['rv-text', 'abc'], ['rv-zero', '0']]) {
      const r = await c.post(CM, withRv(name, rv));
      expect(r.status).toBe(201);
      expect(r.json.metadata.resourceVersion).toMatch(/^[1-9][0-9]*$/);
    }
  });

  it('dryRun=All answers the object and stores nothing', async () => {
    const r = await c.post(`${CM}?dryRun=All`, configMap('dry'));
    expect(r.status).toBe(201);
    expect(r.json.metadata.name).toBe('dry');
    expect((await c.get(`${CM}/dry`)).status).toBe(404);
  });
});

describe('generation', () => {
  it('starts at 1, is bumped by spec changes and not by metadata changes', async () => {
    const created = await c.post(DEPLOY, deployment('gen'));
    expect(created.status).toBe(201);
    expect(created.json.metadata.generation).toBe(1);
    const scaled = await c.patch(`${DEPLOY}/gen`, { spec: { replicas: 3 } });
    expect(scaled.status).toBe(200);
    expect(scaled.json.metadata.generation).toBe(2);
    const labelled = await c.patch(`${DEPLOY}/gen`, { metadata: { labels: { extra: 'yes' } } });
    expect(labelled.json.metadata.generation).toBe(2);
    expect(labelled.json.metadata.labels).toEqual({ app: 'gen', extra: 'yes' });
  });
});

describe('update (PUT)', () => {
  it('replaces the object and advances resourceVersion', async () => {
    const created = (await c.post(CM, configMap('put1'))).json;
    const body = { ...created, data: { b: '2' } };
    const r = await c.put(`${CM}/put1`, body);
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ b: '2' });
    expect(Number(r.json.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    expect(r.json.metadata.uid).toBe(created.metadata.uid);
    expect(r.json.metadata.creationTimestamp).toBe(created.metadata.creationTimestamp);
  });

  it('a stale resourceVersion → 409 Conflict with kube-apiserver message', async () => {
    const created = (await c.post(CM, configMap('stale'))).json;
    await c.put(`${CM}/stale`, { ...created, data: { v: '2' } });
    const r = await c.put(`${CM}/stale`, { ...created, data: { v: '3' } });
    expect(statusOf(r)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Operation cannot be fulfilled on configmaps "stale": the object has been modified; please apply your changes to the latest version and try again',
      reason: 'Conflict',
      details: { name: 'stale', kind: 'configmaps' },
      code: 409,
    });
  });

  it('a stale resourceVersion in a merge patch → 409 too', async () => {
    const created = (await c.post(DEPLOY, deployment('stale-d'))).json;
    await c.patch(`${DEPLOY}/stale-d`, { spec: { replicas: 2 } });
    const r = await c.patch(`${DEPLOY}/stale-d`, { metadata: { resourceVersion: created.metadata.resourceVersion }, spec: { replicas: 5 } });
    expect(failure(r)).toEqual({
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on deployments.apps "stale-d": the object has been modified; please apply your changes to the latest version and try again',
    });
  });

  it('creates on PUT only where the strategy allows it', async () => {
    const cm = await c.put(`${CM}/put-new`, configMap('put-new'));
    expect(failure(cm)).toEqual({ code: 404, reason: 'NotFound', message: 'configmaps "put-new" not found' });
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'put-svc' }, spec: { ports: [{ port: 80 }] } };
    const s = await c.put('/api/v1/namespaces/default/services/put-svc', svc);
    expect(s.status).toBe(201);
    expect(s.json.spec.clusterIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'put-lease' }, spec: { holderIdentity: 'me' } };
    const l = await c.put('/apis/coordination.k8s.io/v1/namespaces/default/leases/put-lease', lease);
    expect(l.status).toBe(201);
    expect(l.json.spec.holderIdentity).toBe('me');
  });
});

describe('patch', () => {
  it('merge patch adds, replaces and removes keys', async () => {
    await c.post(CM, configMap('mp', { a: '1', b: '2' }));
    const r = await c.patch(`${CM}/mp`, { data: { a: 'x', b: null, c: '3' } }, MERGE_PATCH);
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ a: 'x', c: '3' });
  });

  it('JSON patch applies operations in order', async () => {
    await c.post(CM, configMap('jp', { a: '1' }));
    const ops = [
      { op: 'test', path: '/data/a', value: '1' },
      { op: 'add', path: '/data/b', value: '2' },
      { op: 'remove', path: '/data/a' },
    ];
    const r = await c.patch(`${CM}/jp`, ops, JSON_PATCH);
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ b: '2' });
  });

  it('a failing JSON patch test → 422 and nothing changes', async () => {
    await c.post(CM, configMap('jp-test', { a: '1' }));
    const r = await c.patch(`${CM}/jp-test`, [{ op: 'test', path: '/data/a', value: 'nope' }, { op: 'add', path: '/data/b', value: '2' }], JSON_PATCH);
    expect(statusOf(r)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server rejected our request due to an error in our request',
      reason: 'Invalid',
      details: {},
      code: 422,
    });
    expect((await c.get(`${CM}/jp-test`)).json.data).toEqual({ a: '1' });
  });

  it('a JSON patch that is not a list → 400', async () => {
    await c.post(CM, configMap('jp-bad'));
    const r = await c.patch(`${CM}/jp-bad`, { op: 'add' }, JSON_PATCH);
    expect(failure(r)).toEqual({ code: 400, reason: 'BadRequest', message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' });
  });

  it('an unknown patch content type → 415', async () => {
    await c.post(CM, configMap('p415'));
    const r = await c.patch(`${CM}/p415`, { data: {} }, 'application/json');
    expect(r.status).toBe(415);
    expect(r.json.reason).toBe('UnsupportedMediaType');
  });

  it('a patch that makes the object invalid → 422', async () => {
    await c.post(DEPLOY, deployment('p422'));
    const r = await c.patch(`${DEPLOY}/p422`, { spec: { replicas: -1 } });
    expect(failure(r)).toEqual({
      code: 422,
      reason: 'Invalid',
      message: 'Deployment.apps "p422" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    });
  });
});

describe('fieldValidation', () => {
  const withUnknown = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fv' }, data: { a: '1' }, foo: 1 };

  it('Strict: unknown field → 400 strict decoding error', async () => {
    const r = await c.post(`${CM}?fieldValidation=Strict`, { ...withUnknown, metadata: { name: 'fv-strict' } });
    expect(failure(r)).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "foo"',
    });
    expect((await c.get(`${CM}/fv-strict`)).status).toBe(404);
  });

  it('Strict: nested unknown and duplicate fields are all reported', async () => {
    const text = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fv-dup","bogus":true},"data":{"a":"1"},"data":{"b":"2"}}';
    const r = await c.post(`${CM}?fieldValidation=Strict`, text);
    expect(r.status).toBe(400);
    expect(r.json.reason).toBe('BadRequest');
    expect(r.json.message).toMatch(/^ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: /);
    expect(r.json.message).toContain('unknown field "metadata.bogus"');
    expect(r.json.message).toContain('duplicate field "data"');
  });

  it('Warn: stored without the field, Warning header names it', async () => {
    const r = await c.post(`${CM}?fieldValidation=Warn`, { ...withUnknown, metadata: { name: 'fv-warn' } });
    expect(r.status).toBe(201);
    expect(r.headers['Warning']).toBe('299 - "unknown field \\"foo\\""');
    expect(r.json.foo).toBeUndefined();
  });

  it('Ignore: stored without the field and without a warning', async () => {
    const r = await c.post(`${CM}?fieldValidation=Ignore`, { ...withUnknown, metadata: { name: 'fv-ignore' } });
    expect(r.status).toBe(201);
    expect(r.headers['Warning']).toBeUndefined();
    expect(r.json.foo).toBeUndefined();
  });

  it('Warn: a duplicate field is reported in the Warning header', async () => {
    const text = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fv-dup-warn"},"data":{"a":"1"},"data":{"b":"2"}}';
    const r = await c.post(`${CM}?fieldValidation=Warn`, text);
    expect(r.status).toBe(201);
    expect(r.headers['Warning']).toBe('299 - "duplicate field \\"data\\""');
    expect(r.json.data).toEqual({ b: '2' });
  });

  it('Warn: strings holding quotes, backslashes and colons neither hide a duplicate nor make one up', async () => {
    // Values ending in an escaped backslash (`\\"` closes the string) and holding escaped quotes
    // followed by colons: the member count (body.ts) must see through all of them.
    const tricky = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"NAME"},"data":{"a":"x\\\\","b":"\\":\\"d\\\\\\"","e":"f:g"}}';
    const clean = await c.post(`${CM}?fieldValidation=Warn`, tricky.replace('NAME', 'fv-escapes'));
    expect(clean.status).toBe(201);
    expect(clean.headers['Warning']).toBeUndefined();
    expect(clean.json.data).toEqual({ a: 'x\\', b: '":"d\\"', e: 'f:g' });
    const dup = await c.post(`${CM}?fieldValidation=Warn`, tricky.replace('NAME', 'fv-escapes-dup').replace('"e":"f:g"', '"e":"f:g","e":"h\\\\"'));
    expect(dup.status).toBe(201);
    expect(dup.headers['Warning']).toBe('299 - "duplicate field \\"data.e\\""');
    expect(dup.json.data.e).toBe('h\\');
  });

  it('Strict applies to PUT as well', async () => {
    const created = (await c.post(CM, configMap('fv-put'))).json;
    const r = await c.put(`${CM}/fv-put?fieldValidation=Strict`, { ...created, extra: 'x' });
    expect(failure(r)).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "extra"',
    });
  });
});
