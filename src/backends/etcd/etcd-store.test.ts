// The etcd store against a real etcd member started here (Debian's etcd-server). Each test uses
// its own --etcd-prefix, so the tests share the member but not their keys; revisions are etcd's
// (shared), so expectations are relative to what a write answered. An etcd outage (500s, readyz,
// recovery, the watch resuming) is tested through two hosts in e2e/etcd-hosts.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StorageError, type MvccStore, type StoreEvent } from '../../core/storage/types';
import { openEtcdStore } from './etcd-store';
import { startEtcdCluster } from './testing-etcd';

let cluster: Awaited<ReturnType<typeof startEtcdCluster>>;
const stores: MvccStore[] = [];
let prefixes = 0;

beforeAll(async () => {
  cluster = await startEtcdCluster(1);
}, 30_000);

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await cluster?.stop();
});

async function open(prefix: string, extra: { historyWindowMs?: number } = {}): Promise<MvccStore> {
  const store = await openEtcdStore({ servers: cluster.servers, prefix, compactionIntervalMs: 0, ...extra });
  stores.push(store);
  return store;
}

const obj = (name: string, extra: Record<string, unknown> = {}) => (rev: number) => JSON.stringify({ metadata: { name, resourceVersion: String(rev) }, ...extra });
const rvOf = (value: string) => JSON.parse(value).metadata.resourceVersion as string;
const freshPrefix = () => `/test-${++prefixes}`;
const settle = () => new Promise((r) => setTimeout(r, 50));

