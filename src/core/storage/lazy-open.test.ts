// The lazy open: a store over a backend with openHead answers single-key reads before the full
// load finishes, and every other operation sees the fully loaded store.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createIdbBackend } from '../../backends/idb/idb-backend';
import { openMvccStore } from './mvcc';
import type { BackendState, KvBackend } from './types';

const factory = new IDBFactory();
let n = 0;

async function seeded(count: number): Promise<string> {
  const dbName = `lazy-${++n}`;
  const store = await openMvccStore(createIdbBackend({ dbName, indexedDB: factory }));
  for (let i = 0; i < count; i++) await store.create(`/core/configmaps/default/cm-${i}`, (rev) => JSON.stringify({ i, rev }));
  await store.close();
  return dbName;
}

/** The backend, with its full open held until released. */
function held(dbName: string): { backend: KvBackend; release: () => void; fullOpened: () => boolean } {
  const inner = createIdbBackend({ dbName, indexedDB: factory });
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let opened = false;
  const backend: KvBackend = {
    ...inner,
    name: inner.name,
    async open(): Promise<BackendState> {
      await gate;
      opened = true;
      return inner.open();
    },
  };
  return { backend, release, fullOpened: () => opened };
}

describe('lazy open', () => {
  it('answers gets from the key index while the full load is held back', async () => {
    const { backend, release, fullOpened } = held(await seeded(20));
    const store = await openMvccStore(backend, { lazy: true });
    // Creates leave no history record, so before the full load the revision is a lower bound.
    expect(store.revision).toBeGreaterThan(0);
    expect(store.revision).toBeLessThanOrEqual(20);
    const kv = await store.get('/core/configmaps/default/cm-7');
    expect(kv).toMatchObject({ key: '/core/configmaps/default/cm-7', modRev: 8, createRev: 8 });
    expect(JSON.parse(kv!.value)).toEqual({ i: 7, rev: 8 });
    expect(await store.get('/core/configmaps/default/missing')).toBeUndefined();
    expect(fullOpened()).toBe(false);

    // A range, a read at a revision and a write wait for the full store, then see everything.
    const listing = store.range('/core/configmaps/default/');
    const atRevision = store.get('/core/configmaps/default/cm-19', 20);
    const write = store.create('/core/configmaps/default/new', (rev) => JSON.stringify({ rev }));
    release();
    expect((await listing).kvs).toHaveLength(20);
    expect((await atRevision)?.modRev).toBe(20);
    expect((await write).modRev).toBe(21);
    expect(fullOpened()).toBe(true);
    expect(store.revision).toBe(21);
    expect(store.count('/core/configmaps/default/')).toBe(21);
    await store.close();
  });

  it('delivers a watch registered before the full load, from its revision on', async () => {
    const { backend, release } = held(await seeded(5));
    const store = await openMvccStore(backend, { lazy: true });
    const seen: number[] = [];
    const handle = store.watch('/core/configmaps/', 3, (ev) => seen.push(ev.rev));
    release();
    await store.create('/core/configmaps/default/later', () => '{}');
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual([4, 5, 6]);
    handle.cancel();
    await store.close();
  });

  it('is not used unless asked for', async () => {
    const { backend, release, fullOpened } = held(await seeded(2));
    const opening = openMvccStore(backend);
    release();
    await (await opening).close();
    expect(fullOpened()).toBe(true);
  });
});
