// Conformance: single-key writes, revisions and range reads at the current revision.

import { describe, expect, it } from 'vitest';
import { obj, storeFactory, text, values, type StoreTarget } from './conformance-harness';
import { StorageError } from '../types';

export function crudConformance(target: StoreTarget): void {
  const openStore = storeFactory(target);

  describe('writes and revisions', () => {
    it('starts empty at revision 0', async () => {
      const { store, rev } = await openStore();
      expect(store.revision).toBe(rev(0));
      expect(store.compactRevision).toBeLessThanOrEqual(rev(0));
      if (target.inProcess) expect(store.revision).toBe(0);
      expect(await store.get('/a')).toBeUndefined();
      expect((await store.range('/')).kvs).toEqual([]);
      expect(store.count('/')).toBe(0);
      expect(await store.healthy()).toBe(true);
    });

    it('create stores the encoded text at the allocated revision', async () => {
      const { store, rev } = await openStore();
      const kv = await store.create('/r/a', obj('a'));
      expect(kv).toEqual({ key: '/r/a', value: text('a', rev(1)), createRev: rev(1), modRev: rev(1) });
      expect(await store.get('/r/a')).toEqual(kv);
      expect(store.revision).toBe(rev(1));
      expect(store.count('/r/')).toBe(1);
    });

    it('create on an existing key fails with KeyExists and writes nothing', async () => {
      const { store, control, rev } = await openStore();
      await store.create('/r/a', obj('a'));
      const error = await store.create('/r/a', obj('again')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageError);
      expect((error as StorageError).code).toBe('KeyExists');
      expect((error as StorageError).key).toBe('/r/a');
      expect(store.revision).toBe(rev(1));
      if (control) expect(control.commits).toHaveLength(1);
      expect(values([await store.get('/r/a')])).toEqual([{ name: 'a', rv: String(rev(1)) }]);
    });

    it('each write advances the revision by exactly one', async () => {
      const { store, rev } = await openStore();
      const seen: number[] = [];
      for (const name of ['a', 'b', 'c']) seen.push((await store.create(`/r/${name}`, obj(name))).modRev);
      seen.push((await store.update('/r/a', () => ({ kind: 'put', encode: obj('a2') }))).kv!.modRev);
      await store.update('/r/b', () => ({ kind: 'delete' }));
      seen.push(store.revision);
      expect(seen).toEqual([1, 2, 3, 4, 5].map(rev));
    });

    it('update keeps createRev, moves modRev and reports prev', async () => {
      const { store, rev } = await openStore();
      await store.create('/r/x', obj('x'));
      await store.create('/r/y', obj('y'));
      const result = await store.update('/r/x', (cur) => {
        expect(cur?.modRev).toBe(rev(1));
        return { kind: 'put', encode: obj('x', { v: 2 }) };
      });
      expect(result.changed).toBe(true);
      expect(result.prev).toEqual({ key: '/r/x', value: text('x', rev(1)), createRev: rev(1), modRev: rev(1) });
      expect(result.kv).toEqual({ key: '/r/x', value: text('x', rev(3), { v: 2 }), createRev: rev(1), modRev: rev(3) });
      expect(await store.get('/r/x')).toEqual(result.kv);
    });

    it('none writes nothing and consumes no revision', async () => {
      const { store, control, rev } = await openStore();
      const kv = await store.create('/r/x', obj('x'));
      const result = await store.update('/r/x', () => ({ kind: 'none' }));
      expect(result).toEqual({ kv, prev: kv, changed: false });
      expect(store.revision).toBe(rev(1));
      expect((await store.create('/r/y', obj('y'))).modRev).toBe(rev(2));
      if (control) expect(control.commits).toHaveLength(2);
    });

    it('delete removes the key; recreating starts a new createRev', async () => {
      const { store, rev } = await openStore();
      const first = await store.create('/r/x', obj('x'));
      const removed = await store.update('/r/x', () => ({ kind: 'delete' }));
      expect(removed).toEqual({ prev: first, changed: true });
      expect(await store.get('/r/x')).toBeUndefined();
      expect(store.count('/r/')).toBe(0);
      const again = await store.create('/r/x', obj('x'));
      expect(again.createRev).toBe(rev(3));
      expect(again.modRev).toBe(rev(3));
    });

    it('deleting a missing key fails with NotFound', async () => {
      const { store, rev } = await openStore();
      const error = await store.update('/r/none', () => ({ kind: 'delete' })).catch((e: unknown) => e);
      expect((error as StorageError).code).toBe('NotFound');
      expect(store.revision).toBe(rev(0));
    });

    it('an error thrown by fn or encode rejects and consumes no revision', async () => {
      const { store, rev } = await openStore();
      const boom = new Error('boom');
      await expect(store.update('/r/a', () => { throw boom; })).rejects.toBe(boom);
      await expect(store.create('/r/a', () => { throw boom; })).rejects.toBe(boom);
      expect(await store.get('/r/a')).toBeUndefined();
      expect((await store.create('/r/a', obj('a'))).modRev).toBe(rev(1));
    });

    // In process, concurrent updates queue in call order; on etcd they race and compare-and-swap
    // retries them (GuaranteedUpdate), so only the outcome is fixed: no update is lost.
    it('update sees writes queued earlier in the same tick', async () => {
      const { store, rev } = await openStore();
      const bump = () =>
        store.update('/r/n', (cur) => {
          const n = cur ? (JSON.parse(cur.value) as { n: number }).n : 0;
          return { kind: 'put', encode: () => JSON.stringify({ n: n + 1 }) };
        });
      const results = await Promise.all([bump(), bump(), bump()]);
      const modRevs = results.map((r) => r.kv!.modRev);
      expect(target.inProcess ? modRevs : [...modRevs].sort((a, b) => a - b)).toEqual([1, 2, 3].map(rev));
      expect(results.map((r) => r.kv!.createRev)).toEqual([1, 1, 1].map(rev));
      expect(values([await store.get('/r/n')])).toEqual([{ n: 3 }]);
      const last = results.find((r) => r.kv!.modRev === rev(3))!;
      expect(last.prev!.modRev).toBe(rev(2));
      expect(values([last.kv])).toEqual([{ n: 3 }]);
    });
  });

  describe('range at the current revision', () => {
    const names = ['m', 'c', 'x', 'a', 'q', 'b', 'z', 'k'];
    const seed = async () => {
      const opened = await openStore();
      for (const n of names) await opened.store.create(`/r/ns/${n}`, obj(n));
      await opened.store.create('/r/ns2/a', obj('other'));
      await opened.store.create('/r/n', obj('short'));
      await opened.store.create('/s/a', obj('elsewhere'));
      return opened;
    };
    const keysOf = (kvs: { key: string }[]) => kvs.map((kv) => kv.key.slice('/r/ns/'.length));

    it('returns keys under the prefix only, in key order, at the current revision', async () => {
      const { store, rev } = await seed();
      const result = await store.range('/r/ns/');
      expect(keysOf(result.kvs)).toEqual([...names].sort());
      expect(result).toMatchObject({ rev: rev(11), more: false, remaining: 0 });
      expect(store.count('/r/ns/')).toBe(8);
      expect(store.count('/r/')).toBe(10);
      expect(store.count('/r/ns')).toBe(9);
      expect(store.count('')).toBe(11);
      expect(store.count('/t/')).toBe(0);
    });

    it('pages with limit and after, reporting more and remaining', async () => {
      const { store } = await seed();
      const page1 = await store.range('/r/ns/', { limit: 3 });
      expect(keysOf(page1.kvs)).toEqual(['a', 'b', 'c']);
      expect(page1).toMatchObject({ more: true, remaining: 5 });
      const page2 = await store.range('/r/ns/', { limit: 3, after: page1.kvs[2]!.key });
      expect(keysOf(page2.kvs)).toEqual(['k', 'm', 'q']);
      expect(page2).toMatchObject({ more: true, remaining: 2 });
      const page3 = await store.range('/r/ns/', { limit: 3, after: page2.kvs[2]!.key });
      expect(keysOf(page3.kvs)).toEqual(['x', 'z']);
      expect(page3).toMatchObject({ more: false, remaining: 0 });
      const exact = await store.range('/r/ns/', { limit: 8 });
      expect(exact).toMatchObject({ more: false, remaining: 0 });
      expect((await store.range('/r/ns/', { after: '/r/ns/zz' })).kvs).toEqual([]);
      expect(keysOf((await store.range('/r/ns/', { after: '/r/ns/l' })).kvs)).toEqual(['m', 'q', 'x', 'z']);
    });

    it('applies the filter before the limit; remaining ignores the filter', async () => {
      const { store } = await seed();
      const vowelFree = (kv: { key: string }) => !/[aeiou]$/.test(kv.key);
      const page = await store.range('/r/ns/', { limit: 2, filter: vowelFree });
      expect(keysOf(page.kvs)).toEqual(['b', 'c']);
      expect(page).toMatchObject({ more: true, remaining: 5 });
      const onlyA = await store.range('/r/ns/', { limit: 1, filter: (kv) => kv.key.endsWith('/a') });
      expect(keysOf(onlyA.kvs)).toEqual(['a']);
      // Keys follow but none matches: the list was not cut by the limit.
      expect(onlyA).toMatchObject({ more: false, remaining: 7 });
    });

    it('keeps many keys inserted in random order sorted', async () => {
      const { store } = await openStore();
      const keys = Array.from({ length: 300 }, (_, i) => `/p/${((i * 7919) % 300).toString().padStart(3, '0')}`);
      await Promise.all(keys.map((k) => store.create(k, obj(k))));
      const all = await store.range('/p/');
      expect(all.kvs.map((kv) => kv.key)).toEqual([...keys].sort());
      await Promise.all(keys.filter((_, i) => i % 2 === 0).map((k) => store.update(k, () => ({ kind: 'delete' }))));
      expect(store.count('/p/')).toBe(150);
      expect((await store.range('/p/')).kvs.map((kv) => kv.key)).toEqual(keys.filter((_, i) => i % 2 === 1).sort());
    });
  });
}
