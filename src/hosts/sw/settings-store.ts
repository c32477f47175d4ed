// Where the browser host keeps its API settings between worker restarts: a tiny IndexedDB
// database of its own, so that resetting the cluster (which deletes the cluster's database) keeps
// the settings, as a real apiserver's flags survive an etcd wipe. When IndexedDB cannot be used
// the settings live in memory for as long as the worker runs.
import { DEFAULT_HOST_SETTINGS, type HostSettings } from './protocol';

export interface SettingsStore {
  /** The saved settings, or the defaults when none were saved. */
  load(): Promise<HostSettings>;
  save(settings: HostSettings): Promise<void>;
}

const STORE = 'settings';
const KEY = 'api';

export function createSettingsStore(opts: { dbName: string; indexedDB?: IDBFactory }): SettingsStore {
  let inMemory: HostSettings | undefined;
  let opening: Promise<IDBDatabase | undefined> | undefined;
  const db = () => (opening ??= openDatabase(opts.indexedDB ?? globalThis.indexedDB, opts.dbName).catch(() => undefined));

  return {
    async load() {
      const conn = await db();
      const saved = conn ? await request<unknown>(conn.transaction(STORE, 'readonly').objectStore(STORE).get(KEY)) : inMemory;
      return withDefaults(saved);
    },
    async save(settings) {
      const conn = await db();
      if (!conn) {
        inMemory = { ...settings };
        return;
      }
      const tx = conn.transaction(STORE, 'readwrite');
      tx.objectStore(STORE).put({ ...settings }, KEY);
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error ?? new Error('saving the settings failed'));
        tx.onabort = () => reject(tx.error ?? new Error('saving the settings was aborted'));
      });
    },
  };
}

/** Fills fields a settings record from an older build may lack. */
function withDefaults(saved: unknown): HostSettings {
  const s = (saved && typeof saved === 'object' ? saved : {}) as Partial<HostSettings>;
  return {
    runtimeConfig: typeof s.runtimeConfig === 'string' ? s.runtimeConfig : DEFAULT_HOST_SETTINGS.runtimeConfig,
    featureGates: typeof s.featureGates === 'string' ? s.featureGates : DEFAULT_HOST_SETTINGS.featureGates,
    accessControl: s.accessControl === 'RBAC' ? 'RBAC' : DEFAULT_HOST_SETTINGS.accessControl,
    historyWindow: typeof s.historyWindow === 'string' ? s.historyWindow : DEFAULT_HOST_SETTINGS.historyWindow,
    clusterOn: typeof s.clusterOn === 'boolean' ? s.clusterOn : DEFAULT_HOST_SETTINGS.clusterOn,
    controllers: typeof s.controllers === 'string' ? s.controllers : DEFAULT_HOST_SETTINGS.controllers,
    nodes: typeof s.nodes === 'number' ? s.nodes : DEFAULT_HOST_SETTINGS.nodes,
    nodeCpu: typeof s.nodeCpu === 'string' ? s.nodeCpu : DEFAULT_HOST_SETTINGS.nodeCpu,
    nodeMemory: typeof s.nodeMemory === 'string' ? s.nodeMemory : DEFAULT_HOST_SETTINGS.nodeMemory,
    kubeletDelay: typeof s.kubeletDelay === 'string' ? s.kubeletDelay : DEFAULT_HOST_SETTINGS.kubeletDelay,
    clockSpeed: typeof s.clockSpeed === 'number' ? s.clockSpeed : DEFAULT_HOST_SETTINGS.clockSpeed,
  };
}

/** A database with one object store, `settings`, made on first open; undefined without IndexedDB. */
export function openDatabase(factory: IDBFactory | undefined, name: string): Promise<IDBDatabase | undefined> {
  if (!factory) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const req = factory.open(name, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error(`cannot open ${name}`));
  });
}

export function request<T>(req: IDBRequest): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result as T);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}
