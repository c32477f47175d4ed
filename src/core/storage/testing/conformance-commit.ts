// Conformance: group commit, failed commits (all-or-nothing, revisions never reused) and reopening
// a store over the same durable data.

import { describe, expect, it } from 'vitest';
import { WINDOW_MS, controlledStoreFactory, flush, obj, recorder, summary, values, type MakeBackend, type ReopenBackend } from './conformance-harness';
import { StorageError } from '../types';

export function commitConformance(makeBackend: MakeBackend, reopen?: ReopenBackend): void {
  const openStore = controlledStoreFactory(makeBackend);

  describe('group commit', () => {
    it('coalesces writes issued in one tick into one backend commit', async () => {
      const { store, control } = await openStore();
      const kvs = await Promise.all(Array.from({ length: 16 }, (_, i) => store.create(`/r/${i}`, obj(`n${i}`))));
      expect(control.commits).toHaveLength(1);
      const batch = control.commits[0]!;
      expect(batch.revision).toBe(16);
      expect(batch.puts).toHaveLength(16);
      expect(batch.events.map((ev) => ev.rev)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
      expect(kvs.map((kv) => kv.modRev).sort((a, b) => a - b)).toEqual(batch.events.map((ev) => ev.rev));
      expect(store.count('/r/')).toBe(16);
      await store.create('/r/next', obj('next'));
      expect(control.commits).toHaveLength(2);
    });

    it('writes arriving during an in-flight commit form the next batch', async () => {
      const { store, control } = await openStore();
      const release = control.hold();
      const first = store.create('/r/a', obj('a'));
      await flush();
      const later = [store.create('/r/b', obj('b')), store.update('/r/a', () => ({ kind: 'delete' }))];
      await flush();
      expect(control.commits).toHaveLength(1);
      release();
      await Promise.all([first, ...later]);
      expect(control.commits).toHaveLength(2);
      expect(control.commits[1]!.deletes).toEqual(['/r/a']);
      expect(control.commits[1]!.puts.map((p) => p.key)).toEqual(['/r/b']);
      expect(store.revision).toBe(3);
      expect(await store.get('/r/a')).toBeUndefined();
    });

    for (const synchronous of [false, true]) {
      it(`a failed commit (${synchronous ? 'thrown' : 'rejected'}) fails every write in it and changes nothing`, async () => {
        const { store, control } = await openStore();
        await store.create('/r/keep', obj('keep'));
        const { events, onEvent } = recorder();
        store.watch('/r/', 0, onEvent);
        await flush();
        control.failNext = 1;
        control.failSynchronously = synchronous;
        const outcomes = await Promise.allSettled([
          store.create('/r/a', obj('a')),
          store.update('/r/keep', () => ({ kind: 'put', encode: obj('changed') })),
          store.update('/r/keep', () => ({ kind: 'delete' })),
          store.update('/r/b', () => ({ kind: 'put', encode: obj('b') })),
        ]);
        for (const outcome of outcomes) {
          expect(outcome.status).toBe('rejected');
          const reason = (outcome as PromiseRejectedResult).reason as StorageError;
          expect(reason).toBeInstanceOf(StorageError);
          expect(reason.code).toBe('Backend');
        }
        expect(store.revision).toBe(1);
        expect(values([await store.get('/r/keep')])).toEqual([{ name: 'keep', rv: '1' }]);
        expect(await store.get('/r/a')).toBeUndefined();
        expect(store.count('/r/')).toBe(1);
        expect((await store.range('/r/')).kvs.map((kv) => kv.key)).toEqual(['/r/keep']);
        await flush();
        expect(summary(events)).toEqual(['put /r/keep @1']);
        // Revisions 2-5 went to the failed batch and are never handed out again.
        const next = await store.create('/r/a', obj('a'));
        expect(next.modRev).toBe(6);
        expect(store.revision).toBe(6);
        expect(summary(events)).toEqual(['put /r/keep @1', 'put /r/a @6']);
        expect(values([await store.get('/r/keep', 5)])).toEqual([{ name: 'keep', rv: '1' }]);
      });
    }

    it('a failed in-flight commit also fails the queued batch built on it', async () => {
      const { store, control } = await openStore();
      const release = control.hold();
      control.failNext = 1;
      const first = store.create('/r/a', obj('a'));
      await flush();
      const dependent = store.update('/r/a', (cur) => {
        expect(cur).toBeDefined();
        return { kind: 'put', encode: obj('a', { v: 2 }) };
      });
      const unchanged = store.update('/r/a', () => ({ kind: 'none' }));
      release();
      const outcomes = await Promise.allSettled([first, dependent, unchanged]);
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect(control.commits).toHaveLength(1);
      expect(await store.get('/r/a')).toBeUndefined();
      expect(store.revision).toBe(0);
      expect((await store.create('/r/a', obj('a'))).modRev).toBe(3);
    });
  });

  if (!reopen) return;

  describe('reopen', () => {
    it('a new store over the same data has the same index, revision and history', async () => {
      const first = await openStore();
      await first.store.create('/r/a', obj('a'));
      await first.store.create('/r/b', obj('b'));
      await first.store.update('/r/a', () => ({ kind: 'put', encode: obj('a', { v: 2 }) }));
      await first.store.update('/r/b', () => ({ kind: 'delete' }));
      await first.store.create('/r/c', obj('c'));
      const before = await first.store.range('/r/');
      await first.store.close();

      const { store } = await openStore(await reopen(first.control.inner));
      expect(store.revision).toBe(5);
      expect(await store.range('/r/')).toEqual(before);
      expect(store.count('/r/')).toBe(2);
      expect(await store.get('/r/a')).toEqual({ key: '/r/a', value: '{"name":"a","rv":"3","v":2}', createRev: 1, modRev: 3 });
      // Past reads and watch resumption come from the durable history.
      expect(await store.get('/r/b', 3)).toEqual({ key: '/r/b', value: '{"name":"b","rv":"2"}', createRev: 2, modRev: 2 });
      expect((await store.get('/r/a', 2))!.modRev).toBe(1);
      const { events, onEvent } = recorder();
      store.watch('/r/', 2, onEvent);
      await flush();
      expect(summary(events)).toEqual(['put /r/a @3', 'delete /r/b @4', 'put /r/c @5']);
      expect((await store.create('/r/d', obj('d'))).modRev).toBe(6);
      expect(summary(events).at(-1)).toBe('put /r/d @6');
    });

    it('replays every event with its values after a reopen, creates in batches of their own included', async () => {
      const first = await openStore();
      const live = recorder();
      first.store.watch('/r/', 0, live.onEvent);
      // Two creates in one batch, a key deleted and created again, an update of an untouched create.
      await Promise.all([first.store.create('/r/a', obj('a')), first.store.create('/r/b', obj('b'))]);
      await first.store.update('/r/a', () => ({ kind: 'delete' }));
      await first.store.create('/r/a', obj('a', { again: true }));
      await first.store.update('/r/b', () => ({ kind: 'put', encode: obj('b', { v: 2 }) }));
      await first.store.create('/r/c', obj('c'));
      await flush();
      await first.store.close();

      const { store } = await openStore(await reopen(first.control.inner));
      expect(store.revision).toBe(6);
      const replayed = recorder();
      store.watch('/r/', 0, replayed.onEvent);
      await flush();
      expect(summary(replayed.events)).toEqual(['put /r/a @1', 'put /r/b @2', 'delete /r/a @3', 'put /r/a @4', 'put /r/b @5', 'put /r/c @6']);
      expect(replayed.events).toEqual(live.events);
      expect((await store.get('/r/a', 2))!.value).toBe('{"name":"a","rv":"1"}');
      expect(await store.get('/r/a', 3)).toBeUndefined();
    });

    it('keeps the compaction revision and drops compacted history', async () => {
      const first = await openStore();
      await first.store.create('/r/a', obj('a'));
      await first.store.create('/r/b', obj('b'));
      first.clock.advance(WINDOW_MS + 1);
      first.store.compact();
      await first.store.create('/r/c', obj('c'));
      await first.store.close();

      const { store } = await openStore(await reopen(first.control.inner));
      expect(store.compactRevision).toBe(2);
      expect(store.revision).toBe(3);
      expect(() => store.watch('/r/', 1, () => {})).toThrow(StorageError);
      const { events, onEvent } = recorder();
      store.watch('/r/', 2, onEvent);
      await flush();
      expect(summary(events)).toEqual(['put /r/c @3']);
    });
  });
}
