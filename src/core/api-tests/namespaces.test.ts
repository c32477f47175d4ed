// Namespace lifecycle through the whole core: the initial namespaces and their default
// ServiceAccounts, new namespaces, Terminating, content deletion, and disappearance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectStream, configMap, eventually, failure, startTestServer, statusOf, type TestClient } from '../testing/api-server';

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

const ns = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

describe('initial namespaces', () => {
  it('default, kube-system, kube-public and kube-node-lease exist and are Active', async () => {
    const r = await c.get('/api/v1/namespaces');
    expect(r.status).toBe(200);
    expect(r.json.kind).toBe('NamespaceList');
    const names = r.json.items.map((i: any) => i.metadata.name);
    expect(names).toEqual(expect.arrayContaining(['default', 'kube-system', 'kube-public', 'kube-node-lease']));
    for (const item of r.json.items) {
      expect(item.status.phase).toBe('Active');
      expect(item.spec.finalizers).toEqual(['kubernetes']);
      expect(item.metadata.labels['kubernetes.io/metadata.name']).toBe(item.metadata.name);
    }
  });

  it('each has a default ServiceAccount', async () => {
    for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      const r = await c.get(`/api/v1/namespaces/${name}/serviceaccounts/default`);
      expect(r.status, name).toBe(200);
      expect(r.json.metadata.namespace).toBe(name);
    }
  });
});

describe('a new namespace', () => {
  it('is created Active with its default ServiceAccount', async () => {
    const r = await c.post('/api/v1/namespaces', ns('team-a'));
    expect(r.status).toBe(201);
    expect(r.json.status).toEqual({ phase: 'Active' });
    expect(r.json.spec).toEqual({ finalizers: ['kubernetes'] });
    const sa = await eventually(async () => {
      const s = await c.get('/api/v1/namespaces/team-a/serviceaccounts/default');
      return s.status === 200 ? s : undefined;
    });
    expect(sa.json.metadata.name).toBe('default');
  });

  it('a namespace name must be a DNS-1123 label', async () => {
    const r = await c.post('/api/v1/namespaces', ns('Team.B'));
    expect(statusOf(r)).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message:
        'Namespace "Team.B" is invalid: metadata.name: Invalid value: "Team.B": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
      details: { name: 'Team.B', kind: 'Namespace', causes: [{ reason: 'FieldValueInvalid', field: 'metadata.name' }] },
    });
  });
});

describe('deleting a namespace', () => {
  it('goes Terminating, refuses new content with 403, deletes its contents, then disappears', async () => {
    await c.post('/api/v1/namespaces', ns('doomed'));
    await c.post('/api/v1/namespaces/doomed/configmaps', configMap('held', {}, { finalizers: ['example.com/hold'] }));
    await c.post('/api/v1/namespaces/doomed/configmaps', configMap('plain'));
    const watch = collectStream((await c.get('/api/v1/namespaces?watch=true&fieldSelector=metadata.name%3Ddoomed')).raw);
    try {
      const del = await c.del('/api/v1/namespaces/doomed', { propagationPolicy: 'Background' });
      expect(del.status).toBe(200);
      expect(del.json.kind).toBe('Namespace');
      expect(del.json.metadata.deletionTimestamp).toBeDefined();
      expect(del.json.status.phase).toBe('Terminating');

      const created = await c.post('/api/v1/namespaces/doomed/configmaps', configMap('late'));
      expect(statusOf(created)).toMatchObject({
        code: 403,
        reason: 'Forbidden',
        message: 'configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated',
        details: { name: 'late', kind: 'configmaps' },
      });

      // Contents without finalizers go; the held one stays (marked) and keeps the namespace.
      await eventually(async () => ((await c.get('/api/v1/namespaces/doomed/configmaps/plain')).status === 404 ? true : undefined));
      const held = await eventually(async () => {
        const h = await c.get('/api/v1/namespaces/doomed/configmaps/held');
        return h.json?.metadata?.deletionTimestamp ? h : undefined;
      });
      expect(held.status).toBe(200);
      expect((await c.get('/api/v1/namespaces/doomed')).json.status.phase).toBe('Terminating');

      await c.patch('/api/v1/namespaces/doomed/configmaps/held', { metadata: { finalizers: null } });
      await eventually(async () => ((await c.get('/api/v1/namespaces/doomed')).status === 404 ? true : undefined), 8000);
      expect(failure(await c.get('/api/v1/namespaces/doomed'))).toEqual({ code: 404, reason: 'NotFound', message: 'namespaces "doomed" not found' });
      expect((await c.get('/api/v1/namespaces/doomed/serviceaccounts/default')).status).toBe(404);

      const events = await watch.waitFor(1);
      await eventually(async () => (watch.events.some((e) => e.type === 'DELETED') ? true : undefined));
      expect(watch.events[0].type).toBe('ADDED');
      expect(watch.events[watch.events.length - 1].type).toBe('DELETED');
      expect(events.some((e) => e.type === 'MODIFIED' && e.object.status.phase === 'Terminating')).toBe(true);
    } finally {
      watch.cancel();
    }
  });

  it('writes into a namespace that never existed → 404', async () => {
    const r = await c.post('/api/v1/namespaces/ghost/configmaps', configMap('x'));
    expect(statusOf(r)).toMatchObject({ code: 404, reason: 'NotFound', message: 'namespaces "ghost" not found', details: { name: 'ghost', kind: 'namespaces' } });
  });
});
