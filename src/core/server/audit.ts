// Audit: one audit.k8s.io/v1 Event per request at level Metadata (stage ResponseComplete; a
// long-running request also gets ResponseStarted when its stream opens), kept in a bounded ring
// and pushed to subscribers (the Node host's --audit-log-path writer, the page).
import type { RequestInfo } from '../meta/requestinfo';

export interface AuditUser {
  username: string;
  uid?: string;
  groups: string[];
}

export interface AuditObjectRef {
  resource?: string;
  namespace?: string;
  name?: string;
  apiGroup?: string;
  apiVersion?: string;
  subresource?: string;
}

/** metav1.Status as audit copies it: bounded fields only. */
export interface AuditResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code: number;
}

/** Field order is the Go struct's (audit.k8s.io/v1 Event), so JSON lines read like kube's. */
export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: 'Metadata';
  auditID: string;
  stage: 'ResponseStarted' | 'ResponseComplete';
  requestURI: string;
  verb: string;
  user: AuditUser;
  /** Set when the request impersonated someone; `user` is then the authenticated requester. */
  impersonatedUser?: AuditUser;
  sourceIPs: string[];
  userAgent?: string;
  objectRef?: AuditObjectRef;
  responseStatus?: AuditResponseStatus;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/** The default caller when the host authenticates nobody: the playground's admin. */
export const DEFAULT_AUDIT_USER: AuditUser = { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };

/** RFC 3339 with microseconds (metav1.MicroTime). */
/**
 * Events may be recorded with their timestamps as epoch milliseconds (formatting two
 * timestamps per request is a measurable share of a GET); they become MicroTime strings the
 * first time anyone reads the event.
 */
function stampTimes(e: AuditEvent): void {
  const t = e as unknown as { requestReceivedTimestamp: string | number; stageTimestamp: string | number };
  if (typeof t.requestReceivedTimestamp === 'number') t.requestReceivedTimestamp = microTime(t.requestReceivedTimestamp);
  if (typeof t.stageTimestamp === 'number') t.stageTimestamp = microTime(t.stageTimestamp);
}

export function microTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 23) + '000Z';
}

/** objectRef as kube fills it from the request info (empty fields omitted). */
export function objectRefOf(info: RequestInfo): AuditObjectRef | undefined {
  if (!info.isResourceRequest) return undefined;
  const ref: AuditObjectRef = {};
  if (info.resource) ref.resource = info.resource;
  if (info.namespace) ref.namespace = info.namespace;
  if (info.name) ref.name = info.name;
  if (info.group) ref.apiGroup = info.group;
  if (info.version) ref.apiVersion = info.version;
  if (info.subresource) ref.subresource = info.subresource;
  return ref;
}

/** responseStatus from the response code and, for errors, the Status body. */
export function responseStatusOf(code: number, body: unknown): AuditResponseStatus {
  const status: AuditResponseStatus = { metadata: {}, code };
  if (code < 300 || typeof body !== 'string') return status;
  try {
    const s = JSON.parse(body) as Record<string, unknown>;
    if (s.kind !== 'Status') return status;
    if (typeof s.status === 'string') status.status = s.status;
    if (typeof s.message === 'string') status.message = s.message;
    if (typeof s.reason === 'string') status.reason = s.reason;
    if (s.details !== undefined) status.details = s.details;
  } catch {
    // Not JSON (YAML or protobuf errors): the code alone.
  }
  // Keep Go's field order: code comes last.
  const { code: c, ...rest } = status;
  return { ...rest, code: c };
}

export type AuditListener = (event: AuditEvent) => void;

/** The most recent audit events (oldest dropped first) and live subscribers. */
export class AuditLog {
  /** A circular buffer: recording is O(1) on every request, whatever the capacity. */
  private ring: AuditEvent[] = [];
  private next = 0;
  private listeners = new Set<AuditListener>();

  constructor(readonly capacity = 1000) {}

  record(event: AuditEvent): void {
    if (this.ring.length < this.capacity) this.ring.push(event);
    else this.ring[this.next] = event;
    this.next = (this.next + 1) % this.capacity;
    if (this.listeners.size) stampTimes(event);
    for (const l of this.listeners) {
      try {
        l(event);
      } catch (err) {
        console.error('audit listener failed:', err);
      }
    }
  }

  /** Copies of the kept events, oldest first. */
  events(): AuditEvent[] {
    const all = this.ring.length < this.capacity ? [...this.ring] : [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
    for (const e of all) stampTimes(e);
    return all;
  }

  subscribe(listener: AuditListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
