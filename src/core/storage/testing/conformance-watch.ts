// Conformance: watch replay from history, live delivery, ordering, exactly-once hand-over,
// delivery only after commit, prefix isolation and isolation between watchers.

import { describe, expect, it } from 'vitest';
import { flush, obj, recorder, storeFactory, summary, text, type StoreTarget } from './conformance-harness';

export function watchConformance(target: StoreTarget): void {
  const openStore = storeFactory(target);

  describe('watch', () => {
    it('replays history after fromRev, then delivers live events in order', async () => {
      const { store, rev } = await openStore();
      await store.create('/r/a', obj('a'));
      await store.create('/r/b', obj('b'));
      await store.update('/r/a', () => ({ kind: 'put', encode: obj('a', { v: 2 }) }));
      const { events, onEvent } = recorder();
      store.watch('/r/', rev(1), onEvent);
      expect(events).toEqual([]); // replay waits until the caller holds its handle
      await flush();
      expect(summary(events)).toEqual([`put /r/b @${rev(2)}`, `put /r/a @${rev(3)}`]);
      await store.update('/r/b', () => ({ kind: 'delete' }));
      expect(summary(events)).toEqual([`put /r/b @${rev(2)}`, `put /r/a @${rev(3)}`, `delete /r/b @${rev(4)}`]);
      expect(events[1]).toEqual({
        type: 'put', key: '/r/a', rev: rev(3), createRev: rev(1), prevModRev: rev(1),
        value: text('a', rev(3), { v: 2 }), prevValue: text('a', rev(1)),
      });
      expect(events[2]).toEqual({
        type: 'delete', key: '/r/b', rev: rev(4), createRev: rev(2), prevModRev: rev(2), prevValue: text('b', rev(2)),
      });
      const all = recorder();
      store.watch('/r/', rev(0), all.onEvent);
      await flush();
      expect(all.events.map((ev) => ev.rev)).toEqual([1, 2, 3, 4].map(rev));
      expect(all.events[0]!.prevValue).toBeUndefined();
    });

    it('delivers each event exactly once across the replay/live hand-over', async () => {
      const { store, rev } = await openStore();
      await store.create('/r/0', obj('0'));
      const { events, onEvent } = recorder();
      // Writes queued before, in the same tick as, and after the watch starts.
      const writes = [store.create('/r/1', obj('1'))];
      store.watch('/r/', rev(0), onEvent);
      writes.push(store.create('/r/2', obj('2')));
      await Promise.all(writes);
      writes.push(store.create('/r/3', obj('3')));
      await Promise.all(writes);
      await flush();
      expect(events.map((ev) => ev.rev)).toEqual([1, 2, 3, 4].map(rev));
    });

    it('watching from the current revision sees only later writes', async () => {
      const { store, rev } = await openStore();
      await store.create('/r/a', obj('a'));
      const { events, onEvent } = recorder();
      store.watch('/r/', store.revision, onEvent);
      await flush();
      expect(events).toEqual([]);
      await store.create('/r/b', obj('b'));
      expect(summary(events)).toEqual([`put /r/b @${rev(2)}`]);
    });

    it('watching from a future revision skips events up to it', async () => {
      const { store, rev } = await openStore();
      const { events, onEvent } = recorder();
      store.watch('/r/', rev(2), onEvent);
      await flush();
      for (const n of ['a', 'b', 'c']) await store.create(`/r/${n}`, obj(n));
      expect(summary(events)).toEqual([`put /r/c @${rev(3)}`]);
    });

    it('isolates prefixes', async () => {
      const { store, rev } = await openStore();
      const pods = recorder();
      const podsx = recorder();
      store.watch('/registry/pods/', rev(0), pods.onEvent);
      store.watch('/registry/podsx/', rev(0), podsx.onEvent);
      await store.create('/registry/pods/default/a', obj('a'));
      await store.create('/registry/podsx/default/a', obj('x'));
      await store.create('/registry/pod', obj('p'));
      await flush();
      expect(summary(pods.events)).toEqual([`put /registry/pods/default/a @${rev(1)}`]);
      expect(summary(podsx.events)).toEqual([`put /registry/podsx/default/a @${rev(2)}`]);
    });

    // Needs a commit the suite can hold: in process only (etcd's watch reports only committed writes).
    if (target.inProcess) {
      it('delivers only after the backend commit completes', async () => {
        const { store, control: controlled } = await openStore();
        const control = controlled!;
        const { events, onEvent } = recorder();
        store.watch('/r/', 0, onEvent);
        await flush();
        const release = control.hold();
        let committed = false;
        const write = store.create('/r/a', obj('a')).then(() => (committed = true));
        await flush();
        expect(control.commits).toHaveLength(1);
        expect(events).toEqual([]);
        expect(committed).toBe(false);
        expect(await store.get('/r/a')).toBeUndefined();
        expect(store.revision).toBe(0);
        release();
        await write;
        expect(summary(events)).toEqual(['put /r/a @1']);
        expect(store.revision).toBe(1);
      });
    }

    it('hands the same event object to every watcher; a throwing watcher harms nobody', async () => {
      const { store, rev } = await openStore();
      const first = recorder();
      const second = recorder();
      store.watch('/r/', rev(0), () => {
        throw new Error('bad watcher');
      });
      store.watch('/r/', rev(0), first.onEvent);
      store.watch('/r/', rev(0), second.onEvent);
      await store.create('/r/a', obj('a'));
      await store.create('/r/b', obj('b'));
      await flush();
      expect(first.events.map((ev) => ev.rev)).toEqual([1, 2].map(rev));
      expect(second.events[0]).toBe(first.events[0]);
      expect(second.events[1]).toBe(first.events[1]);
    });

    it('stops delivering after cancel, including during replay', async () => {
      const { store, rev } = await openStore();
      await store.create('/r/a', obj('a'));
      await store.create('/r/b', obj('b'));
      const seen: number[] = [];
      const handle = store.watch('/r/', rev(0), (ev) => {
        seen.push(ev.rev);
        handle.cancel();
      });
      await flush();
      await store.create('/r/c', obj('c'));
      expect(seen).toEqual([rev(1)]);
      const live = recorder();
      const liveHandle = store.watch('/r/', store.revision, live.onEvent);
      await flush();
      liveHandle.cancel();
      await store.create('/r/d', obj('d'));
      expect(live.events).toEqual([]);
    });
  });
}
