// Every cell of kube-apiserver's list matrix (resourceVersion × resourceVersionMatch × paging),
// including the invalid ones, against both storage backends. The fixture writes a known history
// so "Exact" answers can be checked against the state at a past revision.
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
  ['indexeddb', () => createIdbBackend({ dbName: `list-matrix-${++dbCounter}`, indexedDB: idbFactory })],
];

const CM = '/api/v1/namespaces/default/configmaps';
/** Published in every namespace by the root-ca-cert-publisher; present at every revision here. */
const ROOT_CA = 'kube-root-ca.crt';

const names = (list: any): string[] => (list.items as any[]).map((i) => i.metadata.name);
const rvOf = (r: { json: any }): number => Number(r.json.metadata.resourceVersion);

/** kube-apiserver's ListOptions validation error text (errors.NewInvalid over field errors). */
function invalidListOptions(...details: string[]): string {
  const parts = details.map((d) => `resourceVersionMatch: ${d}`);
  return `ListOptions.meta.k8s.io "" is invalid: ${parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`}`;
}
const UNLESS_RV = 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided';
const WITH_CONTINUE = 'Forbidden: resourceVersionMatch is forbidden when continue is provided';
const EXACT_ZERO = 'Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"';

describe.each(BACKENDS)('list resourceVersion matrix (%s backend)', (_name, makeBackend) => {
  let api: ApiServer;
  /** Revision after a, b, c were created: state {a:v1, b, c}. */
  let snapRev: number;
  /** Latest state {a:v2, c, d}. */
  let latestRev: number;

  beforeAll(async () => {
    api = await createApiServer({ backend: makeBackend() });
    for (const n of ['a', 'b', 'c']) {
      const r = await call(api, 'POST', CM, { metadata: { name: n }, data: { v: '1' } });
      expect(r.status).toBe(201);
      snapRev = Number(r.json.metadata.resourceVersion);
    }
    expect((await call(api, 'PATCH', `${CM}/a`, { data: { v: '2' } }, { 'content-type': 'application/merge-patch+json' })).status).toBe(200);
    expect((await call(api, 'DELETE', `${CM}/b`)).status).toBe(200);
    const d = await call(api, 'POST', CM, { metadata: { name: 'd' }, data: { v: '1' } });
    latestRev = Number(d.json.metadata.resourceVersion);
  });
  afterAll(async () => {
    await api?.close();
  });

  const list = (query: string) => call(api, 'GET', `${CM}${query ? `?${query}` : ''}`);
  const expectLatest = (r: { status: number; json: any }) => {
    expect(r.status).toBe(200);
    expect(names(r.json)).toEqual(['a', 'c', 'd', ROOT_CA]);
    expect(r.json.items[0].data).toEqual({ v: '2' });
  };
  const expectSnapshot = (r: { status: number; json: any }) => {
    expect(r.status).toBe(200);
    expect(rvOf(r)).toBe(snapRev);
    expect(names(r.json)).toEqual(['a', 'b', 'c', ROOT_CA]);
    expect(r.json.items[0].data).toEqual({ v: '1' });
  };

  describe('resourceVersionMatch unset, no limit', () => {
    it('rv unset: Most Recent (collection resourceVersion = latest revision)', async () => {
      const r = await list('');
      expectLatest(r);
      expect(rvOf(r)).toBe(latestRev);
      expect(r.json.metadata.continue).toBeUndefined();
    });
    it('rv=0: Any (served, never older than what was written before)', async () => {
      expectLatest(await list('resourceVersion=0'));
    });
    it('rv=other: Not older than (latest state, not the state at rv)', async () => {
      const r = await list(`resourceVersion=${snapRev}`);
      expectLatest(r);
      expect(rvOf(r)).toBeGreaterThanOrEqual(snapRev);
    });
  });

  describe('resourceVersionMatch unset, limit=n', () => {
    it('rv unset: Most Recent, paged', async () => {
      const r = await list('limit=2');
      expect(r.status).toBe(200);
      expect(names(r.json)).toEqual(['a', 'c']);
      expect(rvOf(r)).toBe(latestRev);
      expect(r.json.metadata.continue).toEqual(expect.any(String));
      expect(r.json.metadata.remainingItemCount).toBe(2);
    });
    it('rv=0: Any, from the watch cache, which ignores the limit (every current item, no continue)', async () => {
      for (const q of ['resourceVersion=0&limit=2', 'resourceVersion=0&resourceVersionMatch=NotOlderThan&limit=2']) {
        const r = await list(q);
        expect(r.status).toBe(200);
        expect(names(r.json)).toEqual(['a', 'c', 'd', ROOT_CA]);
        expect(rvOf(r)).toBe(latestRev);
        expect(r.json.metadata.continue).toBeUndefined();
        expect(r.json.metadata.remainingItemCount).toBeUndefined();
      }
    });
    it('rv=other: Exact (served from history at exactly that revision)', async () => {
      expectSnapshot(await list(`resourceVersion=${snapRev}&limit=10`));
      const paged = await list(`resourceVersion=${snapRev}&limit=2`);
      expect(rvOf(paged)).toBe(snapRev);
      expect(names(paged.json)).toEqual(['a', 'b']);
      expect(paged.json.metadata.remainingItemCount).toBe(2);
    });
  });

  describe('resourceVersionMatch unset, limit + continue', () => {
    it('rv unset: continues at the token revision (Exact)', async () => {
      const first = await list(`resourceVersion=${snapRev}&limit=2`);
      const next = await list(`limit=2&continue=${first.json.metadata.continue}`);
      expect(next.status).toBe(200);
      expect(rvOf(next)).toBe(snapRev);
      expect(names(next.json)).toEqual(['c', ROOT_CA]);
      expect(next.json.metadata.continue).toBeUndefined();
      expect(next.json.metadata.remainingItemCount).toBeUndefined();
    });
    it('rv=0: treated as the continue token, Exact', async () => {
      const first = await list(`resourceVersion=${snapRev}&limit=1`);
      const next = await list(`resourceVersion=0&limit=1&continue=${first.json.metadata.continue}`);
      expect(next.status).toBe(200);
      expect(rvOf(next)).toBe(snapRev);
      expect(names(next.json)).toEqual(['b']);
    });
    it('rv=other: 400 BadRequest', async () => {
      const first = await list('limit=1');
      const r = await list(`resourceVersion=${latestRev}&limit=1&continue=${first.json.metadata.continue}`);
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400, message: 'specifying resource version is not allowed when using continue' });
    });
  });

  describe('resourceVersionMatch=Exact', () => {
    it('rv unset: invalid', async () => {
      for (const q of ['resourceVersionMatch=Exact', 'resourceVersionMatch=Exact&limit=2']) {
        const r = await list(q);
        expect(r.json.message).toBe(invalidListOptions(UNLESS_RV));
      }
    });
    it('rv=0: invalid', async () => {
      for (const q of ['resourceVersion=0&resourceVersionMatch=Exact', 'resourceVersion=0&resourceVersionMatch=Exact&limit=2']) {
        const r = await list(q);
        expect(r.json.message).toBe(invalidListOptions(EXACT_ZERO));
      }
    });
    it('rv=other: Exact, with and without a limit', async () => {
      expectSnapshot(await list(`resourceVersion=${snapRev}&resourceVersionMatch=Exact`));
      const paged = await list(`resourceVersion=${snapRev}&resourceVersionMatch=Exact&limit=1`);
      expect(rvOf(paged)).toBe(snapRev);
      expect(names(paged.json)).toEqual(['a']);
      expect(paged.json.items[0].data).toEqual({ v: '1' });
    });
  });

  describe('resourceVersionMatch=NotOlderThan', () => {
    it('rv unset: invalid', async () => {
      for (const q of ['resourceVersionMatch=NotOlderThan', 'resourceVersionMatch=NotOlderThan&limit=2']) {
        expect((await list(q)).json.message).toBe(invalidListOptions(UNLESS_RV));
      }
    });
    it('rv=0: Any', async () => {
      expectLatest(await list('resourceVersion=0&resourceVersionMatch=NotOlderThan'));
    });
    it('rv=other: Not older than, with and without a limit', async () => {
      const r = await list(`resourceVersion=${snapRev}&resourceVersionMatch=NotOlderThan`);
      expectLatest(r);
      expect(rvOf(r)).toBeGreaterThanOrEqual(latestRev);
      const paged = await list(`resourceVersion=${snapRev}&resourceVersionMatch=NotOlderThan&limit=2`);
      expect(names(paged.json)).toEqual(['a', 'c']);
      expect(rvOf(paged)).toBeGreaterThanOrEqual(latestRev);
    });
  });

  describe('other invalid combinations', () => {
    it('an unknown resourceVersionMatch is NotSupported', async () => {
      const r = await list(`resourceVersion=${snapRev}&resourceVersionMatch=Newest`);
      expect(r.json.message).toBe(invalidListOptions('Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""'));
    });
    it('resourceVersionMatch with continue is forbidden', async () => {
      const first = await list('limit=1');
      const r = await list(`resourceVersion=${snapRev}&resourceVersionMatch=NotOlderThan&continue=${first.json.metadata.continue}`);
      expect(r.json.message).toBe(invalidListOptions(WITH_CONTINUE));
    });
    it('reports every violated rule at once, in kube-apiserver order', async () => {
      const first = await list('limit=1');
      const r = await list(`resourceVersionMatch=Exact&continue=${first.json.metadata.continue}`);
      expect(r.json.message).toBe(invalidListOptions(UNLESS_RV, WITH_CONTINUE));
    });
    it('a resourceVersion that is not a uint64 is a 400 where the etcd3 store parses it, a reasonless 500 where the watch cache does (as in kube-apiserver v1.23)', async () => {
      const parseError = 'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax';
      for (const q of ['resourceVersion=abc&limit=2', 'resourceVersion=abc&resourceVersionMatch=Exact']) {
        const r = await list(q);
        expect(r.status, q).toBe(400);
        expect(r.json).toMatchObject({ reason: 'BadRequest', message: `invalid resource version: ${parseError}` });
      }
      const r = await list('resourceVersion=abc');
      expect(r.status).toBe(500);
      expect(r.json.reason).toBeUndefined();
      expect(r.json.message).toBe(parseError);
    });
  });
});

describe('ListOptions validation errors', () => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await createApiServer();
  });
  afterAll(async () => {
    await api?.close();
  });

  // The issue asks for 400 here; kube-apiserver's ListResource answers the same message as
  // errors.NewInvalid (422) over the field errors.
  it('are a 400 Status naming ListOptions.meta.k8s.io and the parameter', async () => {
    const r = await call(api, 'GET', `${CM}?resourceVersionMatch=Exact`);
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: invalidListOptions(UNLESS_RV),
      reason: 'BadRequest',
      code: 400,
    });
  });
});

describe('Exact list older than the history window', () => {
  it('is 410 Expired with etcd3 store wording', async () => {
    const api = await createApiServer({ historyWindowMs: 1 });
    try {
      const a = await call(api, 'POST', CM, { metadata: { name: 'old' } });
      const oldRev = Number(a.json.metadata.resourceVersion);
      await call(api, 'POST', CM, { metadata: { name: 'newer' } });
      // The store compacts on a 1 s timer when the window is this short.
      await sleep(1300);
      for (const q of [`resourceVersion=${oldRev}&resourceVersionMatch=Exact`, `resourceVersion=${oldRev}&limit=5`]) {
        const r = await call(api, 'GET', `${CM}?${q}`);
        expect(r.status).toBe(410);
        expect(r.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
        // k8s.io/apiserver/pkg/storage/etcd3: interpretListError for a compacted revision.
        expect(r.json.message).toBe('The resourceVersion for the provided list is too old.');
      }
      // Not-older-than reads never need history: still served.
      expect((await call(api, 'GET', `${CM}?resourceVersion=${oldRev}`)).status).toBe(200);
    } finally {
      await api.close();
    }
  });
});
