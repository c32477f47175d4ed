// Bodies and patch results are decoded as the kind: a value of the wrong JSON type never reaches
// storage (a body: 400 from the decoder; a patch: 422 on `patch`), and a patch cannot add a field
// the kind does not have (fieldValidation decides between an error, a warning and silence).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_PATCH, deployment, failure, startTestServer, type TestClient } from '../testing/api-server';

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

const CM = '/api/v1/namespaces/default/configmaps';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
const SMP = 'application/strategic-merge-patch+json';
const cm = (name: string, data: Record<string, unknown> = { a: '1' }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

describe('request bodies of built-in kinds', () => {
  it('create and update refuse a mistyped value with the decoder error, and store nothing', async () => {
    expect(failure(await c.post(CM, cm('typed', { a: 1 })))).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    });
    expect((await c.get(`${CM}/typed`)).status).toBe(404);
    const live = (await c.post(DEPLOY, deployment('typed'))).json;
    const r = await c.put(`${DEPLOY}/typed`, { ...live, spec: { ...live.spec, replicas: '3' } });
    expect(failure(r)).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    });
    expect((await c.get(`${DEPLOY}/typed`)).json.spec.replicas).toBe(1);
  });

  it('[]byte fields must be base64 and times must parse, with base64 and time.Parse in their own words', async () => {
    const MWC = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
    const hook = (caBundle: string) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: `b64-${caBundle.length}` }, webhooks: [{ name: 'a.example.com', clientConfig: { url: 'https://x.example.com', caBundle }, sideEffects: 'None', admissionReviewVersions: ['v1'] }] });
    expect(failure(await c.post(MWC, hook('!!!')))).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: 'MutatingWebhookConfiguration in version "v1" cannot be handled as a MutatingWebhookConfiguration: illegal base64 data at input byte 0',
    });
    expect(failure(await c.post(MWC, hook('aGVsbG8'))).message).toMatch(/: illegal base64 data at input byte 4$/);
    expect((await c.post(MWC, hook('aGVsbG8='))).status).toBe(201);
    expect(failure(await c.post(CM, { ...cm('timed'), metadata: { name: 'timed', creationTimestamp: 'yesterday' } }))).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
    });
    // MicroTime wants exactly six fractional digits (RFC3339Micro), as client-go writes it.
    const event = (eventTime: string) => ({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: `ev-${eventTime.length}` }, eventTime, reportingController: 'x/y', reportingInstance: 'i', action: 'A', reason: 'R', regarding: { kind: 'Pod', name: 'p', namespace: 'default' }, type: 'Normal' });
    expect(failure(await c.post('/apis/events.k8s.io/v1/namespaces/default/events', event('2021-01-01T00:00:00Z'))).message).toBe(
      'Event in version "v1" cannot be handled as a Event: parsing time "2021-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    );
    expect((await c.post('/apis/events.k8s.io/v1/namespaces/default/events', event('2021-01-01T00:00:00.000001Z'))).status).toBe(201);
  });

  it('a null list item is the zero value Go decodes it to, so validation reports it (not a 500)', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'null-item' }, spec: { containers: [null] } };
    const r = await c.post('/api/v1/namespaces/default/pods', pod);
    expect(r.status).toBe(422);
    expect(r.json.details.causes).toContainEqual({ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].name' });
    const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'nulls.example.com' }, spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'nulls', kind: 'Null' }, versions: [null] } };
    expect((await c.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(422);
  });

  it('a mistyped value is refused even with fieldValidation=Ignore', async () => {
    expect((await c.post(`${CM}?fieldValidation=Ignore`, cm('ignored', { a: true }))).status).toBe(400);
  });
});

