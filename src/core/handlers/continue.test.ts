// Chunked lists: one consistent snapshot across limit/continue pages, remainingItemCount, continue
// token tampering (400) and expiry (410 Expired), on both storage backends; plus a 5,000-object
// walk while another client writes continuously.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../api';
import { createMemoryBackend } from '../storage/memory-backend';
import { createIdbBackend } from '../../backends/idb/idb-backend';
import type { KvBackend } from '../storage/types';
import { call, sleep } from '../testing/watch';

const idbFactory = new IDBFactory();
let dbCounter = 0;
const BACKENDS: Array<[string, () => KvBackend]> = [
  ['memory', () => createMemoryBackend()],
  ['indexeddb', () => createIdbBackend({ dbName: `continue-${++dbCounter}`, indexedDB: idbFactory })],
];

const CM = '/api/v1/namespaces/default/configmaps';
const MERGE = { 'content-type': 'application/merge-patch+json' };
const pad = (i: number) => String(i).padStart(4, '0');
/** Every namespace also holds the root-ca-cert-publisher's ConfigMap. */
const ROOT_CA = 'kube-root-ca.crt';

/** base64url without padding, as Go's RawURLEncoding. */
function b64url(s: string): string {
  return Buffer.from(s, 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function createMany(api: ApiServer, n: number, name: (i: number) => string, labels?: (i: number) => Record<string, string>): Promise<void> {
  const inFlight = 32;
  for (let start = 0; start < n; start += inFlight) {
    const batch: Promise<unknown>[] = [];
    for (let i = start; i < Math.min(n, start + inFlight); i++) {
      batch.push(
        call(api, 'POST', CM, { metadata: { name: name(i), labels: labels?.(i) }, data: { i: String(i) } }).then((r) => {
          if (r.status !== 201) throw new Error(`create ${name(i)}: ${r.status} ${r.text}`);
        }),
      );
    }
    await Promise.all(batch);
  }
}

interface Walk {
  items: any[];
  chunks: any[];
}

/** Follows continue tokens from a first query; `between` runs after every chunk. */
async function walk(api: ApiServer, firstQuery: string, limit: number, between?: (chunk: number) => Promise<void>): Promise<Walk> {
  const chunks: any[] = [];
  let r = await call(api, 'GET', `${CM}?${firstQuery}`);
  for (;;) {
    expect(r.status, r.text).toBe(200);
    chunks.push(r.json);
    const token = r.json.metadata.continue;
    if (!token) break;
    if (between) await between(chunks.length);
    r = await call(api, 'GET', `${CM}?limit=${limit}&continue=${encodeURIComponent(token)}${firstQuery.includes('labelSelector') ? `&${firstQuery.split('&').find((p) => p.startsWith('labelSelector'))}` : ''}`);
  }
  return { items: chunks.flatMap((c) => c.items), chunks };
}

describe.each(BACKENDS)('chunked lists (%s backend)', (_name, makeBackend) => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await createApiServer({ backend: makeBackend() });
    await createMany(api, 20, (i) => `cm-${pad(i)}`, (i) => ({ parity: i % 2 ? 'odd' : 'even' }));
  });
  afterAll(async () => {
    await api?.close();
  });

  it('pages come from one snapshot: later writes and deletes are invisible, one resourceVersion', async () => {
    const before = await call(api, 'GET', CM);
    const { items, chunks } = await walk(api, 'limit=6', 6, async (chunk) => {
      if (chunk !== 1) return;
      // After the first chunk: a create beyond the cursor, an update and a delete of unseen items.
      expect((await call(api, 'POST', CM, { metadata: { name: 'cm-0015-late' } })).status).toBe(201);
      expect((await call(api, 'PATCH', `${CM}/cm-0012`, { data: { i: 'changed' } }, MERGE)).status).toBe(200);
      expect((await call(api, 'DELETE', `${CM}/cm-0018`)).status).toBe(200);
    });
    expect(chunks.map((c) => c.items.length)).toEqual([6, 6, 6, 3]); // 20 + kube-root-ca.crt
    const rvs = new Set(chunks.map((c) => c.metadata.resourceVersion));
    expect(rvs.size).toBe(1);
    expect([...rvs][0]).toBe(before.json.metadata.resourceVersion);
    expect(items).toEqual(before.json.items);
    // The writes did happen.
    const after = await call(api, 'GET', CM);
    expect(after.json.items.map((i: any) => i.metadata.name)).toContain('cm-0015-late');
    expect(after.json.items.map((i: any) => i.metadata.name)).not.toContain('cm-0018');
    // Undo for the next tests.
    await call(api, 'DELETE', `${CM}/cm-0015-late`);
    await call(api, 'POST', CM, { metadata: { name: 'cm-0018', labels: { parity: 'even' } }, data: { i: '18' } });
  });

  it('remainingItemCount counts the items after the page, and is absent on the last page', async () => {
    const total = (await call(api, 'GET', CM)).json.items.length;
    const first = await call(api, 'GET', `${CM}?limit=5`);
    expect(first.json.metadata.remainingItemCount).toBe(total - 5);
    const second = await call(api, 'GET', `${CM}?limit=5&continue=${first.json.metadata.continue}`);
    expect(second.json.metadata.remainingItemCount).toBe(total - 10);
    const last = await call(api, 'GET', `${CM}?limit=${total}`);
    expect(last.json.metadata.continue).toBeUndefined();
    expect(last.json.metadata.remainingItemCount).toBeUndefined();
  });

  it('remainingItemCount is omitted when a label or field selector is in use', async () => {
    for (const sel of ['labelSelector=parity%3Deven', 'fieldSelector=metadata.namespace%3Ddefault']) {
      const r = await call(api, 'GET', `${CM}?limit=3&${sel}`);
      expect(r.status).toBe(200);
      expect(r.json.items).toHaveLength(3);
      expect(r.json.metadata.continue).toEqual(expect.any(String));
      expect(r.json.metadata.remainingItemCount).toBeUndefined();
    }
  });

  it('a chunked walk with a label selector returns exactly the matching items', async () => {
    const { items, chunks } = await walk(api, 'limit=3&labelSelector=parity%3Dodd', 3);
    expect(items.map((i) => i.metadata.name)).toEqual(Array.from({ length: 10 }, (_, k) => `cm-${pad(2 * k + 1)}`));
    for (const c of chunks) expect(c.metadata.remainingItemCount).toBeUndefined();
  });

  describe('tampered continue tokens are a 400', () => {
    const cases: Array<[string, string, string | RegExp]> = [
      ['not base64url', '!!!', /^invalid continue token: continue key is not valid: illegal base64 data at input byte \d+$/],
      ['not JSON', b64url('hello'), /^invalid continue token: continue key is not valid: /],
      ['zero resourceVersion', b64url(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 0, start: 'cm-0003\u0000' })), 'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)'],
      ['empty start key', b64url(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 5, start: '' })), 'invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)'],
      ['path traversal', b64url(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 5, start: '../secrets/x' })), 'invalid continue token: continue key is not valid: ../secrets/x'],
      ['unknown version', b64url(JSON.stringify({ v: 'meta.k8s.io/v9', rv: 5, start: 'x' })), /^invalid continue token: continue key is not valid: server does not recognize this encoded/],
    ];
    it.each(cases)('%s', async (_what, token, message) => {
      const r = await call(api, 'GET', `${CM}?limit=2&continue=${encodeURIComponent(token)}`);
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
      if (typeof message === 'string') expect(r.json.message).toBe(message);
      else expect(r.json.message).toMatch(message);
    });
  });
});

