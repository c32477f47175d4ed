// What the page and the Service Worker agree on: the protocol version they check with each other,
// which paths the worker answers (everything else passes through to the network), and the
// private admin prefix. Imported by both sides, so it must stay free of DOM-only or SW-only types.

/**
 * Bumped whenever a message, an admin endpoint or the storage layout changes incompatibly. A page
 * that meets a worker with another version asks it to update and reloads once the new one
 * controls the page.
 */
export const PROTOCOL_VERSION = 6;

/** The IndexedDB database holding the cluster state. */
export const DB_NAME = 'kube-playground';

/** Private endpoints of the browser host (status, reset, export, import), under the base URL. */
export const ADMIN_PREFIX = '/__playground/';

/** Top-level API paths kube-apiserver serves, relative to the base URL. */
const API_ROOTS = ['api', 'apis', 'version', 'openapi', 'healthz', 'livez', 'readyz', 'metrics'];

/** Normalises a base path to start and end with a slash (`/`, `/kube/`). */
export function normalizeBase(base: string): string {
  let b = base.startsWith('/') ? base : `/${base}`;
  if (!b.endsWith('/')) b += '/';
  return b;
}

/**
 * The path relative to the base (starting with `/`) when `pathname` is one the worker answers
 * itself (an API path or the admin prefix), otherwise undefined (pass through).
 */
export function apiPathFor(pathname: string, base: string): string | undefined {
  const b = normalizeBase(base);
  if (!pathname.startsWith(b)) return undefined;
  const rest = pathname.slice(b.length - 1);
  if (rest.startsWith(ADMIN_PREFIX)) return rest;
  const slash = rest.indexOf('/', 1);
  const root = slash === -1 ? rest.slice(1) : rest.slice(1, slash);
  return API_ROOTS.includes(root) ? rest : undefined;
}

/** Where the cluster state lives right now, as the page shows it. */
export type StorageMode = 'persistent' | 'memory' | 'starting';

export interface HostStatus {
  protocol: number;
  /** Build id of the worker (differs across deployments even when the protocol does not). */
  build: string;
  mode: StorageMode;
  /** Why the worker fell back to memory, or the last storage failure; empty when all is well. */
  storageError: string;
  /** The store's current revision (as a string, like resourceVersion). */
  revision: string;
  /** How long opening the API server took in this worker, in ms (cold-start diagnostics). */
  openMs?: number;
}

/** The answer of `GET revision`, polled by the page: the store's revision and the storage state. */
export type HostRevision = Pick<HostStatus, 'revision' | 'mode' | 'storageError'>;

/** Access control of the browser host: 'off' is AlwaysAllow; with 'RBAC' the page itself stays an admin. */
export type AccessControlMode = 'off' | 'RBAC';

/** The API server's start-up settings in the browser host, as kube-apiserver's flags spell them. */
export interface HostSettings {
  /** `--runtime-config` text, e.g. `batch/v1beta1=false,batch/v2alpha1`. */
  runtimeConfig: string;
  /** `--feature-gates` text, e.g. `APIListChunking=false`. */
  featureGates: string;
  accessControl: AccessControlMode;
  /** `--history-window` (a Go duration, e.g. `30s`); empty for the default of 5 minutes. */
  historyWindow: string;
  /** The simulated cluster (nodes, kubelets, scheduler, workload controllers) runs; off, only the API's own controllers do. */
  clusterOn: boolean;
  /** kube-controller-manager's `--controllers` (`*`, `*,-deployment`). */
  controllers: string;
  /** `--nodes`, `--node-cpu`, `--node-memory`, `--kubelet-delay` (a Go duration), `--clock-speed`, as the Node host takes them. */
  nodes: number;
  nodeCpu: string;
  nodeMemory: string;
  kubeletDelay: string;
  clockSpeed: number;
}

export const DEFAULT_HOST_SETTINGS: HostSettings = {
  runtimeConfig: '',
  featureGates: '',
  accessControl: 'off',
  historyWindow: '',
  clusterOn: true,
  controllers: '*',
  nodes: 3,
  nodeCpu: '4',
  nodeMemory: '8Gi',
  kubeletDelay: '1s',
  clockSpeed: 1,
};

/** The cluster clock as `GET|POST clock` answers it (cluster time in ms since the epoch). */
export interface HostClock {
  now: number;
  paused: boolean;
  speed: number;
  /** Timers waiting on the clock (kubelet delays, deadlines, lease renewals). */
  timers: number;
  nextTimerAt?: number;
  /** Whether the simulated cluster runs (a step with none only moves time). */
  cluster: boolean;
}

/** What `POST clock` takes: pause, resume, step forward by `ms` (the clock stays paused), or a new speed. */
export type ClockAction = { action: 'pause' } | { action: 'resume' } | { action: 'step'; ms: number } | { action: 'speed'; speed: number };

/** The answer of `GET|PUT settings`: the settings in force, and why new ones were refused. */
export interface SettingsAnswer {
  settings: HostSettings;
  /** The start-up error for refused settings (the previous ones stay in force). */
  error?: string;
  /** Start-up warnings of the settings in force (deprecated or GA feature gates). */
  warnings: string[];
  /** How long the restart of the API took (ms), when one happened. */
  restartMs?: number;
}

/**
 * One API request handed to the worker as a message instead of a fetch (the kubectl bridge's
 * non-watch requests, decision 0046): a message round trip costs ~0.8 ms where a fetch through
 * the worker costs ~3 ms in headless Chromium. `path` is relative to the base with its query
 * (`/api/v1/pods?limit=5`); `headers` as a fetch's Request would carry them.
 */
export interface ApiRequestMessage {
  type: 'api';
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body?: Uint8Array;
}

/** The worker's answer to an ApiRequestMessage: what the page would read from the fetch's Response. */
export interface ApiAnswerMessage {
  type: 'api';
  status: number;
  /** Lower-cased and sorted, as a Response's Headers iterate. */
  headers: Array<[string, string]>;
  body: Uint8Array;
}

/** Page → worker messages (postMessage); the worker answers on the given MessagePort. */
export type PageMessage = { type: 'hello'; protocol: number } | { type: 'skip-waiting' } | ApiRequestMessage;

/** Worker → page answer to `hello` (an ApiRequestMessage gets an ApiAnswerMessage). */
export type WorkerMessage = { type: 'hello'; protocol: number; build: string; compatible: boolean };
