// `idb` recognises requests, cursors and transactions with instanceof against the global IDB
// classes, so the fake's classes must be installed globally; the factory itself is passed in.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import { runStoreConformance } from '../../core/storage/testing/conformance';
import { StorageError, type CommitBatch, type KvBackend } from '../../core/storage/types';
import { createIdbBackend } from './idb-backend';

// One fake IndexedDB for the whole file; each backend gets its own database name.
const factory = new IDBFactory();
const names = new WeakMap<KvBackend, string>();
let counter = 0;

function freshBackend(): KvBackend {
  const dbName = `kv-${++counter}`;
  const backend = createIdbBackend({ dbName, indexedDB: factory });
  names.set(backend, dbName);
  return backend;
}

function sameDatabase(previous: KvBackend): KvBackend {
  const dbName = names.get(previous)!;
  const backend = createIdbBackend({ dbName, indexedDB: factory });
  names.set(backend, dbName);
  return backend;
}

runStoreConformance('indexeddb', freshBackend, sameDatabase);

describe('indexeddb backend', () => {
  const put = (key: string, rev: number): CommitBatch => ({
    revision: rev,
    puts: [{ key, value: `{"k":"${key}"}`, createRev: rev, modRev: rev }],
    deletes: [],
    events: [{ type: 'put', key, rev, value: `{"k":"${key}"}`, createRev: rev }],
    compactRevision: 0,
  });

  it('persists index, values, meta and history, and reads by key and prefix', async () => {
    const backend = freshBackend();
    await backend.commit(put('/b/2', 1));
    await backend.commit(put('/a/1', 2));
    const withDelete = put('/b/1', 3);
    await backend.commit({
      ...withDelete,
      revision: 4,
      deletes: ['/a/1'],
      events: [...withDelete.events, { type: 'delete', key: '/a/1', rev: 4, prevValue: '{"k":"/a/1"}', createRev: 2, prevModRev: 2 }],
    });
    await backend.close();
    const again = sameDatabase(backend);
    const state = await again.open();
    expect(state.revision).toBe(4);
    expect(state.index).toEqual([
      { key: '/b/1', createRev: 3, modRev: 3 },
      { key: '/b/2', createRev: 1, modRev: 1 },
    ]);
    expect(state.events.map((ev) => ev.rev)).toEqual([1, 2, 3, 4]);
    // History stores no values: a put's value comes back from the next change or the current record.
    expect(state.events.map((ev) => ev.value)).toEqual(['{"k":"/b/2"}', '{"k":"/a/1"}', '{"k":"/b/1"}', undefined]);
    expect(state.events[3]!.prevValue).toBe('{"k":"/a/1"}');
    expect((await again.openHead!()).revision).toBe(4);
    expect(await again.read(['/b/2', '/a/1'])).toEqual(['{"k":"/b/2"}', undefined]);
    expect(await again.readPrefix('/b/')).toEqual([['/b/1', '{"k":"/b/1"}'], ['/b/2', '{"k":"/b/2"}']]);
    expect(await again.readPrefix('/a/')).toEqual([]);
    expect(await again.readPrefix('')).toHaveLength(2);
    expect(await again.healthy()).toBe(true);
    await again.close();
  });

  /** How many records the named database's history store holds, read with the plain API. */
  const historyRecords = (backend: KvBackend): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = factory.open(names.get(backend)!);
      req.onsuccess = () => {
        const count = req.result.transaction('history').objectStore('history').count();
        count.onsuccess = () => (req.result.close(), resolve(count.result));
        count.onerror = () => reject(count.error);
      };
      req.onerror = () => reject(req.error);
    });

  it('writes no history record for a batch of creates only, and rebuilds their events on open', async () => {
    const backend = freshBackend();
    await backend.commit(put('/c/1', 1));
    await backend.commit({ ...put('/c/2', 2), puts: [...put('/c/2', 2).puts, ...put('/c/3', 3).puts], events: [...put('/c/2', 2).events, ...put('/c/3', 3).events], revision: 3 });
    expect(await historyRecords(backend)).toBe(0);
    // An update needs one: its previous value is in no object record.
    await backend.commit({
      revision: 4,
      puts: [{ key: '/c/1', value: '{"v":4}', createRev: 1, modRev: 4 }],
      deletes: [],
      events: [{ type: 'put', key: '/c/1', rev: 4, value: '{"v":4}', prevValue: '{"k":"/c/1"}', createRev: 1, prevModRev: 1 }],
      compactRevision: 0,
    });
    await backend.commit(put('/c/5', 5));
    expect(await historyRecords(backend)).toBe(1);
    await backend.close();

    const again = sameDatabase(backend);
    // Before the full open only a lower bound is known: the newest history record's revision.
    expect((await again.openHead!()).revision).toBe(4);
    const state = await again.open();
    expect(state.revision).toBe(5);
    expect(state.events.map((ev) => [ev.rev, ev.key, ev.value])).toEqual([
      [1, '/c/1', '{"k":"/c/1"}'],
      [2, '/c/2', '{"k":"/c/2"}'],
      [3, '/c/3', '{"k":"/c/3"}'],
      [4, '/c/1', '{"v":4}'],
      [5, '/c/5', '{"k":"/c/5"}'],
    ]);
    await again.close();
  });

  it('reports a revision of at least 1 before the full open when only creates were written', async () => {
    const backend = freshBackend();
    expect((await backend.openHead!()).revision).toBe(0);
    await backend.commit(put('/d/1', 1));
    await backend.commit(put('/d/2', 2));
    expect((await backend.openHead!()).revision).toBe(1);
    expect((await backend.open()).revision).toBe(2);
    await backend.close();
  });

  it('commits a batch explicitly, except while the history trim still walks its cursor', async () => {
    const commits = vi.spyOn(IDBTransaction.prototype, 'commit');
    const backend = freshBackend();
    await backend.commit(put('/c/1', 1));
    await backend.commit(put('/c/2', 2));
    expect(commits).toHaveBeenCalledTimes(2);
    await backend.commit({ ...put('/c/3', 3), compactRevision: 2 });
    expect(commits).toHaveBeenCalledTimes(2);
    expect((await backend.open()).events.map((ev) => ev.rev)).toEqual([3]);
    commits.mockRestore();
    await backend.close();
  });

  it('drops durable history at or below the compaction revision', async () => {
    const backend = freshBackend();
    for (let rev = 1; rev <= 4; rev++) await backend.commit(put(`/k/${rev}`, rev));
    await backend.commit({ ...put('/k/5', 5), compactRevision: 3 });
    const state = await backend.open();
    expect(state.compactRevision).toBe(3);
    expect(state.events.map((ev) => ev.rev)).toEqual([4, 5]);
    await backend.close();
  });

  it('a batch that fails part-way leaves nothing behind', async () => {
    const backend = freshBackend();
    await backend.commit(put('/k/1', 1));
    const bad = put('/k/2', 2);
    // A function cannot be structured-cloned: the second put fails after the first was issued.
    bad.puts.push({ key: '/k/3', value: (() => 0) as unknown as string, createRev: 2, modRev: 2 });
    const error = await Promise.resolve(backend.commit(bad)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).code).toBe('Backend');
    const state = await backend.open();
    expect(state.revision).toBe(1);
    expect(state.index.map((r) => r.key)).toEqual(['/k/1']);
    expect(await backend.read(['/k/2'])).toEqual([undefined]);
    await backend.close();
  });

  it('wipes a database of the old layout (version 1) instead of misreading it', async () => {
    const dbName = `kv-${++counter}`;
    await new Promise<void>((resolve, reject) => {
      const req = factory.open(dbName, 1);
      req.onupgradeneeded = () => {
        for (const store of ['values', 'index', 'meta', 'history']) req.result.createObjectStore(store);
        req.result.createObjectStore('meta-old').put({ revision: 9 }, 'state');
        req.transaction!.objectStore('values').put('{"old":true}', '/old');
        req.transaction!.objectStore('meta').put({ revision: 9, compactRevision: 0 }, 'state');
      };
      req.onsuccess = () => (req.result.close(), resolve());
      req.onerror = () => reject(req.error);
    });
    const backend = createIdbBackend({ dbName, indexedDB: factory });
    expect(await backend.openHead!()).toEqual({ revision: 0, compactRevision: 0 });
    expect(await backend.open()).toEqual({ revision: 0, compactRevision: 0, index: [], events: [], values: [] });
    await backend.commit(put('/new', 1));
    expect(await backend.read(['/new', '/old'])).toEqual(['{"k":"/new"}', undefined]);
    await backend.close();
  });

  it('keeps a database of layout version 2 on upgrade: it reads the same', async () => {
    const dbName = `kv-${++counter}`;
    await new Promise<void>((resolve, reject) => {
      const req = factory.open(dbName, 2);
      req.onupgradeneeded = () => {
        for (const store of ['objects', 'history', 'meta']) req.result.createObjectStore(store);
        req.transaction!.objectStore('objects').put({ v: '{"kept":true}', c: 1, m: 1 }, '/kept');
        req.transaction!.objectStore('history').put([{ type: 'put', key: '/kept', rev: 1, createRev: 1 }], 1);
      };
      req.onsuccess = () => (req.result.close(), resolve());
      req.onerror = () => reject(req.error);
    });
    const backend = createIdbBackend({ dbName, indexedDB: factory });
    const state = await backend.open();
    expect(state.revision).toBe(1);
    expect(state.values).toEqual([['/kept', '{"kept":true}']]);
    expect(state.events).toEqual([{ type: 'put', key: '/kept', rev: 1, createRev: 1, value: '{"kept":true}' }]);
    await backend.close();
  });

  it('reports an IndexedDB that cannot open as a StorageError', async () => {
    const denied = { open: () => { throw new Error('denied'); } } as unknown as IDBFactory;
    const backend = createIdbBackend({ dbName: 'none', indexedDB: denied });
    const error = await backend.open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).code).toBe('Unavailable');
    expect((error as StorageError).message).toContain('denied');
    expect(await backend.healthy()).toBe(false);
  });
});
