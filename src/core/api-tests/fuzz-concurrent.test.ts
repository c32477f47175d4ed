// Concurrent random writes to a handful of ConfigMaps, on both storage backends with their group
// commit: creates, conditional and unconditional updates, patches, applies by several managers,
// finalizers, deletes with and without preconditions, deletecollection. What must hold whatever
// the interleaving: every answer is well formed, and a watch opened before the first write sees
// exactly the writes that were acknowledged, once each, in revision order, ending in the state a
// list reads. Seeded (FUZZ_SEED=<n> FUZZ_ROUNDS=<n> to replay or widen).
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBackend } from '../storage/memory-backend';
import { createIdbBackend } from '../../backends/idb/idb-backend';
import type { KvBackend } from '../storage/types';
import { startTestServer, type Reply, type TestClient } from '../testing/api-server';
import { startWatch, type WatchReader } from '../testing/watch';
import { Rand } from '../testing/fuzz';

const SEEDS = process.env.FUZZ_SEED ? [Number(process.env.FUZZ_SEED)] : [1, 2];
const ROUNDS = Number(process.env.FUZZ_ROUNDS ?? 40);
const PARALLEL = 8;
const NS = 'race';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const NAMES = ['a', 'b', 'c', 'd'];

const BACKENDS: Record<string, (seed: number) => KvBackend> = {
  // Asynchronous commits with the IndexedDB backend's commit delay, so concurrent writes share commits.
  memory: () => {
    const inner = createMemoryBackend();
    return { ...inner, commitDelay: { ms: 2, minWriters: 3 }, commit: async (batch) => inner.commit(batch) };
  },
  indexeddb: (seed) => createIdbBackend({ dbName: `fuzz-concurrent-${seed}-${Date.now()}`, indexedDB: new IDBFactory() }),
};

interface Acked {
  op: string;
  name: string;
  status: number;
  object: any;
}

let client: TestClient | undefined;
let watch: WatchReader | undefined;
afterEach(async () => {
  watch?.cancel();
  await client?.close();
  client = watch = undefined;
});

