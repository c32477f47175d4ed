// Times every storage call the registry makes, as kube-apiserver's etcd3 store records
// etcd_request_duration_seconds around each etcd call: `get` for a read of one key, `list` for a
// range, `create` for a create, `update` or `delete` for a compare-and-swap write, and `get` for an
// update that wrote nothing (kube's GuaranteedUpdate then only read the key). Failed calls are
// timed too, as kube records before it looks at the error. Counts, watches and revision waits are
// answered from this host's index, not by a storage request, so they are not timed (kube's watch
// cache answers those too).
import type { KV, Mutation, MvccStore, RangeOptions, RangeResult, StoreEvent, UpdateResult, WatchHandle } from './types';

export type StorageOperation = 'get' | 'list' | 'create' | 'update' | 'delete';

/** Receives one timed storage call: the key (or list prefix) it was for and how long it took. */
export type StorageObserver = (operation: StorageOperation, key: string, seconds: number) => void;

export function instrumentStore(store: MvccStore, observe: StorageObserver, now: () => number = () => performance.now()): MvccStore {
  // Not an async function: its frame, its own promise and the turn of its `await` were a fair
  // share of a create's fixed cost. The call's promise is chained once, on both outcomes. (No
  // closure under a name per call: tsx's keepNames would define a property on each.)
  const timed = <T>(operation: StorageOperation | (() => StorageOperation), key: string, call: () => Promise<T>): Promise<T> => {
    const started = now();
    let pending: Promise<T>;
    try {
      pending = call();
    } catch (err) {
      record(observe, operation, key, now() - started);
      return Promise.reject(err);
    }
    return pending.then(
      (value) => {
        record(observe, operation, key, now() - started);
        return value;
      },
      (err: unknown) => {
        record(observe, operation, key, now() - started);
        throw err;
      },
    );
  };
  const instrumented: MvccStore = {
    get revision() {
      return store.revision;
    },
    get compactRevision() {
      return store.compactRevision;
    },
    get backendName() {
      return store.backendName;
    },
    get: (key: string, rev?: number): Promise<KV | undefined> => timed('get', key, () => store.get(key, rev)),
    range: (prefix: string, opts?: RangeOptions): Promise<RangeResult> => timed('list', prefix, () => store.range(prefix, opts)),
    count: (prefix: string): number => store.count(prefix),
    create: (key: string, encode: (rev: number) => string): Promise<KV> => timed('create', key, () => store.create(key, encode)),
    update(key: string, fn: (current: KV | undefined) => Mutation): Promise<UpdateResult> {
      // The operation is what the callback decided last (a retried write decides again).
      let decided: StorageOperation = 'get';
      return timed(
        () => decided,
        key,
        () =>
          store.update(key, (current) => {
            decided = 'get';
            const mutation = fn(current);
            decided = mutation.kind === 'put' ? 'update' : mutation.kind === 'delete' ? 'delete' : 'get';
            return mutation;
          }),
      );
    },
    watch: (prefix: string, fromRev: number, onEvent: (ev: StoreEvent) => void): WatchHandle => store.watch(prefix, fromRev, onEvent),
    waitForRevision: (rev: number, timeoutMs: number): Promise<void> => store.waitForRevision(rev, timeoutMs),
    compact: (): void => store.compact(),
    healthy: (): Promise<boolean> => store.healthy(),
    close: (): Promise<void> => store.close(),
  };
  if (store.getCached) instrumented.getCached = (key) => store.getCached!(key);
  if (store.storageSizes) instrumented.storageSizes = () => store.storageSizes!();
  return instrumented;
}

function record(observe: StorageObserver, operation: StorageOperation | (() => StorageOperation), key: string, ms: number): void {
  observe(typeof operation === 'function' ? operation() : operation, key, ms / 1000);
}
