// Routing: non-resource endpoints (version, health, discovery, OpenAPI) and resource requests
// (resolve the resource, check scope and verb, negotiate the output, call the verb's handler).
import { noteRequestUser, requestUser, userOfRequest } from '../auth/request-user';
import type { UserInfo } from '../auth/rbac/types';
import type { ApiRequest, ApiResponse } from '../meta/types';
import { ApiError, methodNotAllowed, notAcceptable, pathNotFound, requestEntityTooLarge } from '../meta/status';
import { parseRequest, type RequestInfo } from '../meta/requestinfo';
import { errorToResponse, jsonResponse as compactResponse, prettyResponse } from '../handlers/respond';
import { warningHeaderValue } from '../handlers/warning-header';
import { indentJson, isPrettyPrint } from '../handlers/pretty';
import type { RegistryContext } from '../registry/context';
import type { RequestContext } from '../handlers/context';
import type { AccessControl } from '../auth/access';
import { negotiateOutput, wantsAggregatedDiscovery } from '../handlers/negotiation';
import { deprecationOf } from './deprecation';
import { handleGet } from '../handlers/get';
import { handleList } from '../handlers/list';
import { handleWatch, type ActiveWatches, type WatchSettings } from '../handlers/watch';
import { handleCreate } from '../handlers/create';
import { handleUpdate } from '../handlers/update';
import { handlePatch } from '../handlers/patch';
import { handleDelete, handleDeleteCollection } from '../handlers/delete';
import { handleViewGet } from '../handlers/scale';
import { subresourceView } from '../registry/subresource-view';
import { servesObjectItself } from '../registry/subresource-write';
import { handleCreateThrough, handleVirtualCreate } from '../handlers/virtual';
import { answersOwnWatch, handleComponentStatuses, isComponentStatuses } from '../handlers/component-statuses';
import { handlePodConnect, POD_CONNECT_SUBRESOURCES } from '../handlers/pod-connect';
import { handleProxy, isProxy } from '../handlers/proxy';
import { serveHealth, type HealthCheck } from './health';
import { versionJson } from './version';
import {
  AGGREGATED_DISCOVERY_CONTENT_TYPE,
  aggregatedCoreDiscovery,
  aggregatedGroupsDiscovery,
  apiResourceList,
  legacyApiGroup,
  legacyApiGroupList,
  legacyApiVersions,
} from './discovery';
import type { OpenApiService } from './openapi';
import type { OutputFormat } from '../meta/output';
import type { AggregatedApi } from '../controllers/aggregated-api';

/** kube-apiserver's default request body limit. */
export const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

export interface DispatchDeps {
  reg: RegistryContext;
  /** Authentication, impersonation and authorization of each request. */
  access?: AccessControl;
  health: Record<string, HealthCheck[]>;
  openapi: () => OpenApiService;
  /** `GET /openapi/v2` (absent: 404). */
  openapiV2?: (req: ApiRequest) => Promise<ApiResponse>;
  /** The Prometheus text of /metrics (absent: 404). */
  metrics?: () => ApiResponse;
  serverAddress: string;
  watch: WatchSettings;
  activeWatches: ActiveWatches;
  /** API Priority and Fairness: adds the X-Kubernetes-PF-* headers of the request's classification. */
  flowControl?: { stamp(user: UserInfo | undefined, info: RequestInfo, res: ApiResponse): void };
  /** Groups served by other backends (the simulated metrics-server), present while they run. */
  aggregated?: () => readonly AggregatedApi[];
}

/** Paths served by handlers on kube's plain mux that do not look at the method (health, metrics). */
function answersAnyMethod(path: string): boolean {
  if (path === '/metrics') return true;
  return ['/healthz', '/livez', '/readyz'].some((base) => path === base || path.startsWith(`${base}/`));
}

