// AdmissionReview v1: the request body sent to a webhook, the checks on its answer (as
// k8s.io/apiserver's webhook/request VerifyAdmissionResponse words them), and the Status a
// rejection becomes (webhook/errors ToStatusErr).
import { ApiError } from '../../meta/status';
import type { Obj } from '../../registry/objects';
import type { AdmissionAttributes } from '../../registry/admission-attributes';
import { setOwnKey } from '../../codec/own-keys';

import type { GVK } from '../../registry/admission-view';

export type { GVK };
export interface GVR {
  group: string;
  version: string;
  resource: string;
}

export interface ReviewInput {
  uid: string;
  /** The kind/resource the webhook sees (after matchPolicy Equivalent conversion). */
  kind: GVK;
  resource: GVR;
  /** What the client asked for. */
  requestKind: GVK;
  requestResource: GVR;
  name: string;
  namespace: string;
  attrs: AdmissionAttributes;
  object: Obj | null;
  oldObject: Obj | null;
}

/** The AdmissionReview JSON text, fields in the Go struct's order. */
export function reviewRequestBody(i: ReviewInput): string {
  const request: Obj = { uid: i.uid, kind: i.kind, resource: i.resource };
  if (i.attrs.subresource) request.subResource = i.attrs.subresource;
  request.requestKind = i.requestKind;
  request.requestResource = i.requestResource;
  if (i.attrs.subresource) request.requestSubResource = i.attrs.subresource;
  if (i.name) request.name = i.name;
  if (i.namespace) request.namespace = i.namespace;
  request.operation = i.attrs.operation;
  const u = i.attrs.user;
  request.userInfo = { username: u.username, ...(u.uid ? { uid: u.uid } : {}), ...(u.groups.length ? { groups: u.groups } : {}), ...(u.extra && Object.keys(u.extra).length ? { extra: u.extra } : {}) };
  request.object = i.object;
  request.oldObject = i.oldObject;
  request.dryRun = i.attrs.dryRun;
  request.options = i.attrs.options;
  return JSON.stringify({ kind: 'AdmissionReview', apiVersion: 'admission.k8s.io/v1', request });
}

export interface ReviewResult {
  allowed: boolean;
  status?: Obj;
  /** Decoded JSON patch operations (mutating webhooks only). */
  patch?: unknown[];
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

/** Thrown for an answer kube would not accept; the caller wraps it as a call failure. */
export class InvalidResponse extends Error {}

function decodePatch(b64: string): unknown[] {
  let text: string;
  try {
    text = new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  } catch {
    throw new InvalidResponse('illegal base64 data in response.patch');
  }
  let ops: unknown;
  try {
    ops = JSON.parse(text);
  } catch (err) {
    throw new InvalidResponse(`cannot decode the JSON patch: ${(err as Error).message}`);
  }
  if (!Array.isArray(ops)) throw new InvalidResponse('the JSON patch is not a list of operations');
  return ops;
}

/** Checks an AdmissionReview answer against the request's uid. */
export function verifyReviewResponse(bodyText: string, uid: string, mutating: boolean): ReviewResult {
  let review: Obj;
  try {
    review = JSON.parse(bodyText) as Obj;
  } catch (err) {
    throw new InvalidResponse(`cannot decode the webhook response: ${(err as Error).message}`);
  }
  if (review?.apiVersion !== 'admission.k8s.io/v1' || review?.kind !== 'AdmissionReview') {
    throw new InvalidResponse(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${review?.apiVersion ?? ''}, Kind=${review?.kind ?? ''}`);
  }
  const res = review.response as Obj | undefined;
  if (!res || typeof res !== 'object') throw new InvalidResponse('webhook response was absent');
  if (res.uid !== uid) throw new InvalidResponse(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(res.uid ?? '')}`);
  const hasPatch = typeof res.patch === 'string' && res.patch.length > 0;
  const hasType = typeof res.patchType === 'string' && res.patchType.length > 0;
  let patch: unknown[] | undefined;
  if (mutating) {
    if (hasPatch && !hasType) throw new InvalidResponse('webhook returned response.patch but not response.patchType');
    if (hasType && !hasPatch) throw new InvalidResponse('webhook returned response.patchType but not response.patch');
    if (hasType && res.patchType !== 'JSONPatch') throw new InvalidResponse(`webhook returned invalid response.patchType of ${JSON.stringify(res.patchType)}`);
    if (hasPatch) patch = decodePatch(res.patch);
  } else if (hasPatch || hasType) {
    throw new InvalidResponse('validating webhooks may not return patches');
  }
  const annotations: Record<string, string> = {};
  for (const [k, v] of Object.entries((res.auditAnnotations ?? {}) as Obj)) if (typeof v === 'string') setOwnKey(annotations, k, v);
  return {
    allowed: res.allowed === true,
    status: res.status && typeof res.status === 'object' ? (res.status as Obj) : undefined,
    patch,
    warnings: Array.isArray(res.warnings) ? res.warnings.filter((w: unknown): w is string => typeof w === 'string') : [],
    auditAnnotations: annotations,
  };
}

/** A webhook's denial as the client sees it: `admission webhook "<name>" denied the request: <message>`. */
export function rejectionError(webhook: string, status: Obj | undefined): ApiError {
  const deniedBy = `admission webhook ${JSON.stringify(webhook)} denied the request`;
  const s = status ?? {};
  const code = typeof s.code === 'number' && s.code >= 400 ? s.code : 400;
  const message = s.message ? `${deniedBy}: ${s.message}` : s.reason ? `${deniedBy}: ${s.reason}` : `${deniedBy} without explanation`;
  return new ApiError(code, typeof s.reason === 'string' ? s.reason : '', message, s.details && typeof s.details === 'object' ? { ...(s.details as Obj) } : undefined);
}

/** failurePolicy Fail: the call's failure as a 500 InternalError. */
export function callFailedError(webhook: string, reason: string): ApiError {
  const message = `failed calling webhook ${JSON.stringify(webhook)}: ${reason}`;
  return new ApiError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
}

/** A dry-run request reaching a webhook that declares side effects. */
export function dryRunUnsupportedError(webhook: string): ApiError {
  return new ApiError(400, 'BadRequest', `admission webhook ${JSON.stringify(webhook)} does not support dry run`);
}
