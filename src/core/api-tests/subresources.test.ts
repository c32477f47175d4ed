// The status and scale subresources through the whole core.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_PATCH, deployment, failure, startTestServer, type TestClient } from '../testing/api-server';

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';

describe('status subresource', () => {
  it('create resets status; writes to the main resource ignore status', async () => {
    const body = { ...deployment('st'), status: { replicas: 7 } };
    const created = await c.post(DEPLOY, body);
    expect(created.status).toBe(201);
    expect(created.json.status).toEqual({});
    const put = await c.put(`${DEPLOY}/st`, { ...created.json, status: { replicas: 9 }, spec: { ...created.json.spec, replicas: 2 } });
    expect(put.status).toBe(200);
    expect(put.json.spec.replicas).toBe(2);
    expect(put.json.status).toEqual({});
  });

  it('writes to /status change status only', async () => {
    const created = (await c.post(DEPLOY, deployment('st2'))).json;
    const r = await c.put(`${DEPLOY}/st2/status`, { ...created, spec: { ...created.spec, replicas: 42 }, status: { replicas: 1, observedGeneration: 1 } });
    expect(r.status).toBe(200);
    expect(r.json.status).toEqual({ replicas: 1, observedGeneration: 1 });
    expect(r.json.spec.replicas).toBe(1);
    expect(r.json.metadata.generation).toBe(1);
    const patched = await c.patch(`${DEPLOY}/st2/status`, { status: { availableReplicas: 1 }, metadata: { labels: { ignored: 'yes' } } });
    expect(patched.status).toBe(200);
    expect(patched.json.status.availableReplicas).toBe(1);
    expect(patched.json.metadata.labels.ignored).toBeUndefined();
  });

  it('GET /status answers the whole object', async () => {
    await c.post(DEPLOY, deployment('st3'));
    const r = await c.get(`${DEPLOY}/st3/status`);
    expect(r.status).toBe(200);
    expect(r.json.kind).toBe('Deployment');
    expect(r.json.spec.replicas).toBe(1);
  });
});

