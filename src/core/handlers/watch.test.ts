// Watch semantics as kube-apiserver v1.23 serves them: start state per resourceVersion, bookmarks,
// timeouts, 410 for expired revisions, ordering across resume, slow watchers, namespace and
// all-namespace watches, label-selector transitions, Table watches and WatchList.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../api';
import { createMemoryBackend } from '../storage/memory-backend';
import { createIdbBackend } from '../../backends/idb/idb-backend';
import type { KvBackend } from '../storage/types';
import { call, sleep, startWatch, type WatchReader } from '../testing/watch';

const idbFactory = new IDBFactory();
let dbCounter = 0;
const BACKENDS: Array<[string, () => KvBackend]> = [
  ['memory', () => createMemoryBackend()],
  ['indexeddb', () => createIdbBackend({ dbName: `watch-${++dbCounter}`, indexedDB: idbFactory })],
];

const CM = '/api/v1/namespaces/default/configmaps';
const MERGE = { 'content-type': 'application/merge-patch+json' };
const TABLE = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json' };

const typesAndNames = (r: WatchReader) => r.events.map((e) => `${e.type} ${e.object.metadata?.name ?? ''}`.trim());
const rvOf = (o: any): number => Number(o.metadata.resourceVersion);

/** Watchers opened by a test; cancelled afterwards so no stream outlives its test. */
const open: WatchReader[] = [];
async function watch(api: ApiServer, url: string, headers: Record<string, string> = {}, opts = {}): Promise<WatchReader> {
  const r = await startWatch(api, url, headers, opts);
  open.push(r);
  return r;
}
afterEach(() => {
  for (const r of open.splice(0)) r.cancel();
});

async function create(api: ApiServer, name: string, extra: Record<string, unknown> = {}, path = CM): Promise<any> {
  const r = await call(api, 'POST', path, { metadata: { name, ...extra }, data: { v: '1' } });
  expect(r.status, r.text).toBe(201);
  return r.json;
}

