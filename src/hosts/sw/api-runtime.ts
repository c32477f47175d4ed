// The one ApiServer of this worker, opened lazily on the first request after the browser
// (re)started the worker. IndexedDB first; when it cannot be opened (a private window that denies
// it, a broken profile) the worker falls back to an in-memory store and says so: the page shows
// "not persistent" rather than losing writes silently. Storage failures after open (quota) are
// remembered for the page and still answered as 500 Status errors by the core.
import { createApiServer, type ApiServer, type ApiServerOptions } from '../../core/api';
import type { KvBackend } from '../../core/storage/types';
import { createIdbBackend } from '../../backends/idb/idb-backend';
import { createMemoryBackend } from '../../backends/memory/memory-backend';
import type { StorageMode } from './protocol';

export interface RuntimeOptions {
  dbName: string;
  /** Defaults to the global indexedDB (tests pass fake-indexeddb's). */
  indexedDB?: IDBFactory;
  api: Omit<ApiServerOptions, 'backend'>;
  /** For tests: force the in-memory store, as if IndexedDB were denied. */
  forceMemory?: boolean;
}

export interface ApiRuntime {
  /** The server, opening it on first use. */
  server(): Promise<ApiServer>;
  readonly mode: StorageMode;
  /** Why the worker is in memory, or the last storage failure; '' when none. */
  readonly storageError: string;
  /** Close the server and wipe its storage; the next request starts an empty cluster. */
  reset(): Promise<void>;
  /** Close the server (the next request reopens it from storage). */
  close(): Promise<void>;
  /** How long the last open took (ms), for the status endpoint. */
  readonly openMs: number | undefined;
}

export function createApiRuntime(opts: RuntimeOptions): ApiRuntime {
  let opening: Promise<ApiServer> | undefined;
  let mode: StorageMode = 'starting';
  let storageError = '';

  /** Remembers backend failures for the page, leaving the error itself to the core. */
  const observed = (backend: KvBackend): KvBackend => ({
    ...backend,
    name: backend.name,
    async commit(batch) {
      try {
        await backend.commit(batch);
      } catch (error) {
        storageError = describe(error);
        throw error;
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
    if (!opts.forceMemory) {
      try {
        const backend = createIdbBackend({ dbName: opts.dbName, indexedDB: opts.indexedDB });
        // Lazy open: a cold worker answers its first GET without loading every value first.
        const server = await createApiServer({ ...opts.api, backend: observed(backend), lazyOpen: true });
        mode = 'persistent';
        return server;
      } catch (error) {
        storageError = `IndexedDB is not available (${describe(error)}); running in memory: changes are not persistent`;
      }
    } else {
      storageError = 'running in memory: changes are not persistent';
    }
    const server = await createApiServer({ ...opts.api, backend: createMemoryBackend() });
    mode = 'memory';
    return server;
  };

  const close = async () => {
    const current = opening;
    opening = undefined;
    mode = 'starting';
    if (current) await (await current.catch(() => undefined))?.close();
  };

  return {
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
    async reset() {
      const wasMemory = mode === 'memory';
      await close();
      if (!wasMemory && !opts.forceMemory) await deleteDatabase(opts.indexedDB ?? globalThis.indexedDB, opts.dbName);
      storageError = '';
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
