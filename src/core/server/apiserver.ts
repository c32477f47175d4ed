// Builds the API server: storage, the resource catalog, resource hooks, bootstrap objects, the
// dispatcher, health checks, and shutdown.
import type { ApiServer, ApiServerOptions } from './options';
import type { ApiRequest, ApiResponse } from '../meta/types';
import { openMvccStore } from '../storage/mvcc';
import { instrumentStore } from '../storage/instrumented-store';
import { snapshotOf } from '../storage/snapshot';
import { createMemoryBackend } from '../storage/memory-backend';
import { Catalog } from '../registry/catalog';
import type { RegistryContext } from '../registry/context';
import { builtinResources } from '../schema';
import { bootstrapNamespaces } from '../kinds/namespaces';
import { NamespaceController } from '../controllers/builtin/namespace-controller';
import { bootstrapServices } from '../kinds/services';
import { bootstrapKubernetesEndpoints } from '../kinds/kubernetes-endpoints';
import { KubernetesServiceKeeper } from '../controllers/builtin/kubernetes-service-keeper';
import { bootstrapPriorityClasses } from '../kinds/priority-classes';
import { bootstrapCrds } from '../crd/hooks';
import { FlowControl } from '../flowcontrol/flowcontrol';
import { bootstrapApiServices } from '../kinds/apiservices';
import { ApiServiceAvailability } from '../controllers/builtin/apiservice-availability';
import { createDispatcher } from './dispatch';
import { createObservability } from './audit-metrics-filter';
import { validateShowHiddenMetricsVersion } from './metrics-hidden';
import { configureServing } from './runtime-config-startup';
import { parseControllers } from '../controllers/controllers-flag';
import { createAccessControl } from '../auth/access';
import { RbacAuthorizer } from '../auth/rbac';
import { RbacStoreSync } from '../auth/rbac-sync';
import { reconcileBootstrapPolicy, servesRbac } from '../auth/rbac-bootstrap-store';
import { ServiceAccountTokens } from '../auth/service-account-tokens';
import { LegacyTokenValidator } from '../auth/legacy-token-validator';
import { configureClusterCa } from '../auth/cluster-ca';
import { ADMISSION_PLUGINS } from '../admission/register';
import { WriteHooks } from '../registry/write-hooks';
import { installKindHooks } from '../kinds/install';
import { specFor } from '../kinds';
import { WebhookDispatcher } from '../admission/webhooks/dispatch';
import { WebhookSource } from '../admission/webhooks/source';
import { parseRequest } from '../meta/requestinfo';
import { badRequestTarget } from '../handlers/respond';
import { healthChecks } from './health';
import { createOpenApiService, customSchemaKey, type OpenApiService } from './openapi';
import { createOpenApiV2Endpoint } from './openapi-v2-endpoint';
import { ControllerManager } from '../controllers/manager';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export async function createApiServer(opts: ApiServerOptions = {}): Promise<ApiServer> {
  validateShowHiddenMetricsVersion(opts.showHiddenMetricsForVersion);
  // kube-controller-manager's --controllers: which controllers run (all of the API's own when
  // absent). Checked before the storage opens: an unknown name fails start-up.
  const controllerEnabled = parseControllers(opts.controllers);
  // The simulated cluster's components call the API like any client: through handle() below.
  let handleRequest: (req: ApiRequest) => Promise<ApiResponse> = () => Promise.reject(new Error('API server not ready'));
  const backend = opts.backend ?? createMemoryBackend();
  // Write requests in progress: with a backend that has a commit delay, a batch waits for them.
  let activeWriters = 0;
  const store = opts.store ?? (await openMvccStore(backend, { historyWindowMs: opts.historyWindowMs, lazy: opts.lazyOpen, activeWriters: () => activeWriters }));
  const catalog = new Catalog([...builtinResources], specFor);
  const serving = configureServing(catalog, builtinResources, opts);
  const observability = createObservability(catalog, store, opts.auditCapacity);
  // Every storage call is timed for etcd_request_duration_seconds.
  const mvcc = instrumentStore(store, observability.observeStorage);
  if (opts.showHiddenMetricsForVersion) observability.metrics.showHiddenMetrics();
  const ctx: RegistryContext = { mvcc, catalog, now: opts.clock ? () => opts.clock!.now() : () => Date.now(), hooks: new WriteHooks(), admission: ADMISSION_PLUGINS, background: new Set(), closed: false };
  const namespaceController = new NamespaceController(ctx, opts.namespaceDeletionGracePeriodMs, controllerEnabled('namespace'));
  installKindHooks(ctx, { namespaces: namespaceController, crdValidationExpressions: serving.gates.enabled('CustomResourceValidationExpressions') });
  ctx.webhooks = new WebhookDispatcher(new WebhookSource(ctx), opts.webhookTransport);
  ctx.localWebhookOrigins = opts.localWebhookOrigins;
  // RBAC: the authorizer mirrors the stored policy (loaded and watched once bootstrap has run).
  const rbacSync = opts.authorization === 'RBAC' ? new RbacStoreSync(ctx, new RbacAuthorizer()) : undefined;
  // Service-account tokens are issued and reviewed always; they authenticate requests only when authentication is on.
  const saTokens = new ServiceAccountTokens(ctx, opts.authentication?.tokens);
  const authentication = opts.authentication && { ...opts.authentication, tokenAuthenticators: [...(opts.authentication.tokenAuthenticators ?? []), saTokens.authenticate] };
  const access = createAccessControl(authentication, rbacSync?.authorizer);
  // The tokens' authentication (the tokens controller, which makes their Secrets, is in controllers/controller-list.ts).
  const legacyValidator = new LegacyTokenValidator(ctx, saTokens);
  const serviceKeeper = new KubernetesServiceKeeper(ctx, opts.serverAddress);
  configureClusterCa(ctx, opts.clusterCaCert);
  // API Priority and Fairness: bootstrap configuration, FlowSchema status, response headers.
  const flowControl = new FlowControl(ctx);
  // kube-controller-manager and the simulated cluster: one list (controllers/controller-list.ts),
  // started once the bootstrap below is done, as kube-controller-manager starts against a ready
  // kube-apiserver. The simulated components call the API like any client, through handle().
  const controllers = new ControllerManager((req) => handleRequest(req), {
    selection: opts.controllers,
    server: { registry: ctx, serviceAccountTokens: saTokens },
    leaderElection: opts.leaderElection,
    clock: opts.clock,
    cluster: opts.cluster,
    signing: opts.clusterSigning,
  });
  ctx.kubeletLogs = controllers.kubeletLogs();
  // In-process aggregated APIs (metrics-server) count as available backends.
  const apiServiceStatus = new ApiServiceAvailability(ctx, (group, version) => controllers.aggregatedApis().some((a) => a.group === group && a.resources.some((r) => r.version === version)));
  // Everything the API server starts once its storage is open, in order (kube-apiserver's
  // post-start hooks and bootstrap objects), and stops on close.
  const startSequence: StartStep[] = [
    step('bootstrap-crds', () => bootstrapCrds(ctx)),
    step('bootstrap-namespaces', () => bootstrapNamespaces(ctx, namespaceController), () => namespaceController.stop()),
    step('bootstrap-services', () => bootstrapServices(ctx)),
    step('bootstrap-kubernetes-endpoints', () => bootstrapKubernetesEndpoints(ctx, opts.serverAddress)),
    named('kubernetes-service', serviceKeeper),
    step('scheduling/bootstrap-system-priority-classes', () => bootstrapPriorityClasses(ctx)),
    named('priority-and-fairness', flowControl),
    step('bootstrap-apiservices', () => bootstrapApiServices(ctx)),
    named('serviceaccount-tokens', saTokens),
    named('legacy-token-validator', legacyValidator),
    named('apiservice-availability', apiServiceStatus),
    // kube-apiserver's rbac/bootstrap-roles hook runs whenever the RBAC API is served, whatever
    // the authorizer: `cluster-admin`, `view`, ... exist under AlwaysAllow too.
    step('rbac/bootstrap-roles', async () => {
      if (servesRbac(ctx)) await reconcileBootstrapPolicy(ctx);
    }),
    ...(rbacSync ? [named('rbac-authorizer', rbacSync)] : []),
  ];

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
  // Built on the first request, rebuilt when the served resources (CRDs included) change.
  // Aggregated APIs join it while their APIService is available, as kube-aggregator merges them.
  const openapiV2 = createOpenApiV2Endpoint({
    get generation() {
      // Both counters only grow, so their sum changes whenever either does.
      return catalog.generation + apiServiceStatus.generation;
    },
    resources: () => catalog.all(),
    aggregated: () => controllers.aggregatedApis().filter((a) => a.resources.every((r) => apiServiceStatus.isAvailable(a.group, r.version))),
  });

  let started = false;
  let shuttingDown = false;
  const watchStops = new Set<() => void>();
  const dispatch = createDispatcher({
    reg: ctx,
    access,
    health: healthChecks(
      async () => ((await mvcc.healthy()) ? undefined : 'storage backend is not available'),
      () => started,
      () => shuttingDown,
    ),
    openapi: openapiService,
    openapiV2: (req) => openapiV2.serve(req),
    metrics: observability.metricsResponse,
    serverAddress: opts.serverAddress ?? '127.0.0.1:8080',
    watch: {
      defaultWatchSeconds: opts.defaultWatchSeconds ?? 30 * 60,
      maxWatchSeconds: opts.maxWatchSeconds,
      bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 60_000,
      maxCongestedEvents: 10_000,
    },
    flowControl,
    aggregated: () => controllers.aggregatedApis(),
    activeWatches: {
      add(stop) {
        watchStops.add(stop);
        return () => watchStops.delete(stop);
      },
    },
  });

  const runBootstrap = async () => {
    for (const part of startSequence) await part.start();
    started = true;
  };
  // The controllers start once, after the first bootstrap that succeeds.
  let controllersStarted: Promise<void> | undefined;
  const startControllers = (): Promise<void> => (controllersStarted ??= controllers.start());
  const reportControllerFailure = (err: unknown) => {
    if (!ctx.closed) console.error('controllers failed to start:', err);
  };
  // A lazily opened store answers plain GETs of built-in objects at once; everything else (lists,
  // writes, watches, discovery — which must know the CRDs) waits for the bootstrap, which starts
  // after the first request or a moment later, so a cold start's first GET is not queued
  // behind the full load.
  let bootstrap: Promise<void> | undefined;
  const startBootstrap = (): Promise<void> => {
    if (!bootstrap) {
      const attempt = runBootstrap();
      bootstrap = attempt;
      // A failed bootstrap (storage full, say) is logged and tried again by the next request;
      // requests are still served, and answer their own storage errors.
      if (opts.lazyOpen) {
        attempt.then(
          () => {
            // Served lazily, the controllers wait for a bootstrap that succeeded.
            if (lazyGets) void startControllers().catch(reportControllerFailure);
          },
          (err) => {
            console.error('bootstrap failed:', err);
            if (bootstrap === attempt) bootstrap = undefined;
          },
        );
      }
    }
    return bootstrap;
  };
  // A fresh store has nothing to read before the bootstrap created the initial objects.
  const lazyGets = opts.lazyOpen === true && mvcc.revision > 0;
  if (lazyGets) {
    const timer = setTimeout(() => void startBootstrap(), 100);
    (timer as { unref?: () => void } | undefined)?.unref?.();
  } else {
    await startBootstrap();
  }
  const servable = (req: ApiRequest): boolean => {
    if (started) return true;
    // Authorization needs the policy loaded first.
    if (rbacSync || opts.authentication) return false;
    if (req.method !== 'GET') return false;
    const { path, query, info } = parseRequest(req);
    return info.isResourceRequest && info.verb === 'get' && !info.subresource && catalog.lookup(info.group, info.version, info.resource) !== undefined;
  };

  // Metrics and audit see every request; feature gates adjust it before dispatch.
  const serve = observability.wrap(serving.wrap(dispatch));
  const server: ApiServer = {
    controllers: controllers.simulatesCluster ? controllers : undefined,
    audit: observability.audit,
    // Waiting for revision 0 costs nothing on a loaded store and makes a lazy one load (its
    // revision is only a lower bound until then).
    revision: () => mvcc.waitForRevision(0, 0).then(() => mvcc.revision),
    snapshot: () => snapshotOf(mvcc),
    namespacesSettled: () => namespaceController.idle(),
    handle(req: ApiRequest): Promise<ApiResponse> {
      if (parseRequest(req).invalidEscape) return Promise.resolve(badRequestTarget());
      if (lazyGets && servable(req)) return serve(req).finally(() => void startBootstrap());
      // Once bootstrapped, served at once: no turn through the settled bootstrap promise.
      const served = started
        ? serve(req)
        : startBootstrap().then(
            () => serve(req),
            () => serve(req),
          );
      if (!WRITE_METHODS.has(req.method)) return served;
      activeWriters++;
      return served.finally(() => activeWriters--);
    },
    beginShutdown() {
      shuttingDown = true;
      controllers.stopCluster();
      for (const stop of [...watchStops]) stop();
    },
    async close() {
      shuttingDown = true;
      controllers.stop();
      ctx.closed = true;
      for (const part of startSequence) part.stop();
      for (const stop of [...watchStops]) stop();
      await Promise.allSettled([...ctx.background]);
      await mvcc.close();
    },
  };
  handleRequest = (req) => server.handle(req);
  // A lazily opened store starts them after its bootstrap (above); otherwise the server is
  // answered with its controllers running.
  if (!lazyGets) await startControllers();
  return server;
}

/** One of kube-apiserver's start-up steps (post-start hooks, bootstrap objects); named as kube names it. */
interface StartStep {
  readonly name: string;
  /** Runs once per bootstrap attempt (a failed lazy bootstrap is retried). */
  start(): Promise<void> | void;
  /** Undoes what it left running; harmless when it never ran. */
  stop(): void;
}

/** A step that runs once per bootstrap, `stop` undoes what it left running. */
function step(name: string, start: () => Promise<unknown> | void, stop: () => void = () => {}): StartStep {
  return { name, start: async () => void (await start()), stop };
}

function named(name: string, part: { start(): Promise<void> | void; stop(): void }): StartStep {
  return { name, start: () => part.start(), stop: () => part.stop() };
}

