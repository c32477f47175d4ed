// resourceVersion on GET (unset = Most Recent, "0" = Any, other = Not older than), and requests for
// a revision the store does not have yet: they wait (~3 s, kube-apiserver's watch-cache wait) and
// then answer 504 "Too large resource version" with Retry-After.
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
  ['indexeddb', () => createIdbBackend({ dbName: `get-rv-${++dbCounter}`, indexedDB: idbFactory })],
];

const CM = '/api/v1/namespaces/default/configmaps';
const MERGE = { 'content-type': 'application/merge-patch+json' };
const rvOf = (o: any): number => Number(o.metadata.resourceVersion);

describe.each(BACKENDS)('get resourceVersion semantics (%s backend)', (_name, makeBackend) => {
  let api: ApiServer;
  let v1: number;
  let v2: number;
  beforeAll(async () => {
    api = await createApiServer({ backend: makeBackend() });
    v1 = rvOf((await call(api, 'POST', CM, { metadata: { name: 'g' }, data: { v: '1' } })).json);
    v2 = rvOf((await call(api, 'PATCH', `${CM}/g`, { data: { v: '2' } }, MERGE)).json);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('unset: Most Recent', async () => {
    const r = await call(api, 'GET', `${CM}/g`);
    expect(r.status).toBe(200);
    expect(rvOf(r.json)).toBe(v2);
    expect(r.json.data).toEqual({ v: '2' });
  });
  it('"0": Any (here: the latest state)', async () => {
    const r = await call(api, 'GET', `${CM}/g?resourceVersion=0`);
    expect(r.status).toBe(200);
    expect(rvOf(r.json)).toBeGreaterThanOrEqual(v1);
  });
  it('other: Not older than (an older rv still answers the current object)', async () => {
    const r = await call(api, 'GET', `${CM}/g?resourceVersion=${v1}`);
    expect(r.status).toBe(200);
    expect(rvOf(r.json)).toBe(v2);
    expect(r.json.data).toEqual({ v: '2' });
  });
  it('a future rv is answered as soon as a write reaches it', async () => {
    const pending = call(api, 'GET', `${CM}/g?resourceVersion=${v2 + 1}`);
    await sleep(50);
    await call(api, 'PATCH', `${CM}/g`, { data: { v: '3' } }, MERGE);
    const t0 = Date.now();
    const r = await pending;
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ v: '3' });
  });
  it('a not-found object at a given rv is 404', async () => {
    const r = await call(api, 'GET', `${CM}/nope?resourceVersion=${v1}`);
    expect(r.status).toBe(404);
  });
});

describe('a revision the store does not reach in time', () => {
  it('get and list answer 504 Timeout "Too large resource version" with Retry-After after ~3 s', async () => {
    const api = await createApiServer();
    try {
      const cur = rvOf((await call(api, 'GET', CM)).json);
      const future = cur + 1000;
      const t0 = Date.now();
      const [get, list] = await Promise.all([call(api, 'GET', `${CM}/x?resourceVersion=${future}`), call(api, 'GET', `${CM}?resourceVersion=${future}`)]);
      const took = Date.now() - t0;
      expect(took).toBeGreaterThanOrEqual(2900);
      expect(took).toBeLessThan(6000);
      for (const r of [get, list]) {
        expect(r.status).toBe(504);
        expect(r.headers['Retry-After']).toBe('1');
        expect(r.json).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Timeout', code: 504 });
        expect(r.json.message).toBe(`Timeout: Too large resource version: ${future}, current: ${cur}`);
        expect(r.json.details.retryAfterSeconds).toBe(1);
      }
      // client-go's reflector recognises this error by its cause (storage.IsTooLargeResourceVersion).
      for (const r of [get, list]) {
        expect(r.json.details.causes).toEqual([{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }]);
      }
    } finally {
      await api.close();
    }
  }, 15_000);
});