describe.each(BACKENDS)('watch start state (%s backend)', (_name, makeBackend) => {
  let api: ApiServer;
  let rvB: number;
  beforeAll(async () => {
    api = await createApiServer({ backend: makeBackend() });
    await create(api, 'a');
    rvB = rvOf(await create(api, 'b'));
  });
  afterAll(async () => {
    for (const r of open.splice(0)) r.cancel();
    await api?.close();
  });

  it('rv unset: synthetic ADDED for every object, then the changes, as JSON lines', async () => {
    const res = await call(api, 'GET', `${CM}?watch=1`);
    expect(res.status).toBe(200);
    expect(res.headers['Content-Type']).toBe('application/json');
    res.stream!.cancel();

    const w = await watch(api, `${CM}?watch=1`);
    // The namespace's kube-root-ca.crt (root-ca-cert-publisher) is there from the start.
    await w.waitForEvents(3);
    const c = await create(api, 'c');
    await call(api, 'PATCH', `${CM}/a`, { data: { v: '2' } }, MERGE);
    const del = await call(api, 'DELETE', `${CM}/c`);
    await w.waitForEvents(6);
    expect(typesAndNames(w)).toEqual(['ADDED a', 'ADDED b', 'ADDED kube-root-ca.crt', 'ADDED c', 'MODIFIED a', 'DELETED c']);
    // Every event is one line: {"type":..,"object":{..}} with kind/apiVersion on the object.
    for (const chunk of w.chunks) expect(chunk).toMatch(/^\{"type":"(ADDED|MODIFIED|DELETED)","object":\{"kind":"ConfigMap","apiVersion":"v1",.*\}\n$/);
    expect(w.events[3].object).toEqual(c);
    expect(w.events[4].object.data).toEqual({ v: '2' });
    // A DELETED event shows the last state, stamped with the delete's revision.
    expect(rvOf(w.events[5].object)).toBeGreaterThan(rvOf(c));
    expect(w.events[5].object.metadata.name).toBe('c');
    expect(del.status).toBe(200);
    // restore
    await call(api, 'PATCH', `${CM}/a`, { data: { v: '1' } }, MERGE);
  });

  it('rv=0: Get State and Start at Any (synthetic ADDED too)', async () => {
    const w = await watch(api, `${CM}?watch=true&resourceVersion=0`);
    await w.waitForEvents(3);
    expect(typesAndNames(w)).toEqual(['ADDED a', 'ADDED b', 'ADDED kube-root-ca.crt']);
  });

  it('rv=N: only changes after N, no synthetic ADDED for existing objects', async () => {
    const n = rvOf((await call(api, 'GET', CM)).json);
    expect(n).toBeGreaterThan(rvB);
    const w = await watch(api, `${CM}?watch=1&resourceVersion=${n}`);
    const d = await create(api, 'd');
    await call(api, 'DELETE', `${CM}/d`);
    await w.waitForEvents(2);
    await sleep(20);
    expect(typesAndNames(w)).toEqual(['ADDED d', 'DELETED d']);
    expect(rvOf(w.events[0].object)).toBe(rvOf(d));
    expect(rvOf(w.events[1].object)).toBeGreaterThan(rvOf(d));
  });

  it('rv=N replays history: changes made before the watch started but after N', async () => {
    const before = rvOf((await call(api, 'GET', CM)).json);
    await create(api, 'e');
    await call(api, 'PATCH', `${CM}/e`, { data: { v: '9' } }, MERGE);
    const w = await watch(api, `${CM}?watch=1&resourceVersion=${before}`);
    await w.waitForEvents(2);
    expect(typesAndNames(w)).toEqual(['ADDED e', 'MODIFIED e']);
    await call(api, 'DELETE', `${CM}/e`);
    await w.waitForEvents(3);
    expect(w.events[2].type).toBe('DELETED');
  });

  it('a single object: fieldSelector=metadata.name', async () => {
    const w = await watch(api, `${CM}?watch=1&fieldSelector=metadata.name%3Db`);
    await w.waitForEvents(1);
    await call(api, 'PATCH', `${CM}/a`, { data: { v: '3' } }, MERGE);
    await call(api, 'PATCH', `${CM}/b`, { data: { v: '3' } }, MERGE);
    await w.waitForEvents(2);
    await sleep(20);
    expect(typesAndNames(w)).toEqual(['ADDED b', 'MODIFIED b']);
  });

  it('label selector transitions: entering is ADDED, leaving is DELETED', async () => {
    const start = rvOf((await call(api, 'GET', CM)).json);
    const w = await watch(api, `${CM}?watch=1&resourceVersion=${start}&labelSelector=app%3Dweb`);
    await call(api, 'PATCH', `${CM}/a`, { metadata: { labels: { app: 'web' } } }, MERGE);
    await call(api, 'PATCH', `${CM}/a`, { data: { v: 'web' } }, MERGE);
    await call(api, 'PATCH', `${CM}/b`, { data: { v: 'not-matching' } }, MERGE);
    const leave = await call(api, 'PATCH', `${CM}/a`, { metadata: { labels: { app: 'db' } } }, MERGE);
    await w.waitForEvents(3);
    await sleep(20);
    expect(typesAndNames(w)).toEqual(['ADDED a', 'MODIFIED a', 'DELETED a']);
    // Leaving the selector: kube's cacheWatcher sends the previous content stamped with the event's revision.
    expect(w.events[2].object.metadata.labels).toEqual({ app: 'web' });
    expect(w.events[2].object.data).toEqual({ v: 'web' });
    expect(rvOf(w.events[2].object)).toBe(rvOf(leave.json));
  });
});

describe('watch lifetime', () => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await createApiServer({ bookmarkIntervalMs: 100 });
    await create(api, 'x');
  });
  afterAll(async () => {
    for (const r of open.splice(0)) r.cancel();
    await api?.close();
  });

  it('allowWatchBookmarks: periodic BOOKMARKs holding only kind, apiVersion and resourceVersion', async () => {
    const rv = rvOf((await call(api, 'GET', CM)).json);
    const w = await watch(api, `${CM}?watch=1&resourceVersion=${rv}&allowWatchBookmarks=true`);
    const bm = await w.waitFor((e) => e.type === 'BOOKMARK', 2000);
    expect(bm.object).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: String(rv) } });
    const y = await create(api, 'y');
    await w.waitFor((e) => e.type === 'BOOKMARK' && rvOf(e.object) === rvOf(y), 2000);
  });

  it('no BOOKMARKs unless asked for', async () => {
    const rv = rvOf((await call(api, 'GET', CM)).json);
    const w = await watch(api, `${CM}?watch=1&resourceVersion=${rv}`);
    await sleep(350);
    expect(w.events).toEqual([]);
  });

  it('timeoutSeconds ends the stream cleanly (a final BOOKMARK when allowed, no ERROR)', async () => {
    const rv = rvOf((await call(api, 'GET', CM)).json);
    const t0 = Date.now();
    const plain = await watch(api, `${CM}?watch=1&resourceVersion=${rv}&timeoutSeconds=1`);
    const withBm = await watch(api, `${CM}?watch=1&resourceVersion=${rv}&timeoutSeconds=1&allowWatchBookmarks=true`);
    await plain.waitForEnd(3000);
    await withBm.waitForEnd(3000);
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(2500);
    expect(plain.events).toEqual([]);
    expect(withBm.events.length).toBeGreaterThan(0);
    expect(withBm.events.every((e) => e.type === 'BOOKMARK')).toBe(true);
  });

  it('the server ends watches after maxWatchSeconds on its own', async () => {
    const capped = await createApiServer({ maxWatchSeconds: 1 });
    try {
      const w = new (await import('../testing/watch')).WatchReader((await call(capped, 'GET', `${CM}?watch=1&timeoutSeconds=600`)).stream!);
      await w.waitForEnd(3000);
      expect(w.events.every((e) => e.type !== 'ERROR')).toBe(true);
    } finally {
      await capped.close();
    }
  });

  it('cancel (the client goes) stops delivery', async () => {
    const rv = rvOf((await call(api, 'GET', CM)).json);
    const w = await watch(api, `${CM}?watch=1&resourceVersion=${rv}`);
    w.cancel();
    await create(api, 'after-cancel');
    await sleep(20);
    expect(w.events).toEqual([]);
  });
});

