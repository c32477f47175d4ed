// Wraps the dispatcher the way kube-apiserver's filters wrap its handlers: every request is
// timed and counted (metrics.ts), recorded in the audit log (audit.ts), and a request to a
// deprecated version sets the deprecated-API gauge and audit annotations (deprecation.ts).
// Watches stay open: their stream is wrapped to count events and long-running requests.
import { requesterOfRequest, userOfRequest } from '../auth/request-user';
import type { UserInfo } from '../auth/rbac/types';
import { isStream, type ApiRequest, type ApiResponse, type ApiStream, type StreamSink } from '../meta/types';
import { parseRequest } from '../meta/requestinfo';
import type { Catalog } from '../registry/catalog';
import { deprecationOf } from './deprecation';
import { ApiMetrics, requestLabels } from './metrics';
import { recordedAuditAnnotations } from '../registry/admission-attributes';
import { AuditLog, DEFAULT_AUDIT_USER, objectRefOf, responseStatusOf, type AuditEvent, type AuditUser } from './audit';
import { newUuid } from '../registry/uuid';
import type { StorageObserver } from '../storage/instrumented-store';
import { storageTypeNames } from './storage-types';

export interface ObserveDeps {
  catalog: Catalog;
  metrics: ApiMetrics;
  audit: AuditLog;
  /** Who made the request (audit's user); the admin when absent. */
  userOf?: (req: ApiRequest) => AuditUser;
  /** The authenticated user behind an impersonating request; absent without impersonation. */
  requesterOf?: (req: ApiRequest) => AuditUser | undefined;
  now?: () => number;
}

type Handle = (req: ApiRequest) => Promise<ApiResponse>;

export function observeRequests(handle: Handle, deps: ObserveDeps): Handle {
  const now = deps.now ?? (() => Date.now());
  return async (req) => {
    const received = now();
    const { path, query, info } = parseRequest(req);
    const r = info.isResourceRequest ? deps.catalog.lookup(info.group, info.version, info.resource) : undefined;
    const deprecated = r ? deprecationOf(r.info) : undefined;
    const labels = r ? requestLabels(info, req.headers['content-type'], query.getAll('dryRun').includes('All')) : undefined;
    if (deprecated) deps.metrics.requestedDeprecated(info, deprecated.removedRelease);

    const res = await handle(req);

    if (labels) deps.metrics.observeRequest(labels, res.status, (now() - received) / 1000);
    const auditID = res.headers['Audit-Id'] ?? newUuid();
    const acting = deps.userOf?.(req) ?? DEFAULT_AUDIT_USER;
    const requester = deps.requesterOf?.(req);
    const user = requester ?? acting;
    const userAgent = req.headers['user-agent'];
    const objectRef = objectRefOf(info);
    const admission = recordedAuditAnnotations(req);
    // CRD versions have no removal release: kube then leaves the annotation out.
    const deprecation = deprecated ? (deprecated.removedRelease ? { 'k8s.io/deprecated': 'true', 'k8s.io/removed-release': deprecated.removedRelease } : { 'k8s.io/deprecated': 'true' }) : undefined;
    const annotations = admission ? { ...deprecation, ...admission } : deprecation;
    const responseStatus = responseStatusOf(res.status, res.body);
    const parts: EventParts = { req, verb: info.verb, auditID, user, acting: requester ? acting : undefined, userAgent, objectRef, responseStatus, received, annotations };
    if (!isStream(res.body)) {
      deps.audit.record(auditEvent(parts, 'ResponseComplete', now()));
      return res;
    }
    deps.audit.record(auditEvent(parts, 'ResponseStarted', now()));
    const kind = r?.info.kind ?? '';
    const apiVersion = r?.apiVersion ?? '';
    const body = observeStream(res.body, {
      opened: () => labels && deps.metrics.longrunningChanged(labels, 1),
      wrote: () => deps.metrics.watchEventSent(apiVersion, kind),
      closed: () => {
        if (labels) deps.metrics.longrunningChanged(labels, -1);
        deps.audit.record(auditEvent(parts, 'ResponseComplete', now()));
      },
    });
    return { ...res, body };
  };
}

/** What a request's audit events are made of. */
interface EventParts {
  req: ApiRequest;
  verb: string;
  auditID: string;
  user: AuditUser;
  /** The impersonated user, when the request impersonates. */
  acting: AuditUser | undefined;
  userAgent: string | undefined;
  objectRef: AuditEvent['objectRef'] | undefined;
  responseStatus: AuditEvent['responseStatus'];
  received: number;
  annotations: Record<string, string> | undefined;
}

