// Writing responses: objects, lists and Status errors in the negotiated format. JSON bodies end
// with a newline, as Go's json.Encoder writes them; objects read from storage are sent as their
// stored text with kind/apiVersion prepended, never re-serialised.
import type { ApiResponse } from '../meta/types';
import { ApiError } from '../meta/status';
import { objectText, withTypeMeta, type Obj } from '../registry/objects';
import { newUuid } from '../registry/uuid';
import type { ServedResource } from '../registry/catalog';
import { servedText } from '../registry/conversion';
import { buildTable, toPartialObjectMetadata } from '../codec/table';
import { toYaml } from '../codec/yaml';
import type { OutputFormat } from '../meta/output';
import { encodeProtobufObject, hasProtobufForm } from '../codec/protobuf';
import { warningHeaderValue } from './warning-header';
import { indentJson } from './pretty';
import { assignOwn, setOwnKey } from '../codec/own-keys';

export const JSON_TYPE = 'application/json';

export function baseHeaders(contentType: string, warnings?: string[]): Record<string, string> {
  const h: Record<string, string> = { 'Audit-Id': newUuid(), 'Cache-Control': 'no-cache, private', 'Content-Type': contentType };
  if (warnings && warnings.length) {
    const value = warningHeaderValue(warnings);
    if (value !== undefined) h['Warning'] = value;
  }
  return h;
}

export function jsonResponse(status: number, body: string, warnings?: string[], contentType = JSON_TYPE): ApiResponse {
  return { status, headers: baseHeaders(contentType, warnings), body: body + '\n' };
}

/** Pretty JSON (json.MarshalIndent) has no trailing newline, unlike the compact encoder's output. */
export function prettyResponse(status: number, body: string, warnings?: string[], contentType = JSON_TYPE): ApiResponse {
  return { status, headers: baseHeaders(contentType, warnings), body };
}

export const PROTOBUF_TYPE = 'application/vnd.kubernetes.protobuf';

/** A value in protobuf when it has a protobuf form; JSON otherwise (as kube falls back for such types). */
function protobufResponse(status: number, value: Obj, warnings?: string[]): ApiResponse {
  if (!hasProtobufForm(String(value.apiVersion ?? ''), String(value.kind ?? ''))) return jsonResponse(status, JSON.stringify(value), warnings);
  return { status, headers: baseHeaders(PROTOBUF_TYPE, warnings), body: encodeProtobufObject(value) };
}

/**
 * Go's net/http answer to a request target it cannot parse (an invalid `%` escape in the path):
 * written by the HTTP server before any of kube's handlers run (no audit, no metrics, none of the
 * API's headers), and the connection closed after it.
 */
export function badRequestTarget(): ApiResponse {
  return { status: 400, headers: { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' }, body: '400 Bad Request' };
}

export function errorResponse(err: ApiError, out?: OutputFormat): ApiResponse {
  const status = err.toStatus();
  if (out?.kind === 'protobuf') {
    const res = protobufResponse(err.code, status as unknown as Obj);
    if (err.headers) Object.assign(res.headers, err.headers);
    return res;
  }
  const res =
    out?.kind === 'yaml'
      ? { status: err.code, headers: baseHeaders('application/yaml'), body: toYaml(status) }
      : out?.pretty
        ? prettyResponse(err.code, JSON.stringify(status, null, 2))
        : jsonResponse(err.code, JSON.stringify(status));
  if (err.headers) Object.assign(res.headers, err.headers);
  return res;
}

function prettyJson(text: string): string {
  return indentJson(text);
}

/**
 * A single object: `text` is stored text (storage version, no kind/apiVersion) when available,
 * converted to the served version here; else obj (already at the served version) is serialised.
 */
export function objectResponse(status: number, r: ServedResource, obj: Obj | undefined, storedText: string | undefined, out: OutputFormat, warnings: string[], now: number): ApiResponse {
  const { kind } = r.info;
  const text = storedText === undefined ? undefined : servedText(r, storedText);
  // An object that was not stored (a dry run) answers as stored text would: Go leaves empty
  // metadata maps and lists out (a patch's `annotations: {}` is not in the answer).
  if (text === undefined && obj?.metadata) obj = { ...obj, metadata: withoutEmptyCollections(obj.metadata) };
  switch (out.kind) {
    case 'table': {
      const table = buildTable(r.spec?.printer, [fullObject(obj, text, r)], { resourceVersion: '' }, { includeObject: out.includeObject ?? 'Metadata', apiVersion: `meta.k8s.io/${out.version ?? 'v1'}`, now }, out.columns);
      return encodeValue(status, table, out, warnings);
    }
    case 'pom':
      return encodeValue(status, toPartialObjectMetadata(fullObject(obj, text, r), `meta.k8s.io/${out.version ?? 'v1'}`), out, warnings);
    case 'yaml':
      return { status, headers: baseHeaders('application/yaml', warnings), body: toYaml(fullObject(obj, text, r)) };
    case 'protobuf':
      return protobufResponse(status, fullObject(obj, text, r), warnings);
    default: {
      // An object not read from storage is written as stored text would be (Go's order and zero
      // values, a custom object's sorted keys).
      const body = text !== undefined ? withTypeMeta(text, kind, r.apiVersion) : obj?.kind && obj.apiVersion ? objectText(obj) : JSON.stringify(orderTop(obj as Obj));
      if (out.pretty) return prettyResponse(status, prettyJson(body), warnings, out.contentType);
      return jsonResponse(status, body, warnings);
    }
  }
}

/** The whole object for the encodings that need one: the given object, else the served text parsed. */
function fullObject(obj: Obj | undefined, text: string | undefined, r: ServedResource): Obj {
  return obj ?? JSON.parse(withTypeMeta(text as string, r.info.kind, r.apiVersion));
}

/** The object without its empty maps and lists (a zero value such as `creationTimestamp: null` stays). */
function withoutEmptyCollections(meta: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(meta)) {
    if (v !== null && typeof v === 'object' && Object.keys(v).length === 0) continue;
    setOwnKey(out, k, v);
  }
  return out;
}

/** kind, apiVersion, metadata first, as Go structs serialise. */
export function orderTop(obj: Obj): Obj {
  const { kind, apiVersion, metadata, ...rest } = obj;
  const out: Obj = {};
  if (kind !== undefined) out.kind = kind;
  if (apiVersion !== undefined) out.apiVersion = apiVersion;
  if (metadata !== undefined) out.metadata = metadata;
  return assignOwn(out, rest);
}

/** Any value (Table, Status, Scale, review) in JSON or YAML. */
export function encodeValue(status: number, value: unknown, out: OutputFormat | undefined, warnings?: string[]): ApiResponse {
  if (out?.kind === 'yaml') return { status, headers: baseHeaders('application/yaml', warnings), body: toYaml(value) };
  if (out?.kind === 'protobuf' || out?.protobuf) return protobufResponse(status, value as Obj, warnings);
  if (out?.pretty) return prettyResponse(status, JSON.stringify(value, null, 2), warnings, out.contentType);
  return jsonResponse(status, JSON.stringify(value), warnings, out?.contentType);
}

export function errorToResponse(err: unknown, out?: OutputFormat): ApiResponse {
  if (err instanceof ApiError) return errorResponse(err, out);
  const message = err instanceof Error ? err.message : String(err);
  return errorResponse(new ApiError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] }), out);
}
