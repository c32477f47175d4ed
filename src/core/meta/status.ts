// Status errors exactly as kube-apiserver writes them (k8s.io/apimachinery/pkg/api/errors).
// Handlers throw ApiError; the dispatcher turns it into a Status body with the same code.

/** A field-level validation error (k8s.io/apimachinery/pkg/util/validation/field.Error). */
export interface FieldError {
  type:
    | 'FieldValueRequired'
    | 'FieldValueInvalid'
    | 'FieldValueNotSupported'
    | 'FieldValueDuplicate'
    | 'FieldValueForbidden'
    | 'FieldValueTooLong'
    | 'FieldValueTooMany'
    | 'FieldValueTypeInvalid'
    | 'FieldValueNotFound'
    | 'InternalError';
  /** Path such as `spec.containers[0].image` or `metadata.labels[app]`. */
  field: string;
  /** The offending value (printed for Invalid, NotSupported, Duplicate, NotFound, TypeInvalid). */
  value?: unknown;
  /** The value already rendered as Go prints it (e.g. `0x0`), when formatFieldValue would differ. */
  valueText?: string;
  detail?: string;
  /** Supported values, for NotSupported. */
  supported?: string[];
}

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

export class ApiError extends Error {
  /** Extra response headers (Retry-After for 429/504). */
  headers?: Record<string, string>;
  /** Status.metadata (ListMeta): an expired continue carries a fresh token here. */
  statusMetadata?: Record<string, unknown>;
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
  }

  toStatus(): Status {
    // Field order as kube-apiserver writes it: ..., message, reason, details, code.
    const s = { kind: 'Status', apiVersion: 'v1', metadata: this.statusMetadata ?? {}, status: 'Failure', message: this.message } as Status;
    // An error that is not an API status (e.g. a storage precondition) has no reason, as in Go.
    if (this.reason) s.reason = this.reason;
    if (this.details) s.details = this.details;
    s.code = this.code;
    return s;
  }
}

/** `configmaps` for the core group, `deployments.apps` otherwise. */
export function qualifiedResource(group: string, resource: string): string {
  return group ? `${resource}.${group}` : resource;
}

function details(group: string, resource: string, name: string): StatusDetails {
  // Empty fields are omitted, as Go's omitempty does.
  const d: StatusDetails = name ? { name } : {};
  if (group) d.group = group;
  d.kind = resource;
  return d;
}

export function notFound(group: string, resource: string, name: string): ApiError {
  return new ApiError(404, 'NotFound', `${qualifiedResource(group, resource)} "${name}" not found`, details(group, resource, name));
}

export function alreadyExists(group: string, resource: string, name: string): ApiError {
  return new ApiError(409, 'AlreadyExists', `${qualifiedResource(group, resource)} "${name}" already exists`, details(group, resource, name));
}

export function conflict(group: string, resource: string, name: string, why: string): ApiError {
  return new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(group, resource)} "${name}": ${why}`, details(group, resource, name));
}

export const OPTIMISTIC_LOCK_MESSAGE = 'the object has been modified; please apply your changes to the latest version and try again';

export function badRequest(message: string, extra?: StatusDetails): ApiError {
  return new ApiError(400, 'BadRequest', message, extra);
}

export function forbidden(group: string, resource: string, name: string, why: string): ApiError {
  const what = name ? `${qualifiedResource(group, resource)} "${name}"` : qualifiedResource(group, resource);
  return new ApiError(403, 'Forbidden', `${what} is forbidden: ${why}`, details(group, resource, name));
}

export function methodNotAllowed(message = 'the server does not allow this method on the requested resource'): ApiError {
  return new ApiError(405, 'MethodNotAllowed', message, {});
}

export function notAcceptable(message: string): ApiError {
  return new ApiError(406, 'NotAcceptable', message);
}

export function unsupportedMediaType(message: string): ApiError {
  return new ApiError(415, 'UnsupportedMediaType', message);
}

export function gone(message: string): ApiError {
  return new ApiError(410, 'Gone', message);
}

export function expired(message: string): ApiError {
  return new ApiError(410, 'Expired', message);
}

export function requestEntityTooLarge(message: string): ApiError {
  return new ApiError(413, 'RequestEntityTooLarge', message);
}

export function internalError(message: string): ApiError {
  return new ApiError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
}

export function serviceUnavailable(message: string): ApiError {
  return new ApiError(503, 'ServiceUnavailable', message);
}

export function timeoutError(message: string, retryAfterSeconds: number, causes?: StatusCause[]): ApiError {
  const e = new ApiError(504, 'Timeout', message, causes ? { causes, retryAfterSeconds } : { retryAfterSeconds });
  e.headers = { 'Retry-After': String(retryAfterSeconds) };
  return e;
}

/** A generic 404 for paths that name no resource (`the server could not find the requested resource`). */
export function pathNotFound(): ApiError {
  return new ApiError(404, 'NotFound', 'the server could not find the requested resource', {});
}

/** Go's %q-ish rendering of a value as field.Error prints it. */
export function formatFieldValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]${typeof v[0] === 'string' ? 'string' : 'interface {}'}{${v.map((x) => formatFieldValue(x)).join(', ')}}`;
  return JSON.stringify(v);
}

/** The text after `<field>: ` in a field error (field.Error.ErrorBody). */
export function fieldErrorBody(e: FieldError): string {
  let s: string;
  switch (e.type) {
    case 'FieldValueRequired':
      s = 'Required value';
      break;
    case 'FieldValueForbidden':
      s = 'Forbidden';
      break;
    case 'FieldValueTooLong':
      s = 'Too long';
      break;
    case 'FieldValueTooMany':
      s = 'Too many';
      break;
    case 'InternalError':
      s = 'Internal error';
      break;
    case 'FieldValueInvalid':
      s = `Invalid value: ${e.valueText ?? formatFieldValue(e.value)}`;
      break;
    case 'FieldValueNotSupported':
      s = `Unsupported value: ${e.valueText ?? formatFieldValue(e.value)}`;
      if (e.supported && e.supported.length) s += `: supported values: ${e.supported.map((x) => JSON.stringify(x)).join(', ')}`;
      break;
    case 'FieldValueDuplicate':
      s = `Duplicate value: ${e.valueText ?? formatFieldValue(e.value)}`;
      break;
    case 'FieldValueNotFound':
      s = `Not found: ${e.valueText ?? formatFieldValue(e.value)}`;
      break;
    case 'FieldValueTypeInvalid':
      s = `Invalid value: ${e.valueText ?? formatFieldValue(e.value)}`;
      break;
  }
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

/** 422 Invalid with causes, worded as kube-apiserver (`ConfigMap "x" is invalid: [a: ..., b: ...]`). */
export function invalid(group: string, kind: string, name: string, errs: FieldError[]): ApiError {
  // field.ErrorList.ToAggregate drops repeated messages (the causes keep every error).
  const msgs = [...new Set(errs.map((e) => (e.field ? `${e.field}: ${fieldErrorBody(e)}` : fieldErrorBody(e))))];
  const agg = msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`;
  const what = group ? `${kind}.${group}` : kind;
  // StatusDetails' name, group and kind are omitempty in kube.
  const d: StatusDetails = {};
  if (name) d.name = name;
  if (group) d.group = group;
  if (kind) d.kind = kind;
  d.causes = errs.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field }));
  return new ApiError(422, 'Invalid', `${what} "${name}" is invalid: ${agg}`, d);
}

export function statusBody(err: ApiError): string {
  return JSON.stringify(err.toStatus());
}
