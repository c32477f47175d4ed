// A snapshot seeds a memory backend whose store reads, counts and replays exactly as the original.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createIdbBackend } from '../../backends/idb/idb-backend';
import { createMemoryBackend } from './memory-backend';
import { openMvccStore } from './mvcc';
import { snapshotOf } from './snapshot';
import type { KvBackend, MvccStore, StoreEvent } from './types';

const put = (text: string) => ({ kind: 'put' as const, encode: (rev: number) => `${text}@${rev}` });

async function history(store: MvccStore, fromRev: number): Promise<StoreEvent[]> {
  const events: StoreEvent[] = [];
  const watch = store.watch('', fromRev, (ev) => events.push(ev));
  await new Promise((resolve) => setTimeout(resolve, 0));
  watch.cancel();
  return events;
}

async function writeSome(store: MvccStore): Promise<void> {
  await store.create('/a/1', (rev) => `one@${rev}`);
  await store.create('/a/2', (rev) => `two@${rev}`);
  await store.create('/b/1', (rev) => `three@${rev}`);
  await store.update('/a/1', () => put('one-again'));
  await store.update('/a/2', () => ({ kind: 'delete' }));
}

describe.each<[string, () => KvBackend]>([
  ['memory', () => createMemoryBackend()],
  ['indexeddb (lazy open)', () => createIdbBackend({ dbName: `snapshot-${Math.random()}`, indexedDB: new IDBFactory() })],
])('snapshot of a store over %s', (_name, backend) => {
  it('carries keys, revisions and the history window into a seeded memory backend', async () => {
    const original = await openMvccStore(backend(), { lazy: true });
    await writeSome(original);
    const snapshot = await snapshotOf(original);
    expect(snapshot.revision).toBe(5);
    expect(snapshot.events.map((e) => `${e.type} ${e.key} ${e.rev}`)).toEqual(['put /a/1 1', 'put /a/2 2', 'put /b/1 3', 'put /a/1 4', 'delete /a/2 5']);

    const copy = await openMvccStore(createMemoryBackend(snapshot));
    expect(copy.revision).toBe(original.revision);
    expect((await copy.range('')).kvs).toEqual((await original.range('')).kvs);
    expect(copy.count('/a/')).toBe(1);
    // Reads at a past revision and watch replays are answered from the carried history.
    expect((await copy.get('/a/2', 3))?.value).toBe('two@2');
    expect(await history(copy, 2)).toEqual(await history(original, 2));
    // The copy goes on from the same revision.
    expect((await copy.create('/c/1', (rev) => `four@${rev}`)).modRev).toBe(6);
    await Promise.all([original.close(), copy.close()]);
  });
});

describe('memory backend seed', () => {
  it('refuses an index record without its value', () => {
    expect(() => createMemoryBackend({ revision: 1, compactRevision: 0, index: [{ key: '/x', createRev: 1, modRev: 1 }], values: [], events: [] })).toThrow(/no value for \/x/);
  });
});
