// Response representations and list options through the whole core: JSON (compact and pretty),
// YAML, Table (v1 and v1beta1, includeObject), PartialObjectMetadata(List), selectors, paging.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE_V1, TABLE_V1BETA1, collectStream, configMap, failure, pod, startTestServer, type TestClient } from '../testing/api-server';

let c: TestClient;
const NS = '/api/v1/namespaces/out';
const CM = `${NS}/configmaps`;

beforeAll(async () => {
  c = await startTestServer();
  await c.post('/api/v1/namespaces', { metadata: { name: 'out' } });
  await c.post(CM, configMap('one', { a: '1' }, { labels: { app: 'web', tier: 'front' } }));
  await c.post(CM, configMap('two', { a: '1', b: '2' }, { labels: { app: 'db' } }));
  await c.post(CM, configMap('three', {}, { labels: { app: 'web', tier: 'back' } }));
  // The namespace also holds kube-root-ca.crt (root-ca-cert-publisher): four ConfigMaps in all.
});
afterAll(async () => {
  await c.close();
});

const names = (list: any) => list.items.map((i: any) => i.metadata.name).sort();

describe('JSON', () => {
  it('compact, kind and apiVersion first, ending with a newline', async () => {
    const r = await c.get(`${CM}/one`);
    expect(r.headers['Content-Type']).toBe('application/json');
    expect(r.text.startsWith('{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"one","namespace":"out",')).toBe(true);
    expect(r.text.endsWith('}\n')).toBe(true);
  });

  it('pretty with ?pretty=true: two-space indent as json.MarshalIndent', async () => {
    const r = await c.get(`${CM}/one?pretty=true`);
    expect(r.text.startsWith('{\n  "kind": "ConfigMap",\n  "apiVersion": "v1",\n  "metadata": {\n    "name": "one",')).toBe(true);
    expect(r.text.endsWith('\n}')).toBe(true);
  });

  it('lists: typed items without kind/apiVersion, list metadata with resourceVersion', async () => {
    const r = await c.get(CM);
    expect(r.text.startsWith('{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"')).toBe(true);
    expect(r.json.items).toHaveLength(4);
    expect(r.json.items[0].kind).toBeUndefined();
    expect(r.json.items[0].metadata.namespace).toBe('out');
  });
});

describe('YAML', () => {
  it('an object with Accept: application/yaml', async () => {
    const r = await c.get(`${CM}/two`, { accept: 'application/yaml' });
    expect(r.status).toBe(200);
    expect(r.headers['Content-Type']).toBe('application/yaml');
    expect(r.text.startsWith('apiVersion: v1\ndata:\n  a: "1"\n  b: "2"\nkind: ConfigMap\nmetadata:\n')).toBe(true);
    expect(r.text).toContain('\n  name: two\n');
  });

  it('a list and an error', async () => {
    const list = await c.get(CM, { accept: 'application/yaml' });
    expect(list.text.startsWith('apiVersion: v1\nitems:\n')).toBe(true);
    expect(list.text).toContain('\nkind: ConfigMapList\n');
    const err = await c.get(`${CM}/ghost`, { accept: 'application/yaml' });
    expect(err.status).toBe(404);
    expect(err.headers['Content-Type']).toBe('application/yaml');
    expect(err.text).toContain('message: configmaps "ghost" not found\n');
    expect(err.text).toContain('reason: NotFound\n');
  });
});