describe('continue tokens expire with the history window', () => {
  it('answers 410 Expired with the inconsistent-continue message', async () => {
    const api = await createApiServer({ historyWindowMs: 1 });
    try {
      await createMany(api, 6, (i) => `cm-${pad(i)}`);
      const first = await call(api, 'GET', `${CM}?limit=2`);
      const token = first.json.metadata.continue as string;
      // A write after the first chunk, then the 1 s compaction timer drops the chunk's revision.
      await call(api, 'POST', CM, { metadata: { name: 'cm-9999' } });
      await sleep(1300);
      const r = await call(api, 'GET', `${CM}?limit=2&continue=${token}`);
      expect(r.status).toBe(410);
      expect(r.json).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410 });
      expect(r.json.message).toBe(
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
      );
    } finally {
      await api.close();
    }
  });

  // etcd3's handleCompactedErrorForPaging puts a new token (resourceVersion -1: "continue at the
  // latest revision") into the 410 Status's metadata.continue, which the message refers to.
  it('carries a token in the 410 Status that continues at the latest revision', async () => {
    const api = await createApiServer({ historyWindowMs: 1 });
    try {
      await createMany(api, 6, (i) => `cm-${pad(i)}`);
      const first = await call(api, 'GET', `${CM}?limit=2`);
      await call(api, 'POST', CM, { metadata: { name: 'cm-9999' } });
      await sleep(1300);
      const r = await call(api, 'GET', `${CM}?limit=2&continue=${first.json.metadata.continue}`);
      expect(r.status).toBe(410);
      expect(r.json.metadata.continue).toEqual(expect.any(String));
      const rest = await call(api, 'GET', `${CM}?limit=100&continue=${r.json.metadata.continue}`);
      expect(rest.status).toBe(200);
      expect(rest.json.items.map((i: any) => i.metadata.name)).toEqual(['cm-0002', 'cm-0003', 'cm-0004', 'cm-0005', 'cm-9999', ROOT_CA]);
    } finally {
      await api.close();
    }
  });
});