describe('patch results', () => {
  it('a mistyped value from any patch type is a 422 on the patch, and the object is unchanged', async () => {
    await c.post(CM, cm('p1'));
    const patches: Array<[unknown, string | undefined]> = [
      [{ data: { b: 2 } }, undefined],
      [{ data: { b: 2 } }, SMP],
      [[{ op: 'add', path: '/data/b', value: 2 }], JSON_PATCH],
    ];
    for (const [patch, type] of patches) {
      const r = await c.patch(`${CM}/p1`, patch, type);
      expect(r.status).toBe(422);
      expect(r.json.message).toMatch(/^ "" is invalid: patch: Invalid value: "\{.*\}": json: cannot unmarshal number into Go struct field ConfigMap\.data of type string$/);
      expect(r.json.details).toEqual({ causes: [{ reason: 'FieldValueInvalid', field: 'patch', message: expect.stringContaining('Invalid value: "{\\"apiVersion\\":\\"v1\\",\\"data\\":{\\"a\\":\\"1\\",\\"b\\":2}') }] });
    }
    expect((await c.get(`${CM}/p1`)).json.data).toEqual({ a: '1' });
  });

  it('an unknown field from a patch: Strict refuses it, Warn drops it with a warning, Ignore drops it', async () => {
    await c.post(CM, cm('p2'));
    const strict = await c.patch(`${CM}/p2?fieldValidation=Strict`, { foo: 1 });
    expect(strict.status).toBe(422);
    expect(strict.json.message).toMatch(/: strict decoding error: unknown field "foo"$/);
    const warned = await c.patch(`${CM}/p2`, { foo: 1, data: { b: '2' } });
    expect(warned.status).toBe(200);
    expect(warned.headers['Warning']).toBe('299 - "unknown field \\"foo\\""');
    expect(warned.json.foo).toBeUndefined();
    expect(warned.json.data).toEqual({ a: '1', b: '2' });
    // Nobody owns a field that was never stored.
    expect(JSON.stringify(warned.json.metadata.managedFields)).not.toContain('f:foo');
    const ignored = await c.patch(`${CM}/p2?fieldValidation=Ignore`, [{ op: 'add', path: '/bar', value: 'x' }], JSON_PATCH);
    expect(ignored.status).toBe(200);
    expect(ignored.headers['Warning']).toBeUndefined();
    expect((await c.get(`${CM}/p2`)).json.bar).toBeUndefined();
  });

  it('an unknown fieldValidation value on a patch is refused', async () => {
    await c.post(CM, cm('p3'));
    const r = await c.patch(`${CM}/p3?fieldValidation=Loud`, { data: { b: '2' } });
    expect(r.status).toBe(422);
    expect(r.json.message).toBe('PatchOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loud": supported values: "", "Ignore", "Strict", "Warn"');
    expect((await c.get(`${CM}/p3`)).json.data).toEqual({ a: '1' });
  });
});

describe('applied configurations', () => {
  it('a mistyped scalar fails the apply as kube-apiserver v1.23 does: 500, no reason, nothing stored', async () => {
    const d = deployment('applied-typed');
    const r = await c.patch(`${DEPLOY}/applied-typed?fieldManager=applier`, { ...d, spec: { ...d.spec, replicas: '3' } }, 'application/apply-patch+yaml');
    expect(failure(r)).toEqual({ code: 500, reason: undefined, message: 'failed to create typed patch object: .spec.replicas: expected numeric (int or float), got string' });
    expect((await c.get(`${DEPLOY}/applied-typed`)).status).toBe(404);
    // YAML 1.1: an unquoted y is a boolean, which a label value cannot be.
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied-yaml\n  labels:\n    flag: y\n';
    const y = await c.patch(`${CM}/applied-yaml?fieldManager=applier`, yaml, 'application/apply-patch+yaml');
    expect(failure(y).message).toBe('failed to create typed patch object: .metadata.labels.flag: expected string, got &value.valueUnstructured{Value:true}');
  });

  it('a merged object that does not convert back to the kind fails the apply (500, no reason), nothing stored', async () => {
    // structured-merge-diff takes any number for an int and any string for a time: the Go struct does not.
    const d = deployment('applied-fraction');
    const r = await c.patch(`${DEPLOY}/applied-fraction?fieldManager=applier`, { ...d, spec: { ...d.spec, replicas: 1.5 } }, 'application/apply-patch+yaml');
    expect(failure(r)).toEqual({ code: 500, reason: undefined, message: expect.stringMatching(/^failed to convert new object to proper version: .*spec\.replicas/) });
    const t = await c.patch(`${CM}/applied-time?fieldManager=applier`, { ...cm('applied-time'), metadata: { name: 'applied-time', creationTimestamp: 'soon' } }, 'application/apply-patch+yaml');
    expect(failure(t).message).toBe('failed to convert new object to proper version: parsing time "soon" as "2006-01-02T15:04:05Z07:00": cannot parse "soon" as "2006"');
    expect((await c.get(`${DEPLOY}/applied-fraction`)).status).toBe(404);
    expect((await c.get(`${CM}/applied-time`)).status).toBe(404);
  });

  it('a field the kind does not declare fails the apply too, whatever fieldValidation says', async () => {
    for (const q of ['', '&fieldValidation=Ignore']) {
      const r = await c.patch(`${CM}/applied-unknown?fieldManager=applier${q}`, { ...cm('applied-unknown'), bogus: 1 }, 'application/apply-patch+yaml');
      expect(failure(r)).toEqual({ code: 500, reason: undefined, message: 'failed to create typed patch object: .bogus: field not declared in schema' });
    }
    expect((await c.get(`${CM}/applied-unknown`)).status).toBe(404);
  });
});