describe('Table', () => {
  it('a list: kubectl columns for ConfigMaps, rows with PartialObjectMetadata', async () => {
    const r = await c.get(CM, { accept: TABLE_V1 });
    expect(r.status).toBe(200);
    expect(r.headers['Content-Type']).toBe(TABLE_V1);
    const t = r.json;
    expect(t.kind).toBe('Table');
    expect(t.apiVersion).toBe('meta.k8s.io/v1');
    expect(t.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(t.columnDefinitions.map((d: any) => d.name)).toEqual(['Name', 'Data', 'Age']);
    expect(t.columnDefinitions[0]).toMatchObject({ name: 'Name', type: 'string', format: 'name', priority: 0 });
    const two = t.rows.find((row: any) => row.cells[0] === 'two');
    expect(two.cells[1]).toBe(2);
    expect(two.cells[2]).toMatch(/^\d+s$/);
    expect(two.object.kind).toBe('PartialObjectMetadata');
    expect(two.object.apiVersion).toBe('meta.k8s.io/v1');
    expect(two.object.metadata.name).toBe('two');
    expect(two.object.data).toBeUndefined();
  });

  it('one object: a one-row table', async () => {
    const r = await c.get(`${CM}/one`, { accept: TABLE_V1 });
    expect(r.json.rows).toHaveLength(1);
    expect(r.json.rows[0].cells[0]).toBe('one');
  });

  it('v1beta1 tables', async () => {
    const r = await c.get(CM, { accept: TABLE_V1BETA1 });
    expect(r.json.apiVersion).toBe('meta.k8s.io/v1beta1');
    expect(r.json.rows[0].object.apiVersion).toBe('meta.k8s.io/v1beta1');
  });

  it('includeObject=None and includeObject=Object', async () => {
    const none = await c.get(`${CM}?includeObject=None`, { accept: TABLE_V1 });
    for (const row of none.json.rows) expect(row.object ?? null).toBeNull();
    const full = await c.get(`${CM}/two?includeObject=Object`, { accept: TABLE_V1 });
    expect(full.json.rows[0].object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', data: { a: '1', b: '2' } });
  });

  it('Deployments and Pods get kubectl columns; other kinds Name and Created At', async () => {
    const pods = await c.get('/api/v1/namespaces/default/pods', { accept: TABLE_V1 });
    expect(pods.json.columnDefinitions.map((d: any) => d.name)).toEqual(['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node', 'Readiness Gates']);
    const deps = await c.get('/apis/apps/v1/namespaces/default/deployments', { accept: TABLE_V1 });
    expect(deps.json.columnDefinitions.map((d: any) => d.name)).toEqual(['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector']);
    const lrs = await c.get('/api/v1/namespaces/default/limitranges', { accept: TABLE_V1 });
    expect(lrs.json.columnDefinitions.map((d: any) => d.name)).toEqual(['Name', 'Created At']);
  });

  it('kubectl Accept (Table, then JSON) picks the Table', async () => {
    const r = await c.get(CM, { accept: `${TABLE_V1},${TABLE_V1BETA1},application/json` });
    expect(r.json.kind).toBe('Table');
  });
});

describe('PartialObjectMetadata', () => {
  it('one object', async () => {
    const r = await c.get(`${CM}/one`, { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' });
    expect(r.status).toBe(200);
    expect(r.json.kind).toBe('PartialObjectMetadata');
    expect(r.json.apiVersion).toBe('meta.k8s.io/v1');
    expect(r.json.metadata.labels).toEqual({ app: 'web', tier: 'front' });
    expect(r.json.data).toBeUndefined();
  });

  it('a list', async () => {
    const r = await c.get(CM, { accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' });
    expect(r.json.kind).toBe('PartialObjectMetadataList');
    expect(r.json.apiVersion).toBe('meta.k8s.io/v1');
    expect(r.json.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(r.json.items).toHaveLength(4);
    expect(r.json.items[0].kind).toBe('PartialObjectMetadata');
    expect(r.json.items[0].data).toBeUndefined();
  });
});

describe('selectors', () => {
  it('labelSelector: equality, set and existence', async () => {
    expect(names((await c.get(`${CM}?labelSelector=app%3Dweb`)).json)).toEqual(['one', 'three']);
    expect(names((await c.get(`${CM}?labelSelector=${encodeURIComponent('app in (db),!tier')}`)).json)).toEqual(['two']);
    expect(names((await c.get(`${CM}?labelSelector=${encodeURIComponent('app=web,tier!=front')}`)).json)).toEqual(['three']);
    expect(names((await c.get(`${CM}?labelSelector=tier`)).json)).toEqual(['one', 'three']);
  });

  it('fieldSelector metadata.name and metadata.namespace', async () => {
    expect(names((await c.get(`${CM}?fieldSelector=metadata.name%3Dtwo`)).json)).toEqual(['two']);
    expect(names((await c.get(`${CM}?fieldSelector=metadata.name!%3Dtwo`)).json)).toEqual(['kube-root-ca.crt', 'one', 'three']);
    const all = (await c.get(`/api/v1/configmaps?fieldSelector=metadata.namespace%3Dout`)).json;
    expect(names(all)).toEqual(['kube-root-ca.crt', 'one', 'three', 'two']);
  });

  it('pods by status.phase', async () => {
    await c.post(`${NS}/pods`, pod('pending'));
    expect(names((await c.get(`${NS}/pods?fieldSelector=status.phase%3DPending`)).json)).toEqual(['pending']);
    expect(names((await c.get(`${NS}/pods?fieldSelector=status.phase%3DRunning`)).json)).toEqual([]);
  });

  it('a malformed label selector → 400 BadRequest', async () => {
    const r = await c.get(`${CM}?labelSelector=${encodeURIComponent('app in (web')}`);
    expect(r.status).toBe(400);
    expect(r.json.reason).toBe('BadRequest');
    expect(r.json.message).toContain('unable to parse requirement');
  });

  it('an unknown pod field → 400', async () => {
    expect(failure(await c.get(`${NS}/pods?fieldSelector=spec.bogus%3Dx`))).toEqual({ code: 400, reason: 'BadRequest', message: 'field label not supported: spec.bogus' });
  });
});

describe('watch', () => {
  it('the legacy /watch/ path streams the current state as ADDED events', async () => {
    const r = await c.get('/api/v1/watch/namespaces/out/configmaps?labelSelector=app%3Ddb');
    expect(r.status).toBe(200);
    expect(r.headers['Content-Type']).toBe('application/json');
    const w = collectStream(r.raw);
    try {
      const events = await w.waitFor(1);
      expect(events[0]).toMatchObject({ type: 'ADDED', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'two' } } });
    } finally {
      w.cancel();
    }
  });
});

describe('paging', () => {
  it('limit and continue walk the list from one snapshot', async () => {
    const first = (await c.get(`${CM}?limit=2`)).json;
    expect(first.items).toHaveLength(2);
    expect(first.metadata.continue).toBeTruthy();
    expect(first.metadata.remainingItemCount).toBe(2);
    // A write between pages does not show up on the next page.
    await c.post(CM, configMap('zz-late'));
    const second = (await c.get(`${CM}?limit=2&continue=${encodeURIComponent(first.metadata.continue)}`)).json;
    expect(second.items).toHaveLength(2);
    expect(second.metadata.continue).toBeUndefined();
    expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    expect([...names(first), ...names(second)].sort()).toEqual(['kube-root-ca.crt', 'one', 'three', 'two']);
  });

  it('a malformed continue token → 400', async () => {
    const r = await c.get(`${CM}?limit=2&continue=garbage`);
    expect(r.status).toBe(400);
    expect(r.json.reason).toBe('BadRequest');
  });
});