describe('etcd store', () => {
  it('writes with etcd mod revisions as resourceVersions, compare-and-swap updates and clear errors', async () => {
    const store = await open(freshPrefix());
    const a = await store.create('/cm/ns/a', obj('a'));
    expect(rvOf(a.value)).toBe(String(a.modRev));
    expect(a.createRev).toBe(a.modRev);
    expect(store.revision).toBeGreaterThanOrEqual(a.modRev);
    expect(await store.get('/cm/ns/a')).toEqual(a);
    await expect(store.create('/cm/ns/a', obj('a'))).rejects.toMatchObject({ code: 'KeyExists' });

    const updated = await store.update('/cm/ns/a', (current) => ({ kind: 'put', encode: obj('a', { n: JSON.parse(current!.value).n ?? 1 }) }));
    expect(updated.changed).toBe(true);
    expect(updated.kv!.modRev).toBeGreaterThan(a.modRev);
    expect(updated.kv!.createRev).toBe(a.modRev);
    expect(rvOf(updated.kv!.value)).toBe(String(updated.kv!.modRev));
    // The value before the update is still readable at its revision.
    expect((await store.get('/cm/ns/a', a.modRev))?.value).toBe(a.value);

    const none = await store.update('/cm/ns/a', () => ({ kind: 'none' }));
    expect(none).toEqual({ kv: updated.kv, prev: updated.kv, changed: false });
    await expect(store.update('/cm/ns/missing', () => ({ kind: 'delete' }))).rejects.toMatchObject({ code: 'NotFound' });
    await expect(store.update('/cm/ns/a', () => { throw new Error('refused'); })).rejects.toThrow('refused');

    const deleted = await store.update('/cm/ns/a', () => ({ kind: 'delete' }));
    expect(deleted.changed).toBe(true);
    expect(deleted.prev?.modRev).toBe(updated.kv!.modRev);
    expect(await store.get('/cm/ns/a')).toBeUndefined();
    expect(store.count('/cm/')).toBe(0);
  });

  it('pages a list at one revision with remaining counts, filtered or not', async () => {
    const store = await open(freshPrefix());
    for (let i = 0; i < 7; i++) await store.create(`/cm/ns/k${i}`, obj(`k${i}`, { odd: i % 2 === 1 }));
    const first = await store.range('/cm/ns/', { limit: 3 });
    expect(first.kvs.map((kv) => kv.key)).toEqual(['/cm/ns/k0', '/cm/ns/k1', '/cm/ns/k2']);
    expect(first.more).toBe(true);
    expect(first.remaining).toBe(4);
    // A write after the first page does not show in the next page read at the first page's revision.
    await store.create('/cm/ns/k3a', obj('k3a'));
    const second = await store.range('/cm/ns/', { limit: 10, after: '/cm/ns/k2', rev: first.rev });
    expect(second.kvs.map((kv) => kv.key)).toEqual(['/cm/ns/k3', '/cm/ns/k4', '/cm/ns/k5', '/cm/ns/k6']);
    expect(second.more).toBe(false);
    expect(second.rev).toBe(first.rev);

    const odd = await store.range('/cm/ns/', { limit: 2, filter: (kv) => JSON.parse(kv.value).odd === true });
    expect(odd.kvs.map((kv) => kv.key)).toEqual(['/cm/ns/k1', '/cm/ns/k3']);
    expect(odd.more).toBe(true);
    expect(odd.remaining).toBe(4); // k3a, k4, k5, k6
    expect(store.count('/cm/ns/')).toBe(8);
  });

  it('two stores on one etcd: a watch through one sees writes through the other, in order, with the same revisions', async () => {
    const prefix = freshPrefix();
    const a = await open(prefix);
    const b = await open(prefix);
    const seenB: StoreEvent[] = [];
    b.watch('/cm/', b.revision, (ev) => seenB.push(ev));
    const answers = [];
    answers.push(await a.create('/cm/ns/x', obj('x')));
    answers.push((await b.update('/cm/ns/x', () => ({ kind: 'put', encode: obj('x', { by: 'b' }) }))).kv!);
    answers.push((await a.update('/cm/ns/x', () => ({ kind: 'put', encode: obj('x', { by: 'a' }) }))).kv!);
    await a.update('/cm/ns/x', () => ({ kind: 'delete' }));
    await b.waitForRevision(a.revision, 5000);
    await settle();
    expect(seenB.map((ev) => `${ev.type} ${ev.rev}`)).toEqual([...answers.map((kv) => `put ${kv.modRev}`), `delete ${a.revision}`]);
    expect(seenB.slice(0, 3).map((ev) => ev.value)).toEqual(answers.map((kv) => kv.value));
    expect(seenB[1]!.prevValue).toBe(answers[0]!.value);
    expect(seenB[3]!.prevValue).toBe(answers[2]!.value);
  });

  it('two stores writing concurrently deliver the same events, in revision order, with the same previous values', async () => {
    const prefix = freshPrefix();
    const [a, b] = [await open(prefix), await open(prefix)];
    const from = Math.max(a.revision, b.revision);
    const seen: [StoreEvent[], StoreEvent[]] = [[], []];
    a.watch('/cm/', from, (ev) => seen[0].push(ev));
    b.watch('/cm/', from, (ev) => seen[1].push(ev));
    // Creates, then updates and deletes of the same keys, from both stores at once: each store
    // applies its own acknowledged writes itself when they are next in order, the rest from the watch.
    await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).create(`/cm/ns/k${i}`, obj(`k${i}`))));
    await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? b : a).update(`/cm/ns/k${i}`, () => (i % 3 ? { kind: 'put', encode: obj(`k${i}`, { v: 2 }) } : { kind: 'delete' }))));
    const last = Math.max(a.revision, b.revision);
    await Promise.all([a.waitForRevision(last, 5000), b.waitForRevision(last, 5000)]);
    await settle();
    expect(seen[0]).toHaveLength(24);
    expect(seen[1]).toEqual(seen[0]);
    const revs = seen[0].map((ev) => ev.rev);
    expect(revs).toEqual([...revs].sort((x, y) => x - y));
    for (const ev of seen[0].slice(12)) {
      const created = seen[0].find((c) => c.key === ev.key && c.type === 'put' && c.prevValue === undefined)!;
      expect(ev.prevValue).toBe(created.value);
      expect(ev.prevModRev).toBe(created.rev);
      expect(ev.createRev).toBe(created.rev);
    }
    expect(a.count('/cm/')).toBe(8);
    expect(b.count('/cm/')).toBe(8);
  });

  it('a store opened again on the same prefix has the same objects and revisions; a watch from before it opened is 410', async () => {
    const prefix = freshPrefix();
    const first = await open(prefix);
    const a = await first.create('/cm/ns/a', obj('a'));
    const b = await first.create('/cm/ns/b', obj('b'));
    await first.update('/cm/ns/b', () => ({ kind: 'delete' }));
    const before = await first.range('/cm/');
    await first.close();

    const again = await open(prefix);
    expect(again.revision).toBeGreaterThanOrEqual(before.rev);
    expect((await again.range('/cm/')).kvs).toEqual(before.kvs);
    expect(again.count('/cm/')).toBe(1);
    // Past reads come from etcd, which has not compacted.
    expect(await again.get('/cm/ns/b', b.modRev)).toEqual(b);
    expect(await again.get('/cm/ns/a', a.modRev)).toEqual(a);
    // Its watch window starts where it opened, as kube's watch cache: older resumes are told to relist.
    expect(() => again.watch('/cm/', a.modRev, () => undefined)).toThrow(StorageError);
    const seen: StoreEvent[] = [];
    again.watch('/cm/', again.revision, (ev) => seen.push(ev));
    const c = await again.create('/cm/ns/c', obj('c'));
    expect(seen.map((ev) => ev.rev)).toEqual([c.modRev]);
    expect(c.modRev).toBeGreaterThan(before.rev);
  });

  it('loses no update when two stores increment one key concurrently', async () => {
    const prefix = freshPrefix();
    const [a, b] = [await open(prefix), await open(prefix)];
    await a.create('/counter', (rev) => JSON.stringify({ rv: String(rev), n: 0 }));
    const increment = (store: MvccStore) =>
      store.update('/counter', (current) => {
        const n = (JSON.parse(current!.value) as { n: number }).n + 1;
        return { kind: 'put', encode: (rev) => JSON.stringify({ rv: String(rev), n }) };
      });
    await Promise.all(Array.from({ length: 20 }, (_, i) => increment(i % 2 ? a : b)));
    expect(JSON.parse((await a.get('/counter'))!.value).n).toBe(20);
  });

  it('answers 410 (Expired) for revisions etcd compacted and for watches older than the mirror', async () => {
    const store = await open(freshPrefix());
    const first = await store.create('/cm/ns/c', obj('c'));
    await store.update('/cm/ns/c', () => ({ kind: 'put', encode: obj('c', { v: 2 }) }));
    const { Etcd3 } = await import('etcd3');
    const client = new Etcd3({ hosts: cluster.servers });
    await client.kv.compact({ revision: store.revision });
    client.close();
    await expect(store.get('/cm/ns/c', first.modRev)).rejects.toMatchObject({ code: 'Expired' });
    await expect(store.range('/cm/', { rev: first.modRev })).rejects.toBeInstanceOf(StorageError);
    const late = await open(freshPrefix());
    expect(() => late.watch('/', late.revision - 1, () => undefined)).toThrow(StorageError);
  });
});

