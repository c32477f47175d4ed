// Storage failures seen through the API: a full disk (QuotaExceededError) or a transaction that
// aborts on its own must answer a Kubernetes 500 InternalError Status — what kube-apiserver says
// when etcd fails — and leave nothing half-written, before or after a restart.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiServer } from '../../core/api';
import { decodeReply, failure } from '../../core/testing/api-server';
import type { ApiServer } from '../../core/api';
import { StorageError, type CommitBatch } from '../../core/storage/types';
import { createIdbBackend } from './idb-backend';

const factory = new IDBFactory();
let counter = 0;
const servers: ApiServer[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(dbName: string): Promise<ApiServer> {
  const server = await createApiServer({ backend: createIdbBackend({ dbName, indexedDB: factory }) });
  servers.push(server);
  return server;
}

const configMap = (name: string) => new TextEncoder().encode(JSON.stringify({ metadata: { name }, data: { a: 'x'.repeat(100) } }));

async function call(server: ApiServer, method: string, url: string, body?: Uint8Array) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body) headers['content-type'] = 'application/json';
  return decodeReply(await server.handle({ method, url, headers, body }));
}

/** Every put into `store` fails as a full disk does. */
function quotaOnPut(store: 'objects' | 'history'): void {
  const put = IDBObjectStore.prototype.put;
  vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
    if (this.name === store) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    return put.call(this, value, key);
  });
}

const QUOTA_STATUS = {
  code: 500,
  reason: 'InternalError',
  message: 'Internal error occurred: commit failed: indexeddb commit failed: QuotaExceededError: The quota has been exceeded.',
};

describe('IndexedDB failures through the API', () => {
  it('answers a create that hits the quota with 500 InternalError and writes nothing', async () => {
    const dbName = `quota-${++counter}`;
    const server = await start(dbName);
    const before = await call(server, 'GET', '/api/v1/namespaces/default/configmaps');
    expect(before.status).toBe(200);
    const rv = before.json.metadata.resourceVersion as string;

    quotaOnPut('objects');
    const created = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', configMap('big'));
    expect(failure(created)).toEqual(QUOTA_STATUS);
    expect((await call(server, 'GET', '/api/v1/namespaces/default/configmaps/big')).status).toBe(404);

    // Storage has room again: the store goes on, and the failed write's object never appears.
    vi.restoreAllMocks();
    const next = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', configMap('small'));
    expect(next.status).toBe(201);
    expect(Number(next.json.metadata.resourceVersion)).toBeGreaterThan(Number(rv));

    await server.close();
    const again = await start(dbName);
    const list = await call(again, 'GET', '/api/v1/namespaces/default/configmaps');
    // kube-root-ca.crt is the root-ca-cert-publisher's, written at bootstrap.
    expect(list.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['kube-root-ca.crt', 'small']);
    expect(Number(list.json.metadata.resourceVersion)).toBe(Number(next.json.metadata.resourceVersion));
  });

  it('fails every create of a group-committed batch together', async () => {
    const server = await start(`quota-${++counter}`);
    quotaOnPut('objects');
    const replies = await Promise.all(['a', 'b', 'c'].map((n) => call(server, 'POST', '/api/v1/namespaces/default/configmaps', configMap(n))));
    expect(replies.map((r) => r.status)).toEqual([500, 500, 500]);
    vi.restoreAllMocks();
    const list = await call(server, 'GET', '/api/v1/namespaces/default/configmaps');
    expect(list.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['kube-root-ca.crt']);
  });
});

describe('IndexedDB failures through the API, after the object put', () => {
  it('answers an update whose history record hits the quota with 500, and keeps the old object', async () => {
    // An update's batch puts the object, then its history record: the second put fails after
    // the first was issued, and the transaction takes both back.
    const dbName = `quota-${++counter}`;
    const server = await start(dbName);
    const created = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', configMap('kept'));
    expect(created.status).toBe(201);
    quotaOnPut('history');
    const patch = new TextEncoder().encode(JSON.stringify({ data: { a: 'changed' } }));
    const patched = decodeReply(await server.handle({ method: 'PATCH', url: '/api/v1/namespaces/default/configmaps/kept', headers: { accept: 'application/json', 'content-type': 'application/merge-patch+json' }, body: patch }));
    expect(failure(patched)).toEqual(QUOTA_STATUS);
    vi.restoreAllMocks();
    const read = async (s: ApiServer) => (await call(s, 'GET', '/api/v1/namespaces/default/configmaps/kept')).json;
    expect((await read(server)).data.a).toBe('x'.repeat(100));
    expect((await read(server)).metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    await server.close();
    const again = await start(dbName);
    expect((await read(again)).data.a).toBe('x'.repeat(100));
  });
});

describe('IndexedDB backend transaction aborts', () => {
  it('rejects with the transaction error when a request fails after being issued, and rolls back', async () => {
    const backend = createIdbBackend({ dbName: `abort-${++counter}`, indexedDB: factory });
    const batch = (rev: number): CommitBatch => ({
      revision: rev,
      puts: [{ key: `/k/${rev}`, value: `{"rev":${rev}}`, createRev: rev, modRev: rev }],
      deletes: [],
      events: [{ type: 'put', key: `/k/${rev}`, rev, value: `{"rev":${rev}}`, createRev: rev }],
      compactRevision: 0,
    });
    await backend.commit(batch(1));
    // `add` on an existing key fails asynchronously (ConstraintError), the way a quota failure
    // surfaces in a real browser: the request errors, then the whole transaction aborts. The
    // batch's first put (a new key) was issued before the failing one (the existing /k/1).
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      return this.add(value, key);
    });
    const second = batch(2);
    second.puts.push({ key: '/k/1', value: '{"rev":2}', createRev: 1, modRev: 2 });
    const error = await Promise.resolve(backend.commit(second)).catch((e: unknown) => e);
    vi.restoreAllMocks();
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).message).toMatch(/^indexeddb commit failed: ConstraintError/);
    const state = await backend.open();
    expect(state.revision).toBe(1);
    expect(state.index.map((r) => r.key)).toEqual(['/k/1']);
    await backend.close();
  });
});