describe('watch from a revision older than the history window', () => {
  it('is a 200 stream carrying one ERROR event with a 410 Expired Status, then the end', async () => {
    const api = await createApiServer({ historyWindowMs: 1 });
    try {
      const old = rvOf(await create(api, 'old'));
      await create(api, 'newer');
      await sleep(1300);
      const w = await watch(api, `${CM}?watch=1&resourceVersion=${old}`);
      await w.waitForEnd(2000);
      expect(w.events).toHaveLength(1);
      expect(w.events[0].type).toBe('ERROR');
      expect(w.events[0].object).toMatchObject({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Expired', code: 410 });
      expect(w.events[0].object.message).toMatch(new RegExp(`^too old resource version: ${old} \\(\\d+\\)$`));
    } finally {
      await api.close();
    }
  });
});

describe('ordering, resume and slow watchers', () => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await createApiServer();
  });
  afterAll(async () => {
    for (const r of open.splice(0)) r.cancel();
    await api?.close();
  });

  it('events arrive in revision order, none missed, none duplicated, across a resume', async () => {
    const start = rvOf((await call(api, 'GET', CM)).json);
    const reference = await watch(api, `${CM}?watch=1&resourceVersion=${start}`);
    let first = await watch(api, `${CM}?watch=1&resourceVersion=${start}`);
    const writes = 300;
    const writer = (async () => {
      for (let i = 0; i < writes; i++) {
        const n = `o-${i % 37}`;
        const r = await call(api, 'PATCH', `${CM}/${n}`, { data: { i: String(i) } }, MERGE);
        if (r.status === 404) await create(api, n);
        if (i % 11 === 0) await call(api, 'DELETE', `${CM}/${n}`);
        if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    // Resume twice mid-stream from the last revision seen.
    const seen: any[] = [];
    for (let k = 0; k < 2; k++) {
      await first.waitForEvents(20, 5000);
      first.cancel();
      seen.push(...first.events);
      const last = rvOf(seen[seen.length - 1].object);
      first = await watch(api, `${CM}?watch=1&resourceVersion=${last}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await writer;
    const total = rvOf((await call(api, 'GET', CM)).json) - start;
    await reference.waitForEvents(total, 5000);
    await first.waitForEvents(total - seen.length, 5000);
    seen.push(...first.events);
    const revs = seen.map((e) => rvOf(e.object));
    expect(revs).toEqual(reference.events.map((e) => rvOf(e.object)));
    expect(revs).toHaveLength(total);
    for (let i = 1; i < revs.length; i++) expect(revs[i]).toBe(revs[i - 1] + 1);
  }, 30_000);

  it('a watcher that stops reading delays neither writes nor other watchers, and is ended', async () => {
    const start = rvOf((await call(api, 'GET', CM)).json);
    await create(api, 'slow-target');
    const fast = await watch(api, `${CM}?watch=1&resourceVersion=${start}`);
    const slow = await watch(api, `${CM}?watch=1&resourceVersion=${start}`, {}, { accept: () => false });
    // More events than the per-watcher congestion bound (10,000 today).
    const updates = 10_100;
    const t0 = Date.now();
    for (let i = 0; i < updates; i += 100) {
      const batch: Promise<unknown>[] = [];
      for (let j = i; j < i + 100; j++) batch.push(call(api, 'PATCH', `${CM}/slow-target`, { data: { i: String(j) } }, MERGE));
      await Promise.all(batch);
    }
    const writeMs = Date.now() - t0;
    await fast.waitForEvents(updates + 1, 10_000);
    expect(slow.ended).toBe(true);
    expect(fast.ended).toBe(false);
    const revs = fast.events.map((e) => rvOf(e.object));
    for (let i = 1; i < revs.length; i++) expect(revs[i]).toBe(revs[i - 1] + 1);
    // Generous bound: writes are not throttled by the blocked watcher.
    expect(writeMs).toBeLessThan(20_000);
  }, 60_000);
});

describe('namespace and all-namespaces watches', () => {
  it('a namespace watch sees its namespace, /api/v1/configmaps sees all', async () => {
    const api = await createApiServer();
    try {
      expect((await call(api, 'POST', '/api/v1/namespaces', { metadata: { name: 'other' } })).status).toBe(201);
      const start = rvOf((await call(api, 'GET', CM)).json);
      const nsWatch = await watch(api, `${CM}?watch=1&resourceVersion=${start}`);
      const all = await watch(api, `/api/v1/configmaps?watch=1&resourceVersion=${start}`);
      await create(api, 'in-default');
      await create(api, 'in-other', {}, '/api/v1/namespaces/other/configmaps');
      await all.waitForEvents(2);
      await sleep(20);
      expect(all.events.map((e) => `${e.object.metadata.namespace}/${e.object.metadata.name}`)).toEqual(['default/in-default', 'other/in-other']);
      expect(nsWatch.events.map((e) => e.object.metadata.name)).toEqual(['in-default']);
      // An all-namespaces watch with a namespace field selector.
      const sel = await watch(api, `/api/v1/configmaps?watch=1&resourceVersion=${start}&fieldSelector=metadata.namespace%3Dother`);
      await sel.waitForEvents(1);
      await sleep(20);
      expect(sel.events.map((e) => e.object.metadata.name)).toEqual(['in-other']);
    } finally {
      for (const r of open.splice(0)) r.cancel();
      await api.close();
    }
  });

  it('pods watch with a spec.nodeName field selector', async () => {
    const api = await createApiServer();
    try {
      const start = rvOf((await call(api, 'GET', '/api/v1/namespaces/default/pods')).json);
      const w = await watch(api, `/api/v1/pods?watch=1&resourceVersion=${start}&fieldSelector=spec.nodeName%3Dnode-1`);
      for (const [name, node] of [['p1', 'node-1'], ['p2', 'node-2']]) {
        const r = await call(api, 'POST', '/api/v1/namespaces/default/pods', { metadata: { name }, spec: { nodeName: node, containers: [{ name: 'c', image: 'nginx' }] } });
        expect(r.status, r.text).toBe(201);
      }
      await w.waitForEvents(1);
      await sleep(20);
      expect(typesAndNames(w)).toEqual(['ADDED p1']);
    } finally {
      for (const r of open.splice(0)) r.cancel();
      await api.close();
    }
  });
});

describe('Table watches (kubectl get -w)', () => {
  it('the list Table carries the start resourceVersion; each event is a one-row Table, the first with columnDefinitions', async () => {
    const api = await createApiServer();
    try {
      await create(api, 't1');
      const table = await call(api, 'GET', CM, undefined, TABLE);
      expect(table.json.kind).toBe('Table');
      const rv = table.json.metadata.resourceVersion as string;
      expect(Number(rv)).toBe(rvOf((await call(api, 'GET', CM)).json));
      const w = await watch(api, `${CM}?watch=true&resourceVersion=${rv}`, TABLE);
      await create(api, 't2');
      await call(api, 'PATCH', `${CM}/t2`, { data: { more: 'x' } }, MERGE);
      await call(api, 'DELETE', `${CM}/t2`);
      await w.waitForEvents(3);
      expect(w.events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
      for (const e of w.events) {
        expect(e.object.kind).toBe('Table');
        expect(e.object.apiVersion).toBe('meta.k8s.io/v1');
        expect(e.object.rows).toHaveLength(1);
        expect(e.object.rows[0].cells[0]).toBe('t2');
        expect(e.object.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 't2' } });
      }
      expect(e0Columns(w.events[0].object)).toEqual(['Name', 'Data', 'Age']);
      expect(w.events[1].object.columnDefinitions ?? []).toEqual([]);
      expect(w.events[2].object.columnDefinitions ?? []).toEqual([]);
      expect(w.events[1].object.rows[0].cells[1]).toBe(2);
    } finally {
      for (const r of open.splice(0)) r.cancel();
      await api.close();
    }
  });
});

function e0Columns(t: any): string[] {
  return (t.columnDefinitions as any[]).map((c) => c.name);
}

describe('WatchList (sendInitialEvents=true)', () => {
  it('sends ADDED for every object, a BOOKMARK annotated initial-events-end, then changes', async () => {
    const api = await createApiServer();
    try {
      await create(api, 'w1');
      await create(api, 'w2');
      const rv = rvOf((await call(api, 'GET', CM)).json);
      const w = await watch(api, `${CM}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
      await w.waitForEvents(4);
      expect(typesAndNames(w).slice(0, 3)).toEqual(['ADDED kube-root-ca.crt', 'ADDED w1', 'ADDED w2']);
      expect(w.events[3]).toEqual({
        type: 'BOOKMARK',
        object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: String(rv), annotations: { 'k8s.io/initial-events-end': 'true' } } },
      });
      await create(api, 'w3');
      await w.waitForEvents(5);
      expect(typesAndNames(w)[4]).toBe('ADDED w3');
    } finally {
      for (const r of open.splice(0)) r.cancel();
      await api.close();
    }
  });

  it('with a label selector, only matching objects are sent initially', async () => {
    const api = await createApiServer();
    try {
      await create(api, 'l1', { labels: { app: 'x' } });
      await create(api, 'l2');
      const w = await watch(api, `${CM}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&labelSelector=app%3Dx`);
      await w.waitForEvents(2);
      expect(w.events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
      expect(w.events[0].object.metadata.name).toBe('l1');
    } finally {
      for (const r of open.splice(0)) r.cancel();
      await api.close();
    }
  });
});
