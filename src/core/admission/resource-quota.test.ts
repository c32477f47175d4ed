import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, startTestServer, type TestClient } from '../testing/api-server';

const NS = '/api/v1/namespaces/team';

describe('ResourceQuota', () => {
  let c: TestClient;
  beforeEach(async () => {
    c = await startTestServer();
    await c.post('/api/v1/namespaces', { metadata: { name: 'team' } });
  });
  afterEach(async () => {
    await c.close();
  });
  const quota = (name: string, hard: Record<string, string>) => c.post(`${NS}/resourcequotas`, { metadata: { name }, spec: { hard } });
  const pod = (name: string, resources: object = {}) => c.post(`${NS}/pods`, { metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx', resources }] } });
  const usedOf = (name: string, want: Record<string, string>) =>
    eventually(async () => {
      const q = (await c.get(`${NS}/resourcequotas/${name}`)).json;
      return q.status?.used && Object.entries(want).every(([k, v]) => q.status.used[k] === v) ? q.status : undefined;
    });

  it('counts objects in status.used and refuses the one over the limit', async () => {
    // The namespace's kube-root-ca.crt (root-ca-cert-publisher) counts too, as in kube.
    expect((await quota('objects', { configmaps: '3', 'count/secrets': '5' })).status).toBe(201);
    // So does the default ServiceAccount's token Secret (the tokens controller's).
    expect(await usedOf('objects', { configmaps: '1', 'count/secrets': '1' })).toEqual({ hard: { configmaps: '3', 'count/secrets': '5' }, used: { configmaps: '1', 'count/secrets': '1' } });
    expect((await c.post(`${NS}/configmaps`, { metadata: { name: 'a' } })).status).toBe(201);
    expect((await c.post(`${NS}/configmaps`, { metadata: { name: 'b' } })).status).toBe(201);
    const over = await c.post(`${NS}/configmaps`, { metadata: { name: 'c' } });
    expect(over.status).toBe(403);
    expect(over.json).toMatchObject({ reason: 'Forbidden', code: 403, details: { name: 'c', kind: 'configmaps' } });
    expect(over.json.message).toBe('configmaps "c" is forbidden: exceeded quota: objects, requested: configmaps=1, used: configmaps=3, limited: configmaps=3');
    await usedOf('objects', { configmaps: '3' });
    await c.del(`${NS}/configmaps/a`);
    await usedOf('objects', { configmaps: '2' });
    expect((await c.post(`${NS}/configmaps`, { metadata: { name: 'c' } })).status).toBe(201);
  });

  it('sums pod compute requests and limits, and names every exceeded resource', async () => {
    expect((await quota('compute', { pods: '10', 'requests.cpu': '1', 'limits.memory': '1Gi' })).status).toBe(201);
    expect((await pod('a', { requests: { cpu: '600m' }, limits: { memory: '512Mi' } })).status).toBe(201);
    await usedOf('compute', { pods: '1', 'requests.cpu': '600m', 'limits.memory': '512Mi' });
    const over = await pod('b', { requests: { cpu: '500m' }, limits: { memory: '768Mi' } });
    expect(over.status).toBe(403);
    expect(over.json.message).toBe('pods "b" is forbidden: exceeded quota: compute, requested: limits.memory=768Mi,requests.cpu=500m, used: limits.memory=512Mi,requests.cpu=600m, limited: limits.memory=1Gi,requests.cpu=1');
  });

  it('requires pods to state the compute resources a quota constrains', async () => {
    expect((await quota('compute', { 'requests.cpu': '1', 'limits.memory': '1Gi' })).status).toBe(201);
    const r = await pod('bare');
    expect(r.status).toBe(403);
    expect(r.json.message).toBe('pods "bare" is forbidden: failed quota: compute: must specify limits.memory,requests.cpu');
  });

  it('dry-run creates are checked too but use nothing', async () => {
    // One for kube-root-ca.crt, one for `a`.
    expect((await quota('one', { 'count/configmaps': '2' })).status).toBe(201);
    expect((await c.post(`${NS}/configmaps?dryRun=All`, { metadata: { name: 'a' } })).status).toBe(201);
    expect((await c.post(`${NS}/configmaps`, { metadata: { name: 'a' } })).status).toBe(201);
    expect((await c.post(`${NS}/configmaps?dryRun=All`, { metadata: { name: 'b' } })).status).toBe(403);
  });
});
