// Conformance: reads at past revisions, compaction of the history window, revision waits.

import { describe, expect, it } from 'vitest';
import { WINDOW_MS, obj, recorder, storeFactory, values, type MakeBackend } from './conformance-harness';
import { StorageError } from './types';

async function codeOf(work: Promise<unknown> | (() => unknown)): Promise<string | undefined> {
  try {
    await (typeof work === 'function' ? work() : work);
    return undefined;
  } catch (error) {
    return error instanceof StorageError ? error.code : `not a StorageError: ${String(error)}`;
  }
}

export function historyConformance(makeBackend: MakeBackend): void {
  const openStore = storeFactory(makeBackend);

  describe('reads at past revisions', () => {
    // rev 1 create a, 2 create b, 3 update a, 4 delete b, 5 create c, 6 update a
    const seed = async () => {
      const opened = await openStore();
      const { store } = opened;
      await store.create('/r/a', obj('a', { v: 1 }));
      await store.create('/r/b', obj('b'));
      await store.update('/r/a', () => ({ kind: 'put', encode: obj('a', { v: 2 }) }));
      await store.update('/r/b', () => ({ kind: 'delete' }));
      await store.create('/r/c', obj('c'));
      await store.update('/r/a', () => ({ kind: 'put', encode: obj('a', { v: 3 }) }));
      return opened;
    };

    it('get rebuilds the key as it was, with its revisions', async () => {
      const { store } = await seed();
      expect(await store.get('/r/a', 1)).toEqual({ key: '/r/a', value: '{"name":"a","rv":"1","v":1}', createRev: 1, modRev: 1 });
      expect(await store.get('/r/a', 4)).toEqual({ key: '/r/a', value: '{"name":"a","rv":"3","v":2}', createRev: 1, modRev: 3 });
      expect((await store.get('/r/a', 6))!.modRev).toBe(6);
      expect(await store.get('/r/b', 3)).toEqual({ key: '/r/b', value: '{"name":"b","rv":"2"}', createRev: 2, modRev: 2 });
      expect(await store.get('/r/b', 4)).toBeUndefined();
      expect(await store.get('/r/c', 4)).toBeUndefined();
      expect(await store.get('/r/b', 1)).toBeUndefined();
    });

    it('range rebuilds the whole prefix, honouring after and limit', async () => {
      const { store } = await seed();
      const at3 = await store.range('/r/', { rev: 3 });
      expect(at3.rev).toBe(3);
      expect(values(at3.kvs)).toEqual([{ name: 'a', rv: '3', v: 2 }, { name: 'b', rv: '2' }]);
      expect(at3.kvs.map((kv) => kv.modRev)).toEqual([3, 2]);
      const at5 = await store.range('/r/', { rev: 5, limit: 1 });
      expect(at5.kvs.map((kv) => kv.key)).toEqual(['/r/a']);
      expect(at5).toMatchObject({ more: true, remaining: 1 });
      const next = await store.range('/r/', { rev: 5, after: '/r/a' });
      expect(next.kvs.map((kv) => kv.key)).toEqual(['/r/c']);
      expect((await store.range('/r/', { rev: 1 })).kvs.map((kv) => kv.key)).toEqual(['/r/a']);
      expect((await store.range('/r/', { rev: 6 })).kvs.map((kv) => kv.modRev)).toEqual([6, 5]);
    });

    it('rejects revisions newer than the store with TooLargeRevision', async () => {
      const { store } = await seed();
      expect(await codeOf(store.get('/r/a', 7))).toBe('TooLargeRevision');
      expect(await codeOf(store.range('/r/', { rev: 100 }))).toBe('TooLargeRevision');
    });
  });

  describe('compaction', () => {
    it('drops events older than the window and expires reads and watches before it', async () => {
      const { store, clock } = await openStore();
      await store.create('/r/a', obj('a', { v: 1 }));
      await store.update('/r/a', () => ({ kind: 'put', encode: obj('a', { v: 2 }) }));
      clock.advance(WINDOW_MS / 2);
      await store.update('/r/a', () => ({ kind: 'put', encode: obj('a', { v: 3 }) }));
      store.compact();
      expect(store.compactRevision).toBe(0);
      clock.advance(WINDOW_MS / 2 + 1);
      store.compact();
      // Events 1 and 2 are out of the window; state at 2 is still rebuildable from event 3.
      expect(store.compactRevision).toBe(2);
      expect(await codeOf(store.get('/r/a', 1))).toBe('Expired');
      expect(await codeOf(store.range('/r/', { rev: 1 }))).toBe('Expired');
      expect(values([await store.get('/r/a', 2)])).toEqual([{ name: 'a', rv: '2', v: 2 }]);
      expect(await codeOf(() => store.watch('/r/', 1, () => {}))).toBe('Expired');

      const { events, onEvent } = recorder();
      store.watch('/r/', 2, onEvent);
      await store.create('/r/b', obj('b'));
      expect(events.map((ev) => ev.rev)).toEqual([3, 4]);

      clock.advance(WINDOW_MS + 1);
      store.compact();
      expect(store.compactRevision).toBe(4);
      expect(store.revision).toBe(4);
      expect(values([await store.get('/r/a', 4)])).toEqual([{ name: 'a', rv: '3', v: 3 }]);
      expect(await codeOf(store.get('/r/a', 3))).toBe('Expired');
    });
  });

  describe('waitForRevision', () => {
    it('resolves at once for committed revisions and later for future ones', async () => {
      const { store } = await openStore();
      await store.create('/r/a', obj('a'));
      await store.waitForRevision(1, 10);
      const waiting = store.waitForRevision(3, 5000);
      let done = false;
      void waiting.then(() => (done = true));
      await store.create('/r/b', obj('b'));
      await Promise.resolve();
      expect(done).toBe(false);
      await store.create('/r/c', obj('c'));
      await waiting;
      expect(store.revision).toBe(3);
    });

    it('rejects with TooLargeRevision after the timeout', async () => {
      const { store } = await openStore();
      expect(await codeOf(store.waitForRevision(5, 20))).toBe('TooLargeRevision');
    });
  });
}
