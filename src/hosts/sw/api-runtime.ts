// The one ApiServer of this worker, opened lazily on the first request after the browser
// (re)started the worker. IndexedDB first; when it cannot be opened (a private window that denies
// it, a broken profile) the worker falls back to an in-memory store and says so: the page shows
// "not persistent" rather than losing writes silently. Storage failures after open (quota) are
// remembered for the page and still answered as 500 Status errors by the core; the page then
// offers to go on in memory, with every object, revision and history event carried over.
import { createTimelineStore, type TimelineStore } from './timeline-store';
import { createApiServer, type ApiServer, type ApiServerOptions } from '../../core/api';
import type { BackendState, KvBackend } from '../../core/storage/types';
import { createIdbBackend } from '../../backends/idb/idb-backend';
import { createMemoryBackend } from '../../core/storage/memory-backend';
import type { StorageMode } from './protocol';
import { StartupError } from '../../core/server/runtime-config';

export interface RuntimeOptions {
  dbName: string;
  /** Defaults to the global indexedDB (tests pass fake-indexeddb's). */
  indexedDB?: IDBFactory;
  api: Omit<ApiServerOptions, 'backend'>;
  /** For tests: force the in-memory store, as if IndexedDB were denied. */
  forceMemory?: boolean;
  /** Options read at every (re)start on top of `api`: the page's saved settings (runtime config, access control). */
  settings?: () => Promise<Omit<ApiServerOptions, 'backend'>>;
}

export interface ApiRuntime {
  /** Every committed revision of every object, for the page's ownership timeline. */
  readonly timeline: TimelineStore;
  /** The server, opening it on first use. */
  server(): Promise<ApiServer>;
  readonly mode: StorageMode;
  /** Why the worker is in memory, or the last storage failure; '' when none. */
  readonly storageError: string;
  /** Close the server and wipe its storage; the next request starts an empty cluster. */
  reset(): Promise<void>;
  /** Close the server (the next request reopens it from storage). */
  close(): Promise<void>;
  /**
   * A restart of the API with the state kept, as a real apiserver restart: the current server
   * shuts down (watches end, clients resume) and a new one opens over the same storage with the
   * settings read afresh. Requests arriving meanwhile wait for the new server.
   */
  restart(): Promise<ApiServer>;
  /**
   * Leaves IndexedDB for an in-memory store seeded with the running store's state (objects,
   * resourceVersions, history window): what the page offers once a write failed for lack of
   * storage. Watches end and resume against the memory store; a reset tries IndexedDB again.
   */
  continueInMemory(): Promise<ApiServer>;
  /** How long the last open took (ms), for the status endpoint. */
  readonly openMs: number | undefined;
}