describe('scale subresource', () => {
  it('GET answers an autoscaling/v1 Scale of a deployment', async () => {
    const created = (await c.post(DEPLOY, deployment('sc', 2))).json;
    const r = await c.get(`${DEPLOY}/sc/scale`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: {
        name: 'sc',
        namespace: 'default',
        uid: created.metadata.uid,
        resourceVersion: created.metadata.resourceVersion,
        creationTimestamp: created.metadata.creationTimestamp,
      },
      spec: { replicas: 2 },
      status: { replicas: 0, selector: 'app=sc' },
    });
  });

  it('PATCH (kubectl scale) and PUT change spec.replicas and bump generation', async () => {
    await c.post(DEPLOY, deployment('sc2'));
    const patched = await c.patch(`${DEPLOY}/sc2/scale`, { spec: { replicas: 3 } });
    expect(patched.status).toBe(200);
    expect(patched.json.kind).toBe('Scale');
    expect(patched.json.spec.replicas).toBe(3);
    const dep = (await c.get(`${DEPLOY}/sc2`)).json;
    expect(dep.spec.replicas).toBe(3);
    expect(dep.metadata.generation).toBe(2);
    const scale = (await c.get(`${DEPLOY}/sc2/scale`)).json;
    const put = await c.put(`${DEPLOY}/sc2/scale`, { ...scale, spec: { replicas: 5 } });
    expect(put.status).toBe(200);
    expect(put.json.spec.replicas).toBe(5);
    expect((await c.get(`${DEPLOY}/sc2`)).json.spec.replicas).toBe(5);
    const jp = await c.patch(`${DEPLOY}/sc2/scale`, [{ op: 'replace', path: '/spec/replicas', value: 0 }], JSON_PATCH);
    expect(jp.json.spec.replicas).toBe(0);
  });

  it('PATCH and PUT record their manager with subresource scale, which a later apply conflicts with', async () => {
    await c.post(DEPLOY, deployment('sc5'));
    await c.patch(`${DEPLOY}/sc5/scale?fieldManager=kubectl`, { spec: { replicas: 3 } });
    const scaled = (await c.get(`${DEPLOY}/sc5`)).json;
    const entry = scaled.metadata.managedFields.find((e: { manager: string }) => e.manager === 'kubectl');
    expect(entry).toMatchObject({ manager: 'kubectl', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' });
    // The creator no longer owns the replicas it set.
    expect(JSON.stringify(scaled.metadata.managedFields.filter((e: { subresource?: string }) => !e.subresource))).not.toContain('f:replicas');
    // The same name writing the main resource is another manager.
    await c.patch(`${DEPLOY}/sc5?fieldManager=kubectl`, { metadata: { labels: { l: 'v' } } });
    const both = (await c.get(`${DEPLOY}/sc5`)).json.metadata.managedFields.filter((e: { manager: string }) => e.manager === 'kubectl');
    expect(both.map((e: { subresource?: string }) => e.subresource ?? '').sort()).toEqual(['', 'scale']);
    const applied = await c.patch(`${DEPLOY}/sc5?fieldManager=deployer`, deployment('sc5', 2), 'application/apply-patch+yaml');
    expect(failure(applied)).toEqual({ code: 409, reason: 'Conflict', message: 'Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas' });
    // PUT of the Scale: the new writer takes the field.
    const scale = (await c.get(`${DEPLOY}/sc5/scale`)).json;
    await c.put(`${DEPLOY}/sc5/scale?fieldManager=replacer`, { ...scale, spec: { replicas: 6 } });
    const replaced = (await c.get(`${DEPLOY}/sc5`)).json.metadata.managedFields;
    expect(replaced.find((e: { manager: string }) => e.manager === 'replacer')).toMatchObject({ operation: 'Update', subresource: 'scale', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
    expect(replaced.find((e: { manager: string; subresource?: string }) => e.manager === 'kubectl' && e.subresource === 'scale')).toBeUndefined();
  });

  it('PUT with a stale resourceVersion → 409', async () => {
    await c.post(DEPLOY, deployment('sc3'));
    const scale = (await c.get(`${DEPLOY}/sc3/scale`)).json;
    await c.patch(`${DEPLOY}/sc3/scale`, { spec: { replicas: 2 } });
    const r = await c.put(`${DEPLOY}/sc3/scale`, { ...scale, spec: { replicas: 4 } });
    expect(failure(r)).toEqual({
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on deployments.apps "sc3": the object has been modified; please apply your changes to the latest version and try again',
    });
  });

  it('negative replicas → 422 on the Scale', async () => {
    await c.post(DEPLOY, deployment('sc4'));
    const r = await c.patch(`${DEPLOY}/sc4/scale`, { spec: { replicas: -1 } });
    expect(failure(r)).toEqual({ code: 422, reason: 'Invalid', message: 'Scale.autoscaling "sc4" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0' });
  });

  it('works for replicasets and statefulsets', async () => {
    const tmpl = { metadata: { labels: { app: 'rs' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs' }, spec: { replicas: 1, selector: { matchLabels: { app: 'rs' } }, template: tmpl } };
    expect((await c.post('/apis/apps/v1/namespaces/default/replicasets', rs)).status).toBe(201);
    const rsScale = await c.patch('/apis/apps/v1/namespaces/default/replicasets/rs/scale', { spec: { replicas: 4 } });
    expect(rsScale.json).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 4 }, status: { selector: 'app=rs' } });
    const ss = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'ss' }, spec: { serviceName: 'ss', replicas: 1, selector: { matchLabels: { app: 'rs' } }, template: tmpl } };
    expect((await c.post('/apis/apps/v1/namespaces/default/statefulsets', ss)).status).toBe(201);
    const ssScale = await c.get('/apis/apps/v1/namespaces/default/statefulsets/ss/scale');
    expect(ssScale.json).toMatchObject({ kind: 'Scale', spec: { replicas: 1 } });
    await c.patch('/apis/apps/v1/namespaces/default/statefulsets/ss/scale', { spec: { replicas: 2 } });
    expect((await c.get('/apis/apps/v1/namespaces/default/statefulsets/ss')).json.spec.replicas).toBe(2);
  });

  it('of a missing object → 404; of a kind without scale → 404', async () => {
    expect(failure(await c.get(`${DEPLOY}/ghost/scale`))).toEqual({ code: 404, reason: 'NotFound', message: 'deployments.apps "ghost" not found' });
    expect((await c.get('/api/v1/namespaces/default/configmaps/x/scale')).status).toBe(404);
  });
});
