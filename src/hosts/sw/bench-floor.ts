// Floors for the browser benchmarks (bench/browser), answered by this same worker under the
// private prefix: a fixed Response of a given size (T), the raw IndexedDB operation on the
// same bytes (P), timed inside the worker, and both in one request (TP). A separate database
// keeps them away from the cluster.

import { IDB_DURABILITY } from '../../backends/idb/idb-backend';
import { toResponse } from './fetch-adapter';

const BENCH_DB = 'kube-playground-bench';
let db: Promise<IDBDatabase> | undefined;

function open(): Promise<IDBDatabase> {
  db ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(BENCH_DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore('values');
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  return db;
}

function run(mode: IDBTransactionMode, op: (store: IDBObjectStore) => IDBRequest): Promise<unknown> {
  return open().then(
    (d) =>
      new Promise((resolve, reject) => {
        // The same durability the store's commits use, so P is the floor of the same operation.
        const tx = d.transaction('values', mode, mode === 'readwrite' ? IDB_DURABILITY : undefined);
        const req = op(tx.objectStore('values'));
        tx.oncomplete = () => resolve(req.result);
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      }),
  );
}

const ECHO_HEADERS: Record<string, string> = {
  'Audit-Id': '00000000-0000-4000-8000-000000000000',
  'Cache-Control': 'no-cache, private',
  'Content-Type': 'application/json',
  'X-Kubernetes-Pf-Flowschema-Uid': '00000000-0000-4000-8000-000000000000',
  'X-Kubernetes-Pf-Prioritylevel-Uid': '00000000-0000-4000-8000-000000000000',
};

/** `echo?bytes=N[&status=201]` (any method; a request body is read), `echo-put?bytes=N&key=k[&status=201]`, `idb-put?bytes=N&key=k`, `idb-get?key=k`; undefined for other paths. */
export async function benchFloor(action: string, search: URLSearchParams, request?: Request): Promise<Response | undefined> {
  const bytes = Number(search.get('bytes') ?? '0');
  const key = search.get('key') ?? 'k';
  if (action === 'bench/echo' || action === 'bench/echo-put') {
    // The header set the API answers with (fixed values of the same length) and, for a create's
    // floor, its status: the floor moves the same bytes, like bench/floor-server.ts for Node.
    const status = Number(search.get('status') ?? '200');
    // A create's body is read, as the API reads it (the Node floor server does the same).
    if (request && request.method !== 'GET' && request.method !== 'HEAD') await request.arrayBuffer();
    // echo-put is T and P in one request: P's put between T's body read and T's answer. Timed
    // from the page like T, so it also carries what the put costs the transport around it (the
    // browser process finishing the transaction while it routes the answer), which P, timed
    // inside the worker, cannot show.
    if (action === 'bench/echo-put') await run('readwrite', (s) => s.put('x'.repeat(bytes), key));
    // Through the API's own adapter, so T carries its body the way the API's answers do (a
    // one-chunk stream, see fetch-adapter.ts): T is the transport, whatever the transport is.
    return toResponse({ status, headers: ECHO_HEADERS, body: 'x'.repeat(bytes) }).response;
  }
  if (action === 'bench/idb-put') {
    const value = 'x'.repeat(bytes);
    const t0 = performance.now();
    await run('readwrite', (s) => s.put(value, key));
    return new Response(JSON.stringify({ ms: performance.now() - t0 }));
  }
  if (action === 'bench/idb-get') {
    const t0 = performance.now();
    await run('readonly', (s) => s.get(key));
    return new Response(JSON.stringify({ ms: performance.now() - t0 }));
  }
  if (action === 'bench/idb-fill') {
    // n values of `bytes` each, keyed in walk order, in one transaction.
    const n = Number(search.get('n') ?? '0');
    const value = 'x'.repeat(bytes);
    const d = await open();
    await new Promise<void>((resolve, reject) => {
      const tx = d.transaction('values', 'readwrite', IDB_DURABILITY);
      const store = tx.objectStore('values');
      store.clear();
      for (let i = 0; i < n; i++) store.put(value, `walk/${String(i).padStart(6, '0')}`);
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    return new Response(JSON.stringify({ n }));
  }
  if (action === 'bench/idb-walk') {
    // The raw paged read the API's limit/continue walk does: `limit` values a page, each page's
    // values joined into one body.
    const limit = Number(search.get('limit') ?? '500');
    const d = await open();
    const t0 = performance.now();
    let after: string | undefined;
    let pages = 0;
    let total = 0;
    for (;;) {
      const range = after === undefined ? IDBKeyRange.bound('walk/', 'walk/\uffff') : IDBKeyRange.bound(after, 'walk/\uffff', true);
      const [keys, values] = await new Promise<[IDBValidKey[], string[]]>((resolve, reject) => {
        const tx = d.transaction('values', 'readonly');
        const store = tx.objectStore('values');
        const k = store.getAllKeys(range, limit);
        const v = store.getAll(range, limit);
        tx.oncomplete = () => resolve([k.result, v.result as string[]]);
        tx.onerror = () => reject(tx.error);
      });
      if (values.length === 0) break;
      total += `{"items":[${values.join(',')}]}`.length;
      pages++;
      after = String(keys[keys.length - 1]);
      if (values.length < limit) break;
    }
    return new Response(JSON.stringify({ ms: performance.now() - t0, pages, bytes: total }));
  }
  return undefined;
}