/**
 * One audit event. Keys in the Go struct's order, so JSON lines read like kube's (optional ones
 * assigned in place rather than spread in: no temporary objects per request). A module function
 * rather than a closure per request (the Node host's tsx names each closure as it is created).
 */
function auditEvent(p: EventParts, stage: AuditEvent['stage'], stageTimestamp: number): AuditEvent {
  const e = { kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID: p.auditID, stage, requestURI: p.req.url, verb: p.verb, user: p.user } as AuditEvent;
  if (p.acting) e.impersonatedUser = p.acting;
  e.sourceIPs = sourceIPs(p.req);
  if (p.userAgent) e.userAgent = p.userAgent;
  if (p.objectRef) e.objectRef = p.objectRef;
  e.responseStatus = p.responseStatus;
  // Epoch ms here; the log turns them into MicroTime strings when the event is read.
  e.requestReceivedTimestamp = p.received as unknown as string;
  e.stageTimestamp = stageTimestamp as unknown as string;
  if (p.annotations) e.annotations = p.annotations;
  return e;
}

/** The client address the host put in X-Forwarded-For (the hosts are local), else loopback. */
function sourceIPs(req: ApiRequest): string[] {
  const forwarded = req.headers['x-forwarded-for'];
  if (forwarded) return forwarded.split(',').map((s) => s.trim()).filter(Boolean);
  return ['127.0.0.1'];
}

interface StreamHooks {
  opened(): void;
  wrote(): void;
  closed(): void;
}

/** The same stream, reporting when it opens, each chunk (one watch event) and when it ends. */
function observeStream(inner: ApiStream, hooks: StreamHooks): ApiStream {
  let open = false;
  const close = () => {
    if (!open) return;
    open = false;
    hooks.closed();
  };
  return {
    kind: 'stream',
    start(sink: StreamSink) {
      open = true;
      hooks.opened();
      inner.start({
        write(chunk) {
          hooks.wrote();
          return sink.write(chunk);
        },
        end() {
          close();
          sink.end();
        },
      });
    },
    cancel() {
      inner.cancel();
      close();
    },
  };
}

/** Metrics and audit of one API server: the /metrics response and the request wrapper. */
export interface Observability {
  metrics: ApiMetrics;
  audit: AuditLog;
  metricsResponse(): ApiResponse;
  /** Records one storage call (etcd_request_duration_seconds). */
  observeStorage: StorageObserver;
  wrap(handle: Handle): Handle;
}

interface StorageView {
  count(prefix: string): number;
  storageSizes?(): Array<{ endpoint: string; bytes: number }>;
}

export function createObservability(catalog: Catalog, store: StorageView, auditCapacity?: number): Observability {
  // apiserver_storage_objects: one series per storage key space (`deployments.apps`, `pods`).
  const objectCounts = () => {
    const seen = new Map<string, string>();
    for (const r of catalog.servedResources()) {
      if (r.info.virtual || seen.has(r.keyPrefix)) continue;
      const group = r.keyPrefix.split('/')[1];
      seen.set(r.keyPrefix, group === 'core' ? r.info.resource : `${r.info.resource}.${group}`);
    }
    return [...seen].map(([prefix, resource]) => ({ resource, count: store.count(prefix) }));
  };
  const metrics = new ApiMetrics({ objectCounts, dbSizes: store.storageSizes && (() => store.storageSizes!()) });
  const typeOf = storageTypeNames(catalog);
  const audit = new AuditLog(auditCapacity);
  return {
    metrics,
    audit,
    observeStorage: (operation, key, seconds) => {
      const type = typeOf(key, operation === 'list');
      if (type) metrics.observeStorage(operation, type, seconds);
    },
    metricsResponse: () => ({ status: 200, headers: { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' }, body: metrics.render() }),
    wrap: (handle) => observeRequests(handle, { catalog, metrics, audit, userOf: (req) => auditUser(userOfRequest(req)), requesterOf: (req) => requesterAuditUser(req) }),
  };
}

function requesterAuditUser(req: ApiRequest): AuditUser | undefined {
  const requester = requesterOfRequest(req);
  return requester ? auditUser(requester) : undefined;
}

/** Audit users per user object: the same requester (the default admin, a token's user) maps once. */
const auditUsers = new WeakMap<UserInfo, AuditUser>();

function auditUser(user: UserInfo | undefined): AuditUser {
  if (!user) return DEFAULT_AUDIT_USER;
  let out = auditUsers.get(user);
  if (!out) {
    out = { username: user.username, groups: user.groups };
    if (user.uid) out.uid = user.uid;
    auditUsers.set(user, out);
  }
  return out;
}