describe('a 5,000-object chunked walk under continuous writes', () => {
  it('equals the snapshot at its first resourceVersion', async () => {
    const api = await createApiServer();
    try {
      const N = 5000;
      await createMany(api, N, (i) => `cm-${pad(i)}`);
      const snapshot = await call(api, 'GET', CM);
      expect(snapshot.json.items).toHaveLength(N + 1); // + kube-root-ca.crt, the last page alone
      const snapRv = snapshot.json.metadata.resourceVersion as string;

      // The writer: updates, deletes and creates (some sorting between existing keys) until the walk is done.
      let walking = true;
      let writes = 0;
      const writer = (async () => {
        let k = 0;
        while (walking) {
          const i = (k * 7919) % N;
          const op = k % 3;
          if (op === 0) await call(api, 'PATCH', `${CM}/cm-${pad(i)}`, { data: { i: `w${k}` } }, MERGE);
          else if (op === 1) await call(api, 'DELETE', `${CM}/cm-${pad(i)}`);
          else await call(api, 'POST', CM, { metadata: { name: `cm-${pad(i)}-x${k}` } });
          writes++;
          k++;
          // In-process calls settle as microtasks: every few writes, yield a macrotask turn so the
          // walker runs too.
          if (k % 4 === 0) await new Promise((resolve) => setImmediate(resolve));
        }
      })();

      const chunks: any[] = [];
      let r = await call(api, 'GET', `${CM}?limit=100&resourceVersion=${snapRv}`);
      for (;;) {
        expect(r.status, r.text).toBe(200);
        chunks.push(r.json);
        if (!r.json.metadata.continue) break;
        // Give the writer a turn between chunks so writes land mid-walk.
        await new Promise((resolve) => setImmediate(resolve));
        r = await call(api, 'GET', `${CM}?limit=100&continue=${r.json.metadata.continue}`);
      }
      walking = false;
      await writer;

      expect(writes).toBeGreaterThan(2 * chunks.length);
      expect(chunks).toHaveLength(N / 100 + 1);
      for (const c of chunks) expect(c.metadata.resourceVersion).toBe(snapRv);
      const walked = chunks.flatMap((c) => c.items);
      expect(walked.length).toBe(N + 1);
      expect(walked).toEqual(snapshot.json.items);
      // The store moved on meanwhile.
      const now = await call(api, 'GET', CM);
      expect(Number(now.json.metadata.resourceVersion)).toBeGreaterThan(Number(snapRv));
    } finally {
      await api.close();
    }
  }, 60_000);
});

describe.each(BACKENDS)('pages listed again after writes (%s backend)', (_name, makeBackend) => {
  it('a relisted page shows every update, create and delete since, at every page size', async () => {
    const api = await createApiServer({ backend: makeBackend() });
    try {
      await createMany(api, 120, (i) => `cm-${pad(i)}`);
      const names = (w: Walk) => w.items.map((i) => `${i.metadata.name}=${i.data?.i ?? ''}`);
      const full = async () => names({ items: (await call(api, 'GET', CM)).json.items, chunks: [] });
      for (const limit of [40, 50, 120]) {
        // Listed twice first, so the second walk is answered from kept pages.
        await walk(api, `limit=${limit}`, limit);
        expect(names(await walk(api, `limit=${limit}`, limit))).toEqual(await full());
      }
      expect((await call(api, 'PATCH', `${CM}/cm-0045`, { data: { i: 'changed' } }, MERGE)).status).toBe(200);
      expect((await call(api, 'POST', CM, { metadata: { name: 'cm-0010-new' }, data: { i: 'new' } })).status).toBe(201);
      expect((await call(api, 'DELETE', `${CM}/cm-0090`)).status).toBe(200);
      const expected = await full();
      expect(expected).toContain('cm-0045=changed');
      expect(expected).toContain('cm-0010-new=new');
      expect(expected.some((n) => n.startsWith('cm-0090='))).toBe(false);
      for (const limit of [40, 50, 120]) expect(names(await walk(api, `limit=${limit}`, limit))).toEqual(expected);
    } finally {
      await api.close();
    }
  });
});
