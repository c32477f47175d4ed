// The API server: one object, host-free. Hosts call createApiServer once and then handle() per
// request. Everything else in src/core hangs off this.
import type { ApiRequest, ApiResponse } from './types';
import type { KvBackend } from './storage/types';

export interface ApiServerOptions {
  /** Durable backend; defaults to the in-memory one. */
  backend?: KvBackend;
  /** How long history (watch resume, continue tokens, reads at past revisions) is kept. Default 5 minutes. */
  historyWindowMs?: number;
  /** Address advertised in legacy discovery (`serverAddressByClientCIDRs`). */
  serverAddress?: string;
  /** Watch length when the client sends no timeoutSeconds: random in [n, 2n) seconds. Default 30 minutes (kube: 30-60 min). */
  defaultWatchSeconds?: number;
  /** Upper bound on any watch (the browser host keeps watches short). */
  maxWatchSeconds?: number;
  /** How often watches with allowWatchBookmarks get a BOOKMARK. Default 60 s. */
  bookmarkIntervalMs?: number;
  /**
   * Start answering single-object GETs from the key index while values, history and bootstrap
   * load in the background (the Service Worker's cold start). Default false.
   */
  lazyOpen?: boolean;
}

export interface ApiServer {
  handle(req: ApiRequest): Promise<ApiResponse>;
  /** From now on readyz fails (`[-]shutdown failed`); open watches end cleanly. */
  beginShutdown(): void;
  close(): Promise<void>;
}

export { createApiServer } from './server/apiserver';