export function createDispatcher(deps: DispatchDeps): (req: ApiRequest) => Promise<ApiResponse> {
  const discoveryCache = new Map<string, string | undefined>();
  let discoveryGen = -1;
  const cachedDiscoveryOf = (key: string, build: () => string | undefined): string | undefined => {
    if (discoveryGen !== deps.reg.catalog.generation) {
      discoveryCache.clear();
      discoveryGen = deps.reg.catalog.generation;
    }
    if (!discoveryCache.has(key)) discoveryCache.set(key, build());
    return discoveryCache.get(key);
  };

  const discovery = (req: ApiRequest, info: RequestInfo, query: URLSearchParams): ApiResponse | undefined => {
    // Legacy discovery documents are written through the negotiated serializer: pretty for humans.
    const pretty = isPrettyPrint(req, query);
    const jsonResponse = (status: number, body: string): ApiResponse => (pretty ? prettyResponse(status, indentJson(body)) : compactResponse(status, body));
    const aggregated = deps.aggregated?.() ?? [];
    const all = aggregated.length ? [...deps.reg.catalog.all(), ...aggregated.flatMap((a) => a.resources)] : deps.reg.catalog.all();
    const cachedDiscovery = (key: string, build: () => string | undefined) => cachedDiscoveryOf(`${aggregated.map((a) => a.group).join(',')}|${key}`, build);
    const p = info.path.replace(/\/+$/, '');
    const accept = req.headers['accept'];
    if (p === '/api' || p === '/apis') {
      if (wantsAggregatedDiscovery(accept)) {
        const body = cachedDiscovery(`agg${p}`, () => (p === '/api' ? aggregatedCoreDiscovery(all) : aggregatedGroupsDiscovery(all)));
        return { status: 200, headers: { 'Content-Type': AGGREGATED_DISCOVERY_CONTENT_TYPE, 'Cache-Control': 'no-cache, private' }, body: body + '\n' };
      }
      const body = cachedDiscovery(`legacy${p}`, () => (p === '/api' ? legacyApiVersions(deps.serverAddress) : legacyApiGroupList(all)));
      return jsonResponse(200, body as string);
    }
    const segs = p.split('/').filter(Boolean);
    if (segs[0] === 'apis' && segs.length === 2) {
      const body = cachedDiscovery(`group${p}`, () => legacyApiGroup(all, segs[1]));
      return body === undefined ? undefined : jsonResponse(200, body);
    }
    if ((segs[0] === 'api' && segs.length === 2) || (segs[0] === 'apis' && segs.length === 3)) {
      const group = segs[0] === 'api' ? '' : segs[1];
      const version = segs[segs.length - 1];
      const body = cachedDiscovery(`gv${p}`, () => apiResourceList(all, group, version));
      return body === undefined ? undefined : jsonResponse(200, body);
    }
    return undefined;
  };

  const nonResource = async (req: ApiRequest, info: RequestInfo, query: URLSearchParams): Promise<ApiResponse> => {
    const p = info.path;
    // The health and metrics handlers sit on kube's plain mux and answer whatever the method
    // (`FOO /healthz` is 200 ok); the rest are GET routes, 405 to any other method token.
    if (req.method !== 'GET' && req.method !== 'HEAD' && !answersAnyMethod(p)) {
      if (p.startsWith('/api') || p === '/version' || p.startsWith('/openapi')) throw methodNotAllowed();
      throw pathNotFound();
    }
    if (p === '/metrics' && deps.metrics) return deps.metrics();
    if (p === '/version' || p === '/version/') return { status: 200, headers: { 'Content-Type': 'application/json' }, body: versionJson() };
    for (const endpoint of ['healthz', 'livez', 'readyz']) {
      const base = `/${endpoint}`;
      if (p === base || p.startsWith(base + '/')) return serveHealth(endpoint, p.slice(base.length), query, deps.health[endpoint]);
    }
    if (p === '/openapi/v2' && deps.openapiV2) return deps.openapiV2(req);
    if (p === '/openapi/v3' || p === '/openapi/v3/') {
      return { status: 200, headers: { 'Content-Type': 'application/json' }, body: deps.openapi().index() };
    }
    if (p.startsWith('/openapi/v3/')) {
      const doc = deps.openapi().document(p.slice('/openapi/v3/'.length));
      if (doc === undefined) throw pathNotFound();
      return { status: 200, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' }, body: doc };
    }
    if (info.apiPrefix) {
      const res = discovery(req, info, query);
      if (res) return res;
    }
    throw pathNotFound();
  };

  const resource = async (req: ApiRequest, info: RequestInfo, query: URLSearchParams, reg: RegistryContext): Promise<ApiResponse> => {
    const backend = info.group ? deps.aggregated?.().find((a) => a.group === info.group) : undefined;
    if (backend) return backend.handle(req, info, query);
    const r = deps.reg.catalog.lookup(info.group, info.version, info.resource);
    if (!r) throw pathNotFound();
    // Scope: namespaced resources need a namespace except for list/watch/deletecollection across all.
    if (!r.info.namespaced && info.namespace && info.resource !== 'namespaces') throw pathNotFound();
    if (r.info.namespaced && !info.namespace && info.name) throw pathNotFound();
    // The all-namespaces path of a namespaced resource serves only list and watch.
    if (r.info.namespaced && !info.namespace && !['list', 'watch'].includes(info.verb)) throw methodNotAllowed();
    let verbs = r.info.verbs;
    if (info.subresource) {
      const sub = r.info.subresources.find((s) => s.name === info.subresource);
      // Only proxy takes a path after the subresource (the path to ask the target for).
      if (!sub || (info.parts.length > 3 && info.subresource !== 'proxy')) throw pathNotFound();
      verbs = sub.verbs;
    } else if (info.parts.length > 3) {
      throw pathNotFound();
    }
    const verb = info.verb === 'watch' && info.name ? 'watch' : info.verb;
    if (!verbs.includes(verb) && !answersOwnWatch(r, info)) throw methodNotAllowed();
    // Routes: PUT/PATCH need a name; POST goes to the collection (or to a named subresource).
    if ((verb === 'update' || verb === 'patch') && !info.name) throw methodNotAllowed();
    if (verb === 'create' && info.name && !info.subresource && !r.info.virtual) throw methodNotAllowed();
    const rc: RequestContext = { req, info, query, r, reg, warnings: [] };
    const deprecated = deprecationOf(r.info);
    if (deprecated) rc.warnings.push(deprecated.warning);
    const out = negotiateOutput(req, query, r, info);
    if (!out) {
      const types = r.info.custom ? 'application/json, application/yaml' : 'application/json, application/yaml, application/vnd.kubernetes.protobuf';
      throw notAcceptable(`only the following media types are accepted: ${types}`);
    }
    try {
      return await serveVerb(rc, out);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // Errors come back in the format the client negotiated (YAML for a YAML client).
      const res = errorToResponse(err, out.kind === 'yaml' || out.kind === 'protobuf' ? out : { kind: 'json', pretty: out.pretty });
      // The request's warnings so far (deprecated version, unknown fields, admission) go with the
      // error too, as kube's warning recorder writes them whatever the outcome.
      if (rc.warnings.length && !res.headers['Warning']) {
        const value = warningHeaderValue(rc.warnings);
        if (value !== undefined) res.headers['Warning'] = value;
      }
      return res;
    }
  };

  /** A subresource that only takes a POST of a kind of its own (pods/binding and eviction, serviceaccounts/token): the create handlers'. */
  const takesOnlyAnotherKind = (rc: RequestContext): boolean => {
    const sub = rc.r.info.subresources.find((s) => s.name === rc.info.subresource);
    return sub !== undefined && sub.kind !== rc.r.info.kind && sub.verbs.length === 1 && sub.verbs[0] === 'create';
  };

  const serveVerb = (rc: RequestContext, out: OutputFormat): Promise<ApiResponse> => {
    const { info } = rc;
    if (rc.r.info.virtual) return handleVirtualCreate(rc, out);
    if (rc.r.spec?.createsThrough) return handleCreateThrough(rc, out, rc.r.spec.createsThrough);
    if (isComponentStatuses(rc.r)) return Promise.resolve(handleComponentStatuses(rc, out));
    const view = subresourceView(rc.r, info.subresource);
    if (view && info.verb === 'get') return handleViewGet(rc, out, view);
    // A subresource that is the object itself (status, finalize, approval, ephemeralcontainers) is
    // served by the verbs below through its write adapter (registry/subresource-write.ts).
    if (info.subresource && !view && !servesObjectItself(rc.r, info.subresource)) {
      if (takesOnlyAnotherKind(rc)) return handleVirtualCreate(rc, out);
      if (rc.r.info.group === '' && rc.r.info.resource === 'pods' && POD_CONNECT_SUBRESOURCES.has(info.subresource)) return handlePodConnect(rc);
      if (isProxy(rc)) return handleProxy(rc);
      throw methodNotAllowed();
    }
    switch (info.verb) {
      case 'get':
        return handleGet(rc, out);
      case 'list':
        return handleList(rc, out);
      case 'watch':
        return handleWatch(rc, out, deps.watch, deps.activeWatches);
      case 'create':
        return handleCreate(rc, out);
      case 'update':
        return handleUpdate(rc, out);
      case 'patch':
        return handlePatch(rc, out);
      case 'delete':
        return handleDelete(rc, out);
      case 'deletecollection':
        return handleDeleteCollection(rc, out);
      default:
        throw methodNotAllowed();
    }
  };

  return async (req: ApiRequest): Promise<ApiResponse> => {
    const { path, query, info } = parseRequest(req);
    try {
      if (req.body && req.body.length > MAX_REQUEST_BYTES) throw requestEntityTooLarge(`Request entity too large: limit is ${MAX_REQUEST_BYTES}`);
      // Access control runs before routing, as kube's filters do: a 403 comes before a 404.
      const reg = deps.access ? deps.access.admit(req, info, deps.reg) : deps.reg;
      // Access control notes the user (and an impersonating requester) itself; the open default does not.
      if (!userOfRequest(req)) noteRequestUser(req, requestUser(reg));
      const res = info.isResourceRequest ? await resource(req, info, query, reg) : await nonResource(req, info, query);
      // APF classifies after authentication and impersonation, whatever the outcome afterwards.
      deps.flowControl?.stamp(userOfRequest(req), info, res);
      if (req.method === 'HEAD') return { ...res, body: undefined };
      return res;
    } catch (err) {
      if (!(err instanceof ApiError)) console.error('internal error serving', req.method, req.url, err);
      // A Status is pretty-printed for curl, Wget and browsers as objects are.
      const res = errorToResponse(err, { kind: 'json', pretty: isPrettyPrint(req, query) });
      // A request refused by authorization was classified first; one that failed authentication
      // or impersonation never got that far (no user noted).
      deps.flowControl?.stamp(userOfRequest(req), info, res);
      return res;
    }
  };
}
