// labelSelector (=, ==, !=, in, notin, exists, !exists) and fieldSelector (metadata.name,
// metadata.namespace, pods' spec.nodeName / status.phase) on plain and chunked lists; bad
// selectors are a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../api';
import { call } from '../testing/watch';

const CM = '/api/v1/namespaces/default/configmaps';
let api: ApiServer;

const LABELS: Record<string, Record<string, string>> = {
  web1: { tier: 'web', canary: 'true' },
  web2: { tier: 'web' },
  db1: { tier: 'db' },
  cache1: { tier: 'cache', canary: 'false' },
  bare: {},
};

beforeAll(async () => {
  api = await createApiServer();
  expect((await call(api, 'POST', '/api/v1/namespaces', { metadata: { name: 'other' } })).status).toBe(201);
  for (const [name, labels] of Object.entries(LABELS)) {
    expect((await call(api, 'POST', CM, { metadata: { name, labels } })).status).toBe(201);
  }
  expect((await call(api, 'POST', '/api/v1/namespaces/other/configmaps', { metadata: { name: 'web1', labels: { tier: 'web' } } })).status).toBe(201);
  for (const [name, node] of [['p1', 'node-1'], ['p2', 'node-2'], ['p3', 'node-1']]) {
    const r = await call(api, 'POST', '/api/v1/namespaces/default/pods', { metadata: { name }, spec: { nodeName: node, containers: [{ name: 'c', image: 'nginx' }] } });
    expect(r.status, r.text).toBe(201);
  }
});
afterAll(async () => {
  await api?.close();
});

async function listNames(path: string, query: string, limit?: number): Promise<string[]> {
  const out: string[] = [];
  let cont = '';
  for (;;) {
    const r = await call(api, 'GET', `${path}?${query}${limit ? `&limit=${limit}` : ''}${cont ? `&continue=${cont}` : ''}`);
    expect(r.status, r.text).toBe(200);
    out.push(...r.json.items.map((i: any) => (path.includes('/namespaces/') ? i.metadata.name : `${i.metadata.namespace}/${i.metadata.name}`)));
    cont = r.json.metadata.continue ?? '';
    if (!cont) return out;
  }
}

// kube-root-ca.crt (the root-ca-cert-publisher's, no labels) matches the negative selectors.
const cases: Array<[string, string[]]> = [
  ['tier=web', ['web1', 'web2']],
  ['tier==web', ['web1', 'web2']],
  ['tier!=web', ['bare', 'cache1', 'db1', 'kube-root-ca.crt']],
  ['tier in (web,db)', ['db1', 'web1', 'web2']],
  ['tier notin (web,db)', ['bare', 'cache1', 'kube-root-ca.crt']],
  ['canary', ['cache1', 'web1']],
  ['!canary', ['bare', 'db1', 'kube-root-ca.crt', 'web2']],
  ['tier=web,!canary', ['web2']],
  ['tier in (web),canary=true', ['web1']],
];

describe('label selectors', () => {
  it.each(cases)('%s (plain and chunked by 1)', async (sel, want) => {
    const q = `labelSelector=${encodeURIComponent(sel)}`;
    expect(await listNames(CM, q)).toEqual(want);
    expect(await listNames(CM, q, 1)).toEqual(want);
  });

  it('a malformed selector is a 400', async () => {
    for (const sel of ['tier in (web', 'tier=web,,', '!tier=web']) {
      const r = await call(api, 'GET', `${CM}?labelSelector=${encodeURIComponent(sel)}`);
      expect(r.status, sel).toBe(400);
      expect(r.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    }
  });
});

describe('field selectors', () => {
  it('metadata.name and metadata.namespace, across namespaces', async () => {
    expect(await listNames('/api/v1/configmaps', 'fieldSelector=metadata.name%3Dweb1')).toEqual(['default/web1', 'other/web1']);
    expect(await listNames('/api/v1/configmaps', 'fieldSelector=metadata.namespace%3Dother', 1)).toEqual(['other/kube-root-ca.crt', 'other/web1']);
    expect(await listNames('/api/v1/configmaps', 'fieldSelector=metadata.name%21%3Dweb1,metadata.namespace%3Ddefault')).toEqual(['default/bare', 'default/cache1', 'default/db1', 'default/kube-root-ca.crt', 'default/web2']);
  });

  it('pods: spec.nodeName and status.phase', async () => {
    const pods = '/api/v1/namespaces/default/pods';
    expect(await listNames(pods, 'fieldSelector=spec.nodeName%3Dnode-1')).toEqual(['p1', 'p3']);
    expect(await listNames(pods, 'fieldSelector=spec.nodeName%3Dnode-1', 1)).toEqual(['p1', 'p3']);
    expect(await listNames(pods, 'fieldSelector=status.phase%3DPending')).toEqual(['p1', 'p2', 'p3']);
    expect(await listNames(pods, 'fieldSelector=status.phase%3DRunning')).toEqual([]);
  });

  it('an unsupported field is a 400 naming the field', async () => {
    const r = await call(api, 'GET', `${CM}?fieldSelector=spec.nodeName%3Dx`);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(r.json.message).toBe('"spec.nodeName" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });

  it('a malformed field selector is a 400', async () => {
    const r = await call(api, 'GET', `${CM}?fieldSelector=${encodeURIComponent('metadata.name')}`);
    expect(r.status).toBe(400);
    expect(r.json.reason).toBe('BadRequest');
  });
});