describe('etcd store revisions from outside its prefix', () => {
  it('reaches a revision made by writes outside the prefix (a list at it answers without waiting long)', async () => {
    const store = await open(freshPrefix());
    await store.create('/cm/ns/mine', obj('mine'));
    const { Etcd3 } = await import('etcd3');
    const client = new Etcd3({ hosts: cluster.servers });
    const foreign = await client.put('/someone-else/key').value('x').exec();
    client.close();
    const rev = Number(foreign.header.revision);
    expect(rev).toBeGreaterThan(store.revision);
    const started = Date.now();
    await store.waitForRevision(rev, 3000);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(store.revision).toBeGreaterThanOrEqual(rev);
    // The progress key is nobody's object.
    expect(store.count('/')).toBe(1);
    expect((await store.range('/')).kvs.map((kv) => kv.key)).toEqual(['/cm/ns/mine']);
    expect((await store.range('/', { filter: () => true })).kvs.map((kv) => kv.key)).toEqual(['/cm/ns/mine']);
  });
});

describe('etcd store keys and own writes across the client thread', () => {
  it('keeps keys that are not ASCII byte for byte: get, pages, watch and a second store', async () => {
    const prefix = freshPrefix();
    const store = await open(prefix);
    const names = ['/cm/ns/a', '/cm/ns/é', '/cm/ns/ü-2', '/cm/ns/z'];
    const seen: string[] = [];
    store.watch('/cm/', store.revision, (ev) => seen.push(ev.key));
    for (const key of names) await store.create(key, obj(key));
    expect((await store.get('/cm/ns/é'))?.key).toBe('/cm/ns/é');
    // etcd orders keys by their bytes: 'z' before 'é' (0xc3 0xa9).
    const byBytes = [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    const first = await store.range('/cm/ns/', { limit: 2 });
    const rest = await store.range('/cm/ns/', { after: first.kvs[1]!.key, rev: first.rev });
    expect([...first.kvs, ...rest.kvs].map((kv) => kv.key)).toEqual(byBytes);
    await settle();
    expect(seen).toEqual(names);
    const other = await open(prefix);
    expect(other.count('/cm/ns/')).toBe(4);
    expect((await other.range('/cm/ns/')).kvs.map((kv) => kv.key)).toEqual(byBytes);
  });

  it('applies its own writes in order while writes outside the prefix move etcd revisions between them', async () => {
    const store = await open(freshPrefix());
    const { Etcd3 } = await import('etcd3');
    const client = new Etcd3({ hosts: cluster.servers });
    const events: StoreEvent[] = [];
    store.watch('/', store.revision, (ev) => events.push(ev));
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        if (i % 3 === 0) await client.put(`/outside-${prefixes}/k${i}`).value('x').exec();
        return store.create(`/cm/ns/k${i}`, obj(`k${i}`));
      }),
    );
    client.close();
    await settle();
    const revs = answers.map((kv) => kv.modRev).sort((a, b) => a - b);
    expect(events.map((ev) => ev.rev)).toEqual(revs);
    expect(store.count('/cm/ns/')).toBe(40);
    expect(store.revision).toBeGreaterThanOrEqual(revs[revs.length - 1]!);
  });
});
