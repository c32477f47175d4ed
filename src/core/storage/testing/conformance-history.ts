// Conformance: reads at past revisions, compaction of the history window, revision waits.

import { describe, expect, it } from 'vitest';
import { WINDOW_MS, obj, recorder, storeFactory, text, values, type StoreTarget } from './conformance-harness';
import { StorageError } from '../types';

async function codeOf(work: Promise<unknown> | (() => unknown)): Promise<string | undefined> {
  try {
    await (typeof work === 'function' ? work() : work);
    return undefined;
  } catch (error) {
    return error instanceof StorageError ? error.code : `not a StorageError: ${String(error)}`;
  }
}

export function historyConformance(target: StoreTarget): void {
  const openStore = storeFactory(target);

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
      const { store, rev } = await seed();
      expect(await store.get('/r/a', rev(1))).toEqual({ key: '/r/a', value: text('a', rev(1), { v: 1 }), createRev: rev(1), modRev: rev(1) });
      expect(await store.get('/r/a', rev(4))).toEqual({ key: '/r/a', value: text('a', rev(3), { v: 2 }), createRev: rev(1), modRev: rev(3) });
      expect((await store.get('/r/a', rev(6)))!.modRev).toBe(rev(6));
      expect(await store.get('/r/b', rev(3))).toEqual({ key: '/r/b', value: text('b', rev(2)), createRev: rev(2), modRev: rev(2) });
      expect(await store.get('/r/b', rev(4))).toBeUndefined();
      expect(await store.get('/r/c', rev(4))).toBeUndefined();
      expect(await store.get('/r/b', rev(1))).toBeUndefined();
    });

    it('range rebuilds the whole prefix, honouring after and limit', async () => {
      const { store, rev } = await seed();
      const at3 = await store.range('/r/', { rev: rev(3) });
      expect(at3.rev).toBe(rev(3));
      expect(values(at3.kvs)).toEqual([{ name: 'a', rv: String(rev(3)), v: 2 }, { name: 'b', rv: String(rev(2)) }]);
      expect(at3.kvs.map((kv) => kv.modRev)).toEqual([3, 2].map(rev));
      const at5 = await store.range('/r/', { rev: rev(5), limit: 1 });
      expect(at5.kvs.map((kv) => kv.key)).toEqual(['/r/a']);
      expect(at5).toMatchObject({ more: true, remaining: 1 });
      const next = await store.range('/r/', { rev: rev(5), after: '/r/a' });
      expect(next.kvs.map((kv) => kv.key)).toEqual(['/r/c']);
      expect((await store.range('/r/', { rev: rev(1) })).kvs.map((kv) => kv.key)).toEqual(['/r/a']);
      expect((await store.range('/r/', { rev: rev(6) })).kvs.map((kv) => kv.modRev)).toEqual([6, 5].map(rev));
    });

    it('rejects revisions newer than the store with TooLargeRevision', async () => {
      const { store, rev } = await seed();
      expect(await codeOf(store.get('/r/a', rev(7)))).toBe('TooLargeRevision');
      expect(await codeOf(store.range('/r/', { rev: rev(100) }))).toBe('TooLargeRevision');
    });
  });

  describe('compaction', () => {
    // Watches expire with the window everywhere (kube's watch cache answers 410 before it). Reads at
    // a past revision expire with it in process; on etcd they last until etcd compacts, as in kube.
    it('drops events older than the window and expires reads and watches before it', async () => {
      const { store, clock, rev } = await openStore();
      await store.create('/r/a', obj('a', { v: 1 }));
      await store.update('/r/a', () => ({ kind: 'put', encode: obj('a', { v: 2 }) }));
      clock.advance(WINDOW_MS / 2);
      await store.update('/r/a', () => ({ kind: 'put', encode: obj('a', { v: 3 }) }));
      store.compact();
      expect(store.compactRevision).toBe(rev(0));
      clock.advance(WINDOW_MS / 2 + 1);
      store.compact();
      // Events 1 and 2 are out of the window; state at 2 is still rebuildable from event 3.
      expect(store.compactRevision).toBe(rev(2));
      if (target.inProcess) {
        expect(await codeOf(store.get('/r/a', rev(1)))).toBe('Expired');
        expect(await codeOf(store.range('/r/', { rev: rev(1) }))).toBe('Expired');
      }
      expect(values([await store.get('/r/a', rev(2))])).toEqual([{ name: 'a', rv: String(rev(2)), v: 2 }]);
      expect(await codeOf(() => store.watch('/r/', rev(1), () => {}))).toBe('Expired');

      const { events, onEvent } = recorder();
      store.watch('/r/', rev(2), onEvent);
      await store.create('/r/b', obj('b'));
      expect(events.map((ev) => ev.rev)).toEqual([3, 4].map(rev));

      clock.advance(WINDOW_MS + 1);
      store.compact();
      expect(store.compactRevision).toBe(rev(4));
      expect(store.revision).toBe(rev(4));
      expect(values([await store.get('/r/a', rev(4))])).toEqual([{ name: 'a', rv: String(rev(3)), v: 3 }]);
      if (target.inProcess) expect(await codeOf(store.get('/r/a', rev(3)))).toBe('Expired');
    });
  });

  describe('waitForRevision', () => {
    it('resolves at once for committed revisions and later for future ones', async () => {
      const { store, rev } = await openStore();
      await store.create('/r/a', obj('a'));
      await store.waitForRevision(rev(1), 10);
      const waiting = store.waitForRevision(rev(3), 5000);
      let done = false;
      void waiting.then(() => (done = true));
      await store.create('/r/b', obj('b'));
      await Promise.resolve();
      expect(done).toBe(false);
      const c = await store.create('/r/c', obj('c'));
      await waiting;
      expect(store.revision).toBeGreaterThanOrEqual(rev(3));
      expect(store.revision).toBeGreaterThanOrEqual(c.modRev);
    });

    it('rejects with TooLargeRevision after the timeout', async () => {
      const { store, rev } = await openStore();
      expect(await codeOf(store.waitForRevision(rev(5), 20))).toBe('TooLargeRevision');
    });
  });
}
