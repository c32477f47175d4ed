// Admission attributes (k8s.io/apiserver/pkg/admission.Attributes): what a write request carries
// into admission beyond the object itself — who asks, the operation, the subresource, dry run,
// the request's options — and the two sinks admission fills: response warnings and audit
// annotations. Handlers build one per write; internal writes (controllers, the namespace
// finalizer) pass none, and admission that needs a caller then does not run.
import type { UserInfo } from '../meta/user-info';
import type { Obj } from './objects';
import { setOwnKey } from '../codec/own-keys';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  operation: AdmissionOperation;
  user: UserInfo;
  /** '' for the main resource. */
  subresource: string;
  dryRun: boolean;
  /** CreateOptions / UpdateOptions / DeleteOptions as AdmissionReview's `options` (kind and apiVersion included). */
  options: Obj;
  /** Texts for `Warning: 299 - "..."` headers (the request's own list). */
  warnings: string[];
  /** Annotations for the request's audit event. */
  auditAnnotations: Record<string, string>;
}

/** Audit annotations per request object, read by the audit filter when the request completes. */
const annotationsByRequest = new WeakMap<object, Record<string, string>>();

/** The (lazily created) audit annotations of a request. */
export function auditAnnotationsOf(req: object): Record<string, string> {
  let a = annotationsByRequest.get(req);
  if (!a) {
    a = {};
    annotationsByRequest.set(req, a);
  }
  return a;
}

/** The annotations admission added to a request, if any (no allocation when there are none). */
export function recordedAuditAnnotations(req: object): Record<string, string> | undefined {
  const a = annotationsByRequest.get(req);
  return a && Object.keys(a).length ? a : undefined;
}

/** The options object of an operation as AdmissionReview sends it. */
export function optionsObject(kind: 'CreateOptions' | 'UpdateOptions' | 'DeleteOptions', fields: Obj): Obj {
  const out: Obj = { kind, apiVersion: 'meta.k8s.io/v1' };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== null && v !== '') setOwnKey(out, k, v);
  return out;
}

/**
 * An admission error carries the request's warnings so far (kube sends Warning headers with
 * error responses too); the handlers only add them to successful responses.
 */
export function withWarnings<E>(err: E, attrs: AdmissionAttributes): E {
  const e = err as { headers?: Record<string, string>; toStatus?: unknown };
  if (attrs.warnings.length && typeof e?.toStatus === 'function') {
    e.headers = { ...e.headers, Warning: attrs.warnings.map((w) => `299 - ${JSON.stringify(w)}`).join(', ') };
  }
  return err;
}
