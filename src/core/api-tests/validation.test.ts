// Validation through the whole core: 422 Invalid with causes for the kinds people use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configMap, deployment, failure, startTestServer, statusOf, type TestClient } from '../testing/api-server';

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('422 Invalid', () => {
  it('a pod container without image', async () => {
    const r = await c.post('/api/v1/namespaces/default/pods', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c' }] } });
    expect(statusOf(r)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Pod "p" is invalid: spec.containers[0].image: Required value',
      reason: 'Invalid',
      details: { name: 'p', kind: 'Pod', causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' }] },
      code: 422,
    });
  });

  it('a configmap name that is not a DNS-1123 subdomain', async () => {
    const r = await c.post('/api/v1/namespaces/default/configmaps', configMap('Bad_Name'));
    expect(failure(r)).toEqual({ code: 422, reason: 'Invalid', message: `ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN}` });
  });

  it('a missing name', async () => {
    const r = await c.post('/api/v1/namespaces/default/configmaps', { metadata: {} });
    expect(statusOf(r)).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required',
      details: { kind: 'ConfigMap', causes: [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }] },
    });
  });

  it('a service name that is not a DNS-1035 label', async () => {
    const r = await c.post('/api/v1/namespaces/default/services', { metadata: { name: '1svc' }, spec: { ports: [{ port: 80 }] } });
    expect(failure(r)).toEqual({
      code: 422,
      reason: 'Invalid',
      message:
        'Service "1svc" is invalid: metadata.name: Invalid value: "1svc": a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')',
    });
  });

  it('a deployment whose selector does not match its template, with several causes', async () => {
    const d = deployment('mismatch');
    d.spec.template.metadata.labels = { app: 'other' };
    const r = await c.post('/apis/apps/v1/namespaces/default/deployments', d);
    const s = statusOf(r);
    expect(s.code).toBe(422);
    expect(s.reason).toBe('Invalid');
    expect(s.message).toBe(
      'Deployment.apps "mismatch" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`',
    );
    expect(s.details).toMatchObject({ name: 'mismatch', group: 'apps', kind: 'Deployment' });
  });

  it('several errors are listed in brackets', async () => {
    const r = await c.post('/api/v1/namespaces/default/pods', { metadata: { name: 'p2' }, spec: { containers: [{ name: 'c' }, { name: 'c', image: 'x' }] } });
    const s = statusOf(r);
    expect(s.code).toBe(422);
    expect(s.message).toBe('Pod "p2" is invalid: [spec.containers[0].image: Required value, spec.containers[1].name: Duplicate value: "c"]');
    expect(s.details.causes).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' },
      { reason: 'FieldValueDuplicate', message: 'Duplicate value: "c"', field: 'spec.containers[1].name' },
    ]);
  });

  it('a label value that is too long or malformed', async () => {
    const r = await c.post('/api/v1/namespaces/default/configmaps', configMap('lbl', {}, { labels: { app: 'not valid!' } }));
    expect(r.status).toBe(422);
    expect(r.json.details.causes[0].field).toBe('metadata.labels');
    expect(r.json.message).toMatch(/^ConfigMap "lbl" is invalid: metadata.labels: Invalid value: "not valid!": /);
  });

  it('an update that changes an immutable field', async () => {
    const created = (await c.post('/apis/apps/v1/namespaces/default/deployments', deployment('immut'))).json;
    const next = structuredClone(created);
    next.spec.selector = { matchLabels: { app: 'immut', v: '2' } };
    next.spec.template.metadata.labels = { app: 'immut', v: '2' };
    const r = await c.put('/apis/apps/v1/namespaces/default/deployments/immut', next);
    expect(r.status).toBe(422);
    expect(r.json.details.causes.map((x: any) => x.field)).toContain('spec.selector');
    expect(r.json.message).toContain('field is immutable');
  });
});

describe('defaulting and data checks', () => {
  it('Secret stringData is merged into base64 data', async () => {
    const r = await c.post('/api/v1/namespaces/default/secrets', { metadata: { name: 's1' }, stringData: { user: 'admin' }, data: { a: 'YQ==' } });
    expect(r.status).toBe(201);
    expect(r.json.data).toEqual({ a: 'YQ==', user: 'YWRtaW4=' });
    expect(r.json.stringData).toBeUndefined();
    expect(r.json.type).toBe('Opaque');
  });

  it('Secret data that is not base64 → 400', async () => {
    const r = await c.post('/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's2' }, data: { a: '***' } });
    expect(r.status).toBe(400);
    expect(r.json.reason).toBe('BadRequest');
    expect(r.json.message).toMatch(/^Secret in version "v1" cannot be handled as a Secret: /);
  });

  it('a Service gets a ClusterIP and defaulted ports', async () => {
    const r = await c.post('/api/v1/namespaces/default/services', { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } });
    expect(r.status).toBe(201);
    expect(r.json.spec.type).toBe('ClusterIP');
    expect(r.json.spec.clusterIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(r.json.spec.clusterIPs).toEqual([r.json.spec.clusterIP]);
    expect(r.json.spec.ports[0]).toMatchObject({ port: 80, protocol: 'TCP', targetPort: 80 });
  });
});

describe('a body is decoded before the create hooks look at it', () => {
  it('a null clusterIPs item is Go\'s "" for the IP allocator too: a 422, not a 500', async () => {
    const r = await c.post('/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'null-ip' }, spec: { clusterIPs: [null], ports: [{ port: 80 }] } });
    expect(r.status).toBe(422);
    expect(r.json.details.causes.map((x: { field: string }) => x.field)).toEqual(['spec.clusterIPs', 'spec.clusterIPs[0]']);
  });
});
