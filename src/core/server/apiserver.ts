// Builds the API server: storage, the resource catalog, resource hooks, bootstrap objects, the
// dispatcher, health checks, and shutdown.
import type { ApiServer, ApiServerOptions } from '../api';
import type { ApiRequest, ApiResponse } from '../types';
import { openMvccStore } from '../storage/mvcc';
import { createMemoryBackend } from '../../backends/memory/memory-backend';
import { Catalog } from '../registry/catalog';
import type { RegistryContext } from '../registry/context';
import { builtinResources } from '../schema';
import { registerNamespaceHooks, bootstrapNamespaces } from '../registry/resources/namespaces';
import { registerServiceHooks, bootstrapServices } from '../registry/resources/services';
import { registerCrdHooks, bootstrapCrds } from '../registry/crd/hooks';
import { createDispatcher } from './dispatch';
import { parseQuery, requestInfo } from './requestinfo';
import { healthChecks } from './health';
import { createOpenApiService, customSchemaKey, type OpenApiService } from './openapi';

export async function createApiServer(opts: ApiServerOptions = {}): Promise<ApiServer> {
  const backend = opts.backend ?? createMemoryBackend();
  const mvcc = await openMvccStore(backend, { historyWindowMs: opts.historyWindowMs, lazy: opts.lazyOpen });
  const catalog = new Catalog([...builtinResources]);
  const ctx: RegistryContext = { mvcc, catalog, now: () => Date.now(), hooks: new Map(), background: new Set(), closed: false };
  registerNamespaceHooks(ctx);
  registerServiceHooks(ctx);
  registerCrdHooks(ctx);

  let openapi: OpenApiService | undefined;
  let openapiGen = -1;
  const openapiService = (): OpenApiService => {
    if (!openapi || openapiGen !== catalog.generation) {
      const all = catalog.all();
      const schemas = new Map<string, unknown>();
      for (const r of all) if (r.custom && r.openAPIV3Schema) schemas.set(customSchemaKey(r.group, r.version, r.resource), r.openAPIV3Schema);
      if (!openapi) openapi = createOpenApiService(all, schemas);
      else openapi.update(all, schemas);
      openapiGen = catalog.generation;
    }
    return openapi;
  };

  let started = false;
  let shuttingDown = false;
  const watchStops = new Set<() => void>();
  const dispatch = createDispatcher({
    reg: ctx,
    health: healthChecks(
      async () => ((await mvcc.healthy()) ? undefined : 'storage backend is not available'),
      () => started,
      () => shuttingDown,
    ),
    openapi: openapiService,
    serverAddress: opts.serverAddress ?? '127.0.0.1:8080',
    watch: {
      defaultWatchSeconds: opts.defaultWatchSeconds ?? 30 * 60,
      maxWatchSeconds: opts.maxWatchSeconds,
      bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 60_000,
      maxCongestedEvents: 10_000,
    },
    activeWatches: {
      add(stop) {
        watchStops.add(stop);
        return () => watchStops.delete(stop);
      },
    },
  });

  const bootstrap = (async () => {
    await bootstrapCrds(ctx);
    await bootstrapNamespaces(ctx);
    await bootstrapServices(ctx);
    started = true;
  })();
  // A lazily opened store answers plain GETs of built-in objects at once; everything else (lists,
  // writes, watches, discovery — which must know the CRDs) waits for the bootstrap.
  if (opts.lazyOpen) bootstrap.catch((err) => console.error('bootstrap failed:', err));
  else await bootstrap;
  const servable = (req: ApiRequest): boolean => {
    if (started) return true;
    if (req.method !== 'GET') return false;
    const { path, query } = parseQuery(req.url);
    const info = requestInfo(req.method, path, query);
    return info.isResourceRequest && info.verb === 'get' && !info.subresource && catalog.lookup(info.group, info.version, info.resource) !== undefined;
  };

  return {
    handle(req: ApiRequest): Promise<ApiResponse> {
      if (servable(req)) return dispatch(req);
      return bootstrap.then(() => dispatch(req));
    },
    beginShutdown() {
      shuttingDown = true;
      for (const stop of [...watchStops]) stop();
    },
    async close() {
      shuttingDown = true;
      ctx.closed = true;
      for (const stop of [...watchStops]) stop();
      await Promise.allSettled([...ctx.background]);
      await mvcc.close();
    },
  };
}
