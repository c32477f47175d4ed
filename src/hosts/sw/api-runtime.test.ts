// `idb` checks requests with instanceof against the global IDB classes: install the fake's.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { createApiRuntime } from './api-runtime';

const json = { 'content-type': 'application/json', accept: 'application/json' };
const create = (name: string) => ({ method: 'POST', url: '/api/v1/namespaces/default/configmaps', headers: json, body: new TextEncoder().encode(JSON.stringify({ metadata: { name } })) });
const get = (name: string) => ({ method: 'GET', url: `/api/v1/namespaces/default/configmaps/${name}`, headers: json });

/** Simulates quota exhaustion: every readwrite transaction from now on fails; returns the undo. */
function exhaustQuota(): () => void {
  const original = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function (this: IDBDatabase, names: string | string[], mode?: IDBTransactionMode) {
    if (mode === 'readwrite') throw new DOMException('quota exceeded', 'QuotaExceededError');
    return original.call(this, names, mode);
  } as typeof original;
  return () => {
    IDBDatabase.prototype.transaction = original;
  };
}

describe('api runtime', () => {
  it('persists in IndexedDB across a worker restart (close and reopen)', async () => {
    const indexedDB = new IDBFactory();
    const rt = createApiRuntime({ dbName: 'db', indexedDB, api: {} });
    expect((await (await rt.server()).handle(create('kept'))).status).toBe(201);
    expect(rt.storageError).toBe('');
    expect(rt.mode).toBe('persistent');
    await rt.close();
    const again = createApiRuntime({ dbName: 'db', indexedDB, api: {} });
    expect((await (await again.server()).handle(get('kept'))).status).toBe(200);
    await again.close();
  });

  it('falls back to memory, saying so, when IndexedDB cannot be opened', async () => {
    const denied = { open: () => { throw new DOMException('denied', 'SecurityError'); } } as unknown as IDBFactory;
    const rt = createApiRuntime({ dbName: 'db', indexedDB: denied, api: {} });
    const server = await rt.server();
    expect(rt.mode).toBe('memory');
    expect(rt.storageError).toContain('not persistent');
    expect(rt.storageError).toContain('denied');
    expect((await server.handle(create('x'))).status).toBe(201);
    await rt.close();
  });

  it('reset wipes the stored cluster and starts an empty one with the default namespaces', async () => {
    const indexedDB = new IDBFactory();
    const rt = createApiRuntime({ dbName: 'db', indexedDB, api: {} });
    await (await rt.server()).handle(create('gone'));
    await rt.reset();
    const server = await rt.server();
    expect((await server.handle(get('gone'))).status).toBe(404);
    expect((await server.handle({ method: 'GET', url: '/api/v1/namespaces/kube-system', headers: json })).status).toBe(200);
    await rt.close();
  });

  it('records a failed commit for the page and answers it as a 500 Status', async () => {
    const indexedDB = new IDBFactory();
    const rt = createApiRuntime({ dbName: 'quota', indexedDB, api: {} });
    const server = await rt.server();
    const restore = exhaustQuota();
    try {
      const res = await server.handle(create('too-much'));
      expect(res.status).toBe(500);
      expect(JSON.parse(res.body as string)).toMatchObject({ kind: 'Status', reason: 'InternalError', code: 500 });
      expect(res.body as string).toContain('QuotaExceededError');
      expect(rt.storageError).toContain('QuotaExceededError');
    } finally {
      restore();
      await rt.close();
    }
  });

  it('continues in memory after a failed commit with objects and resourceVersions kept; a reset goes back to IndexedDB', async () => {
    const indexedDB = new IDBFactory();
    const rt = createApiRuntime({ dbName: 'full', indexedDB, api: {} });
    const server = await rt.server();
    const kept = JSON.parse((await server.handle(create('kept'))).body as string);
    const restore = exhaustQuota();
    try {
      expect((await server.handle(create('refused'))).status).toBe(500);
      const memory = await rt.continueInMemory();
      expect(rt.mode).toBe('memory');
      expect(rt.storageError).toMatch(/^running in memory after a storage failure \(.*QuotaExceededError.*\): changes are not persistent$/);
      const got = JSON.parse((await memory.handle(get('kept'))).body as string);
      expect(got.metadata.resourceVersion).toBe(kept.metadata.resourceVersion);
      expect(got.metadata.uid).toBe(kept.metadata.uid);
      expect((await memory.handle(get('refused'))).status).toBe(404);
      const created = JSON.parse((await memory.handle(create('in-memory'))).body as string);
      expect(Number(created.metadata.resourceVersion)).toBeGreaterThan(Number(kept.metadata.resourceVersion));
      // A second request to continue in memory changes nothing.
      expect(await rt.continueInMemory()).toBe(memory);
    } finally {
      restore();
    }
    await rt.reset();
    const fresh = await rt.server();
    expect(rt.mode).toBe('persistent');
    expect(rt.storageError).toBe('');
    expect((await fresh.handle(get('kept'))).status).toBe(404);
    await rt.close();
  });
});

describe('api runtime reset', () => {
  it('a request that arrives during a reset is served by the new, empty cluster', async () => {
    const indexedDB = new IDBFactory();
    const rt = createApiRuntime({ dbName: 'reset-race', indexedDB, api: {} });
    expect((await (await rt.server()).handle(create('old'))).status).toBe(201);
    const resetting = rt.reset();
    // The page's revision poll or a view's watch, arriving while the old server closes.
    const during = rt.server().then((s) => s.handle(create('during')));
    await resetting;
    expect((await during).status).toBe(201);
    const server = await rt.server();
    expect((await server.handle(get('old'))).status).toBe(404);
    expect((await server.handle(get('during'))).status).toBe(200);
    expect((await server.handle(create('after'))).status).toBe(201);
    await rt.close();
  });
});
