import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, startTestServer, type TestClient } from '../testing/api-server';

const NS = '/api/v1/namespaces/default';
const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';

describe('pod eviction with PodDisruptionBudgets', () => {
  let c: TestClient;
  beforeEach(async () => {
    c = await startTestServer();
  });
  afterEach(async () => {
    await c.close();
  });

  async function pod(name: string, ready: boolean, labels: Record<string, string> = { app: 'web' }) {
    expect((await c.post(`${NS}/pods`, { metadata: { name, labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } })).status).toBe(201);
    const status = { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] };
    expect((await c.patch(`${NS}/pods/${name}/status`, { status })).status).toBe(200);
  }
  const pdb = async (name: string, spec: object) => expect((await c.post(PDBS, { metadata: { name }, spec })).status).toBe(201);
  const evict = (name: string, extra: object = {}) => c.post(`${NS}/pods/${name}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name }, ...extra });
  const statusOf = async (name: string) => (await c.get(`${PDBS}/${name}`)).json.status;
  const settled = (name: string, want: object) =>
    eventually(async () => {
      const s = await statusOf(name);
      return s && Object.entries(want).every(([k, v]) => s[k] === v) ? s : undefined;
    });

  it('keeps budget status current as pods come and go', async () => {
    await pod('a', true);
    await pod('b', true);
    await pod('c', false);
    await pdb('web', { minAvailable: 1, selector: { matchLabels: { app: 'web' } } });
    const s = await settled('web', { expectedPods: 3, currentHealthy: 2 });
    expect(s).toMatchObject({ observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 3 });
    expect(s.conditions).toEqual([{ type: 'DisruptionAllowed', status: 'True', observedGeneration: 1, lastTransitionTime: expect.any(String), reason: 'SufficientPods', message: '' }]);
    await c.del(`${NS}/pods/b`);
    const after = await settled('web', { expectedPods: 2 });
    expect(after).toMatchObject({ disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1 });
    expect(after.conditions[0]).toMatchObject({ status: 'False', reason: 'InsufficientPods' });
  });

  it('evicts while the budget allows, then refuses with 429 and the budget in the cause', async () => {
    await pod('a', true);
    await pod('b', true);
    await pod('c', true);
    await pdb('web', { minAvailable: 2, selector: { matchLabels: { app: 'web' } } });
    const first = await evict('a');
    expect(first.status).toBe(201);
    expect(first.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    expect((await c.get(`${NS}/pods/a`)).status).toBe(404);
    await settled('web', { expectedPods: 2, disruptionsAllowed: 0 });
    const refused = await evict('b');
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 2 healthy pods and has 2 currently' }] },
      code: 429,
    });
    expect((await c.get(`${NS}/pods/b`)).status).toBe(200);
  });

  it('a pod still terminating after its eviction (finalizer) no longer counts as healthy', async () => {
    await pod('a', true);
    await pod('b', true);
    await c.patch(`${NS}/pods/a`, { metadata: { finalizers: ['example.com/hold'] } });
    await pdb('web', { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } });
    await settled('web', { expectedPods: 2, disruptionsAllowed: 1 });
    expect((await evict('a')).status).toBe(201);
    expect((await c.get(`${NS}/pods/a`)).json.metadata.deletionTimestamp).toEqual(expect.any(String));
    const refused = await evict('b');
    expect(refused.status).toBe(429);
    expect(refused.json.details.causes[0].message).toBe('The disruption budget web needs 1 healthy pods and has 1 currently');
  });

  it('dry-run neither deletes the pod nor uses up the budget', async () => {
    await pod('a', true);
    await pod('b', true);
    await pdb('web', { maxUnavailable: '50%', selector: { matchLabels: { app: 'web' } } });
    await settled('web', { expectedPods: 2, desiredHealthy: 1, disruptionsAllowed: 1 });
    expect((await evict('a', { deleteOptions: { dryRun: ['All'] } })).status).toBe(201);
    expect((await c.get(`${NS}/pods/a`)).status).toBe(200);
    expect((await statusOf('web')).disruptionsAllowed).toBe(1);
    expect((await statusOf('web')).disruptedPods).toBeUndefined();
  });

  it('lets unready pods, pods without budgets and pending pods go', async () => {
    await pod('a', true);
    await pod('sick', false);
    await pod('other', true, { app: 'db' });
    await pdb('web', { minAvailable: 1, selector: { matchLabels: { app: 'web' } } });
    await settled('web', { expectedPods: 2, disruptionsAllowed: 0 });
    expect((await evict('sick')).status).toBe(201);
    expect((await evict('other')).status).toBe(201);
    expect((await evict('a')).status).toBe(429);
    await c.patch(`${NS}/pods/a/status`, { status: { phase: 'Pending' } });
    expect((await evict('a')).status).toBe(201);
  });

  it('refuses a pod selected by two budgets and a mismatched name', async () => {
    await pod('a', true);
    await pdb('one', { minAvailable: 0, selector: { matchLabels: { app: 'web' } } });
    await pdb('two', { minAvailable: 0, selector: {} });
    const r = await evict('a');
    expect(r.status).toBe(500);
    expect(r.json.message).toBe('Internal error occurred: This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
    const named = await c.post(`${NS}/pods/a/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'b' } });
    expect(named.status).toBe(400);
    expect(named.json.message).toBe('name in URL does not match name in Eviction object');
    const elsewhere = await c.post(`${NS}/pods/a/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'a', namespace: 'other' } });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.json.message).toBe('the namespace of the provided object does not match the namespace sent on the request');
  });
});
