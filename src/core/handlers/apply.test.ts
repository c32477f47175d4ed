// The apply handler's request checks (issue 5 API surface): PatchOptions validation, the applied
// configuration against the URL, YAML decoding, and the typed-conversion errors kube answers
// with 500. Driven through the in-process server so routing and Status rendering are real.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configMap, deployment, failure, startTestServer, statusOf, uniqueName, type Reply, type TestClient } from '../testing/api-server';

const APPLY = 'application/apply-patch+yaml';
const CM = '/api/v1/namespaces/default/configmaps';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

function apply(url: string, body: unknown): Promise<Reply> {
  return c.patch(url, typeof body === 'string' ? body : JSON.stringify(body), APPLY);
}

describe('PatchOptions', () => {
  it('fieldManager is required for apply: 422 Invalid with a FieldValueRequired cause', async () => {
    const name = uniqueName('nofm');
    const r = await apply(`${CM}/${name}`, configMap(name));
    expect(statusOf(r)).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      details: { group: 'meta.k8s.io', kind: 'PatchOptions', causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }] },
    });
    expect((await c.get(`${CM}/${name}`)).status).toBe(404);
    const empty = await apply(`${CM}/${name}?fieldManager=`, configMap(name));
    expect(empty.status).toBe(422);
  });

  it('fieldManager longer than 128 characters: 422 Too long', async () => {
    const name = uniqueName('longfm');
    const r = await apply(`${CM}/${name}?fieldManager=${'m'.repeat(129)}`, configMap(name));
    expect(failure(r)).toEqual({ code: 422, reason: 'Invalid', message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Too long: must have at most 128 bytes' });
    const ok = await apply(`${CM}/${name}?fieldManager=${'m'.repeat(128)}`, configMap(name));
    expect(ok.status).toBe(201);
  });

  it('force is only for apply: 422 Forbidden on a merge patch', async () => {
    const name = uniqueName('force');
    await c.post(CM, configMap(name));
    const r = await c.patch(`${CM}/${name}?force=true`, { data: { a: '2' } });
    expect(statusOf(r)).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
      details: { causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: may not be specified for non-apply patch', field: 'force' }] },
    });
    expect((await c.get(`${CM}/${name}`)).json.data).toEqual({ a: '1' });
  });
});

describe('the applied configuration', () => {
  it('managedFields in the body → 400', async () => {
    const name = uniqueName('mf');
    const body = configMap(name, { a: '1' }, { managedFields: [{ manager: 'x', operation: 'Apply' }] });
    expect(failure(await apply(`${CM}/${name}?fieldManager=a`, body))).toEqual({ code: 400, reason: 'BadRequest', message: 'metadata.managedFields must be nil' });
  });

  it('a name that differs from the URL → 400', async () => {
    const r = await apply(`${CM}/url-name?fieldManager=a`, configMap('body-name'));
    expect(failure(r)).toEqual({ code: 400, reason: 'BadRequest', message: 'the name of the object (body-name) does not match the name on the URL (url-name)' });
  });

  it('a namespace that differs from the URL → 400', async () => {
    const name = uniqueName('ns');
    const r = await apply(`${CM}/${name}?fieldManager=a`, configMap(name, { a: '1' }, { namespace: 'other' }));
    expect(r.status).toBe(400);
    expect(statusOf(r).reason).toBe('BadRequest');
    expect((await c.get(`${CM}/${name}`)).status).toBe(404);
  });

  it('a wrong apiVersion or kind → 400 and nothing written', async () => {
    const name = uniqueName('gvk');
    const wrongVersion = await apply(`${DEPLOY}/${name}?fieldManager=a`, { ...deployment(name), apiVersion: 'apps/v1beta1' });
    expect(wrongVersion.status).toBe(400);
    expect(statusOf(wrongVersion).message).toContain('apps/v1beta1');
    const wrongKind = await apply(`${CM}/${name}?fieldManager=a`, { ...configMap(name), kind: 'Secret' });
    expect(wrongKind.status).toBe(400);
    expect(statusOf(wrongKind).message).toContain('Secret');
    expect((await c.get(`${DEPLOY}/${name}`)).status).toBe(404);
    expect((await c.get(`${CM}/${name}`)).status).toBe(404);
  });

  it('YAML that does not parse → 400 error decoding YAML', async () => {
    const name = uniqueName('bad');
    const r = await apply(`${CM}/${name}?fieldManager=a`, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [unclosed\n');
    expect(r.status).toBe(400);
    expect(statusOf(r).reason).toBe('BadRequest');
    expect(statusOf(r).message).toMatch(/^error decoding YAML: /);
  });

  it('the body may be JSON or YAML; the name defaults to the URL when omitted', async () => {
    const name = uniqueName('yaml');
    const r = await apply(`${CM}/${name}?fieldManager=a`, `apiVersion: v1\nkind: ConfigMap\nmetadata: {}\ndata:\n  port: "80"\n`);
    expect(r.status).toBe(201);
    expect(r.json.metadata.name).toBe(name);
    expect(r.json.data).toEqual({ port: '80' });
  });

  it('a list-map item without its key cannot be typed: 500 without a reason, as kube-apiserver v1.23 answers a plain error', async () => {
    const name = uniqueName('nokey');
    const d = deployment(name);
    d.spec.template.spec.containers[0].ports = [{ name: 'http' }];
    const r = await apply(`${DEPLOY}/${name}?fieldManager=a`, d);
    expect(r.status).toBe(500);
    expect(statusOf(r).reason).toBeUndefined();
    expect(statusOf(r).message).toMatch(/^failed to create typed patch object: /);
    expect(statusOf(r).message).toContain('containerPort');
  });

  it('an apply on /status of a missing object is NotFound', async () => {
    const name = uniqueName('nost');
    const r = await apply(`${DEPLOY}/${name}/status?fieldManager=a`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, status: { replicas: 1 } });
    expect(failure(r)).toEqual({ code: 404, reason: 'NotFound', message: `deployments.apps "${name}" not found` });
  });
});