export function createApiRuntime(opts: RuntimeOptions): ApiRuntime {
  let opening: Promise<ApiServer> | undefined;
  let mode: StorageMode = 'starting';
  let storageError = '';
  // Kept across restarts: a memory-only cluster must survive a settings change too.
  let memory: KvBackend | undefined;
  const timeline = createTimelineStore({ dbName: `${opts.dbName}-timeline` });

  /** Remembers backend failures for the page, leaving the error itself to the core. */
  const observed = (backend: KvBackend): KvBackend => ({
    ...backend,
    name: backend.name,
    commit(batch) {
      const remember = (error: unknown): never => {
        storageError = describe(error);
        throw error;
      };
      // The backend's own promise, observed on its failure path only: no extra async step
      // between the transaction's completion and the waiting writes.
      try {
        const committed = backend.commit(batch);
        if (!committed) {
          timeline.record(batch.events);
          return committed;
        }
        // Recorded beside the waiting writes' chain, not in it: no extra step before they go on.
        committed.then(() => timeline.record(batch.events), () => undefined);
        return committed.catch(remember);
      } catch (error) {
        return remember(error);
      }
    },
  });

  let openMs: number | undefined;
  const open = async (): Promise<ApiServer> => {
    const started = performance.now();
    try {
      return await openServer();
    } finally {
      openMs = Math.round((performance.now() - started) * 10) / 10;
    }
  };

  const openServer = async (): Promise<ApiServer> => {
    const api = { ...opts.api, ...(opts.settings ? await opts.settings() : {}) };
    if (!opts.forceMemory && !memory) {
      try {
        const backend = createIdbBackend({ dbName: opts.dbName, indexedDB: opts.indexedDB });
        // Lazy open: a cold worker answers its first GET without loading every value first.
        const server = await createApiServer({ ...api, backend: observed(backend), lazyOpen: true });
        mode = 'persistent';
        return server;
      } catch (error) {
        // Bad settings are not a storage problem: the caller reports them and keeps the old ones.
        if (error instanceof StartupError) throw error;
        storageError = `IndexedDB is not available (${describe(error)}); running in memory: changes are not persistent`;
      }
    } else if (opts.forceMemory) {
      storageError = 'running in memory: changes are not persistent';
    }
    memory ??= createMemoryBackend();
    const server = await createApiServer({ ...api, backend: observed(memory) });
    mode = 'memory';
    return server;
  };

  /** Replaces the running server with the one `next` returns; requests arriving meanwhile wait for it. */
  const replace = (next: (old: ApiServer | undefined) => Promise<ApiServer>): Promise<ApiServer> => {
    const previous = opening;
    mode = 'starting';
    const replaced = (async () => next(await previous?.catch(() => undefined)))();
    opening = replaced;
    return replaced;
  };

  const close = async () => {
    const current = opening;
    opening = undefined;
    mode = 'starting';
    if (current) await (await current.catch(() => undefined))?.close();
  };

  return {
    timeline,
    get openMs() {
      return openMs;
    },
    server() {
      opening ??= open();
      return opening;
    },
    get mode() {
      return mode;
    },
    get storageError() {
      return storageError;
    },
    restart() {
      return replace(async (old) => {
        old?.beginShutdown();
        await old?.close();
        return open();
      });
    },
    continueInMemory() {
      return replace(async (old) => {
        // Already in memory: keep that cluster (opening it again if the last start failed).
        if (memory) {
          if (!old) return open();
          mode = 'memory';
          return old;
        }
        const failure = storageError;
        let seed: BackendState | undefined;
        let unreadable = '';
        try {
          seed = await old?.snapshot?.();
        } catch (error) {
          unreadable = describe(error);
        }
        old?.beginShutdown();
        await old?.close().catch(() => undefined);
        memory = createMemoryBackend(seed);
        const server = await open();
        const why = failure ? ` after a storage failure (${failure})` : '';
        storageError = unreadable
          ? `the stored objects could not be read (${unreadable}); running in memory with an empty cluster${why}: changes are not persistent`
          : `running in memory${why}: changes are not persistent`;
        return server;
      });
    },
    async reset() {
      // Requests that arrive meanwhile (the page's revision poll, a view's watch) wait for the new
      // server: one opened before the delete would hold the old database open, and lose it.
      await replace(async (old) => {
        old?.beginShutdown();
        await old?.close();
        memory = undefined;
        await timeline.clear();
        // Also after continuing in memory: the database is dropped (freeing its quota) and the
        // next start tries it again. Where IndexedDB is denied, the delete fails and memory it stays.
        if (!opts.forceMemory) await deleteDatabase(opts.indexedDB ?? globalThis.indexedDB, opts.dbName).catch(() => undefined);
        storageError = '';
        return open();
      });
    },
    close,
  };
}

function deleteDatabase(factory: IDBFactory | undefined, name: string): Promise<void> {
  if (!factory) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const req = factory.deleteDatabase(name);
    req.onsuccess = () => resolve();
    req.onerror = () => reject(req.error ?? new Error(`cannot delete database ${name}`));
    // Another connection that ignores versionchange: the delete completes once it closes.
    req.onblocked = () => undefined;
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