describe.each(Object.keys(BACKENDS).flatMap((b) => SEEDS.map((s) => [b, s] as const)))('concurrent writes on %s, seed %i', (backend, seed) => {
  it(`${ROUNDS} rounds of ${PARALLEL} writes: the watch sees exactly what was acknowledged`, { timeout: 120_000 }, async () => {
    const c = (client = await startTestServer({ backend: BACKENDS[backend]!(seed) }));
    expect((await c.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
    const start = (await c.get(CM)).json.metadata.resourceVersion as string;
    watch = await startWatch(c.api, `${CM}?watch=1&resourceVersion=${start}`);
    const r = new Rand(seed);
    const problems: string[] = [];
    const acked: Acked[] = [];
    /** The last resourceVersion each name was seen at (for conditional writes, often stale on purpose). */
    const seen = new Map<string, string>();

    const one = async (): Promise<void> => {
      const name = r.pick(NAMES);
      const url = `${CM}/${name}`;
      const rv = seen.get(name);
      const value = `v${r.int(5)}`;
      const op = r.pick(['create', 'create', 'put', 'put-any', 'merge', 'json', 'apply', 'finalizer', 'delete', 'delete', 'delcol']);
      let reply: Reply;
      switch (op) {
        case 'create':
          reply = await c.post(CM, { metadata: { name, labels: { g: value } }, data: { v: value } });
          break;
        case 'put':
          reply = await c.put(url, { metadata: { name, resourceVersion: rv, labels: { g: value } }, data: { v: value } });
          break;
        case 'put-any':
          reply = await c.put(url, { metadata: { name }, data: { v: value, w: value } });
          break;
        case 'merge':
          reply = await c.patch(url, { metadata: r.chance(0.3) ? { resourceVersion: rv } : {}, data: { [r.pick(['v', 'x'])]: value } });
          break;
        case 'json':
          reply = await c.patch(url, [{ op: 'add', path: '/data/j', value }], 'application/json-patch+json');
          break;
        case 'apply':
          reply = await c.patch(`${url}?fieldManager=m${r.int(3)}${r.chance(0.5) ? '&force=true' : ''}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: value } }, 'application/apply-patch+yaml');
          break;
        case 'finalizer':
          reply = await c.patch(url, { metadata: { finalizers: r.chance(0.5) ? ['example.com/hold'] : null } });
          break;
        case 'delete':
          reply = await c.del(url, r.chance(0.3) ? { preconditions: { resourceVersion: rv } } : undefined);
          break;
        default:
          reply = await c.del(`${CM}?labelSelector=g%3D${value}`);
      }
      if (reply.status >= 500 || (reply.status >= 400 && reply.json?.kind !== 'Status')) problems.push(`${op} ${name}: ${reply.status} ${reply.text.slice(0, 200)}`);
      if (reply.status >= 300) return;
      if (op === 'delcol') for (const item of reply.json.items) acked.push({ op, name: item.metadata.name, status: reply.status, object: item });
      else acked.push({ op, name, status: reply.status, object: reply.json });
      if (reply.json?.metadata?.resourceVersion && op !== 'delcol') seen.set(name, reply.json.metadata.resourceVersion);
    };

    for (let round = 0; round < ROUNDS; round++) await Promise.all(Array.from({ length: PARALLEL }, one));
    // Finalizers off, so that every object left can be listed in its final state.
    await Promise.all(NAMES.map((n) => c.patch(`${CM}/${n}`, { metadata: { finalizers: null } }).then((rep) => rep.status < 300 && acked.push({ op: 'finalizer', name: n, status: rep.status, object: rep.json }))));
    const list = (await c.get(CM)).json;
    const end = Number(list.metadata.resourceVersion);
    await eventuallyAt(watch, end);
    const events = watch.events.filter((e) => e.type !== 'BOOKMARK' && e.object.metadata.name !== 'kube-root-ca.crt');
    expect(problems).toEqual([]);

    // Revision order, and each revision once.
    const revs = events.map((e) => Number(e.object.metadata.resourceVersion));
    expect(revs.filter((v, i) => i > 0 && v <= revs[i - 1]!)).toEqual([]);
    // Every acknowledged create, update and patch is an event with the very object answered
    // (a write that changed nothing answers the object of the event that made it).
    const byKey = new Map(events.map((e) => [`${e.object.metadata.name}@${e.object.metadata.resourceVersion}`, e]));
    /** A write that took the last finalizer off a terminating object deleted it (and answers the object it made, never stored). */
    // (A delete of an object with finalizers only marks it: a MODIFIED event like any update.)
    const removed = (a: Acked) => !a.object.metadata.finalizers?.length && (a.op === 'delete' || a.op === 'delcol' || a.object.metadata.deletionTimestamp);
    for (const a of acked) {
      if (removed(a)) {
        const at = Number(a.object.metadata.resourceVersion);
        expect(events.some((e) => e.type === 'DELETED' && e.object.metadata.name === a.name && Number(e.object.metadata.resourceVersion) >= at), `${a.op} ${a.name}@${at} has no DELETED event`).toBe(true);
        continue;
      }
      const e = byKey.get(`${a.name}@${a.object.metadata.resourceVersion}`);
      expect(e, `${a.op} ${a.name}@${a.object.metadata.resourceVersion} has no event`).toBeDefined();
      expect(e!.object, `${a.op} ${a.name}@${a.object.metadata.resourceVersion}`).toEqual(a.object);
    }
    // And nothing happened that was not acknowledged: every ADDED/MODIFIED is some write's answer.
    const answered = new Set(acked.filter((a) => !removed(a)).map((a) => `${a.name}@${a.object.metadata.resourceVersion}`));
    expect(events.filter((e) => e.type !== 'DELETED' && !answered.has(`${e.object.metadata.name}@${e.object.metadata.resourceVersion}`)).map((e) => `${e.type} ${e.object.metadata.name}@${e.object.metadata.resourceVersion}`)).toEqual([]);
    // The watch ends where a list stands.
    const last = new Map<string, any>();
    for (const e of events) last.set(e.object.metadata.name, e.type === 'DELETED' ? undefined : e.object);
    const listed = Object.fromEntries(list.items.filter((i: any) => i.metadata.name !== 'kube-root-ca.crt').map((i: any) => [i.metadata.name, i]));
    const watched = Object.fromEntries([...last].filter(([, o]) => o !== undefined).map(([n, o]) => [n, { ...o }]));
    for (const o of Object.values(watched) as any[]) delete o.kind, delete o.apiVersion;
    for (const o of Object.values(listed) as any[]) delete o.kind, delete o.apiVersion;
    expect(watched).toEqual(listed);
  });
});

/** Waits until the watch has delivered the revision `rv` (or a later one). */
async function eventuallyAt(w: WatchReader, rv: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!w.events.some((e) => Number(e.object?.metadata?.resourceVersion) >= rv)) {
    if (Date.now() > deadline) throw new Error(`the watch never reached ${rv}: ${w.summary().slice(-300)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
