// Request bodies: JSON (default) or YAML into an object for the resource, with apiVersion/kind
// checks and fieldValidation (Strict/Warn/Ignore) against the kind's schema; DeleteOptions.
import type { RequestContext } from './context';
import { badRequest, unsupportedMediaType } from '../meta/status';
import { decodeErrorMessage, parseJsonBody, bodyText } from '../codec/json';
import { MAX_NESTING } from '../codec/json-scan';
import { parseYaml, yamlDuplicateKeyErrors } from '../codec/yaml';
import { parseContentType, unsupportedMediaTypeMessage } from '../codec/negotiate';
import { applyDirective, checkFields, parseDirective } from '../validation/fieldvalidation/strict';
import type { FieldCheckInput, } from '../validation/fieldvalidation/strict';
import type { FieldValidationDirective, SchemaContext } from '../validation/fieldvalidation/types';
import { customMetadataTypeError, GoTypeChecker } from '../validation/fieldvalidation/go-types';
import { definitions } from '../schema';
import type { Obj } from '../registry/objects';
import { decodeProtobufObject, NoProtobufForm, ProtobufError } from '../codec/protobuf';
import { badRequestInvalid } from './options';
import { subresourceView } from '../registry/subresource-view';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** A `k8s\0` envelope → the object; a broken envelope is a 400 as kube answers it. */
function decodeProtobuf(body: Uint8Array, targetKind: string): { apiVersion: string; kind: string; object: Obj } {
  try {
    const d = decodeProtobufObject(body);
    return { apiVersion: d.apiVersion, kind: d.kind, object: d.object as Obj };
  } catch (err) {
    if (err instanceof ProtobufError || err instanceof NoProtobufForm) throw badRequest(decodeErrorMessage(targetKind, err.message, body));
    throw err;
  }
}

/** The schema a body (or a patch's result) is decoded against, if the resource has one. */
export function schemaContext(rc: RequestContext): SchemaContext | undefined {
  const { info } = rc.r;
  const view = subresourceView(rc.r, rc.info.subresource);
  if (view) return { definitions: definitions as SchemaContext['definitions'], root: view.definition };
  // Other subresource bodies (TokenRequest, Eviction, Binding) are not checked field by field.
  if (rc.info.subresource && rc.info.subresource !== 'status') return undefined;
  if (info.custom) return info.openAPIV3Schema ? { definitions: definitions as SchemaContext['definitions'], root: info.openAPIV3Schema as SchemaContext['root'], custom: true } : undefined;
  if (info.definition && definitions[info.definition]) return { definitions: definitions as SchemaContext['definitions'], root: info.definition };
  return undefined;
}

/** The kind a body must be: the resource's, or the subresource's own (Scale, TokenRequest, Eviction, Binding). */
function targetKind(rc: RequestContext): { kind: string; apiVersion: string } {
  const sub = rc.info.subresource ? rc.r.info.subresources.find((s) => s.name === rc.info.subresource) : undefined;
  if (sub && sub.kind !== rc.r.info.kind) {
    const group = sub.group ?? rc.r.info.group;
    const version = sub.version ?? rc.r.info.version;
    return { kind: sub.kind, apiVersion: group ? `${group}/${version}` : version };
  }
  return { kind: rc.r.info.kind, apiVersion: rc.r.apiVersion };
}

/**
 * The common case, fast: a JSON object body without repeated keys and with string apiVersion/kind
 * parses with JSON.parse. Anything else (syntax errors, duplicate keys, odd type meta) goes
 * through the Go-worded scanner. Duplicates are found by counting members in the text (colons
 * outside strings) against the keys JSON.parse kept.
 */
function fastJson(body: Uint8Array): { value: Obj } | undefined {
  const text = bodyText(body);
  // One pass over the text: members for the duplicate check, and nesting, which past
  // MAX_NESTING is left to the scanner to refuse in Go's words.
  const scan = scanMembers(text);
  if (scan.tooDeep) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const o = value as Obj;
  if ((o.kind !== undefined && typeof o.kind !== 'string') || (o.apiVersion !== undefined && typeof o.apiVersion !== 'string')) return undefined;
  if (typeof o.apiVersion === 'string' && o.apiVersion.split('/').length > 2) return undefined;
  if (scan.members !== keyCount(value)) return undefined;
  return { value: o };
}

/**
 * Members (colons outside strings), and whether brackets nest deeper than MAX_NESTING. A string's
 * contents are skipped with indexOf to its closing quote rather than read character by character:
 * values (a ConfigMap's data, an annotation) are most of a body, and the per-character loop cost
 * as much as JSON.parse itself.
 */
export function scanMembers(text: string): { members: number; tooDeep: boolean } {
  let n = 0;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) i = closingQuote(text, i + 1);
    else if (c === 58) n++;
    else if (c === 91 || c === 123) {
      if (++depth > MAX_NESTING) return { members: n, tooDeep: true };
    } else if (c === 93 || c === 125) depth--;
  }
  return { members: n, tooDeep: false };
}

/**
 * Where the string that starts at `from` ends: the next quote not escaped, i.e. not preceded by an
 * odd run of backslashes (`\\"` ends the string, `\"` does not). An unterminated string runs to
 * the end of the text (JSON.parse refuses it then anyway).
 */
function closingQuote(text: string, from: number): number {
  for (let q = text.indexOf('"', from); q !== -1; q = text.indexOf('"', q + 1)) {
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return q;
  }
  return text.length;
}

function keyCount(v: unknown): number {
  if (!v || typeof v !== 'object') return 0;
  let n = 0;
  if (Array.isArray(v)) {
    for (const x of v) n += keyCount(x);
    return n;
  }
  for (const k in v as Obj) n += 1 + keyCount((v as Obj)[k]);
  return n;
}

/** The request's fieldValidation (Warn by default, decision 0003); an unknown value is a 400. */
export function fieldValidationDirective(rc: RequestContext): FieldValidationDirective {
  const directive = parseDirective(rc.query.get('fieldValidation'));
  if (directive === null) {
    const kind = rc.info.verb === 'create' ? 'CreateOptions' : rc.info.verb === 'update' ? 'UpdateOptions' : 'PatchOptions';
    throw badRequestInvalid(kind, `fieldValidation: Unsupported value: ${JSON.stringify(rc.query.get('fieldValidation'))}: supported values: "", "Ignore", "Strict", "Warn"`, 'FieldValueNotSupported');
  }
  return directive;
}

/** Decode the body of a create/update into a plain object (unknown fields dropped per fieldValidation). */
export function decodeObjectBody(rc: RequestContext): unknown {
  const body = rc.req.body ?? new Uint8Array();
  const ct = parseContentType(rc.req.headers['content-type']);
  const mediaType = ct ? `${ct.type}/${ct.subtype}` : 'application/json';
  const target = targetKind(rc);
  const directive = fieldValidationDirective(rc);
  let input: FieldCheckInput;
  let value: unknown;
  let bodyKind = '';
  let bodyVersion = '';
  if (mediaType === 'application/json') {
    const fast = fastJson(body);
    if (fast) {
      value = fast.value;
      const o = value as Obj;
      bodyKind = typeof o.kind === 'string' ? o.kind : '';
      bodyVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
      input = { value };
    } else {
      const parsed = parseJsonBody(body);
      if (!parsed.ok) throw badRequest(decodeErrorMessage(target.kind, parsed.message, body));
      value = parsed.value;
      bodyKind = parsed.kind;
      bodyVersion = parsed.apiVersion;
      input = { node: parsed.node };
    }
  } else if (mediaType === 'application/yaml') {
    const text = bodyText(body);
    const parsed = parseYaml(text);
    // The YAML serializer fails before any kind is known: transformDecodeError's `unrecognized` form.
    if (!parsed.ok) throw badRequest(decodeErrorMessage(target.kind, parsed.message, body));
    value = parsed.value;
    const o = value as Obj;
    bodyKind = typeof o?.kind === 'string' ? o.kind : '';
    bodyVersion = typeof o?.apiVersion === 'string' ? o.apiVersion : '';
    input = { value, yamlDuplicates: yamlDuplicateKeyErrors(text) };
  } else if (mediaType === PROTOBUF) {
    // Custom resources have no protobuf form.
    if (rc.r.info.custom) throw unsupportedMediaType(unsupportedMediaTypeMessage(['application/json', 'application/yaml']));
    const decoded = decodeProtobuf(body, target.kind);
    value = decoded.object;
    bodyKind = decoded.kind;
    bodyVersion = decoded.apiVersion;
    input = { value };
  } else {
    throw unsupportedMediaType(unsupportedMediaTypeMessage(rc.r.info.custom ? ['application/json', 'application/yaml'] : undefined));
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(decodeErrorMessage(target.kind, 'Object \'Kind\' is missing in \'' + bodyText(body).slice(0, 200) + '\'', body));
  }
  if (bodyVersion && bodyVersion !== target.apiVersion) {
    throw badRequest(`the API version in the data (${bodyVersion}) does not match the expected API version (${target.apiVersion})`);
  }
  if (bodyKind && bodyKind !== target.kind) {
    throw badRequest(decodeErrorMessage(target.kind, `no kind "${bodyKind}" is registered for version "${bodyVersion}"`, body, bodyKind, bodyVersion));
  }
  const ctx = schemaContext(rc);
  // A protobuf body cannot carry unknown or duplicate fields, or values of the wrong type.
  if (!ctx || mediaType === PROTOBUF) return value;
  // A built-in kind decodes into Go structs: a value of the wrong JSON type fails the whole body
  // (400), whatever fieldValidation says. Custom kinds report types in validation (422).
  // Custom kinds: only their metadata is a Go struct; the rest is reported by validation (422).
  const typeError = ctx.custom ? customMetadataTypeError(ctx.definitions, value) : new GoTypeChecker(ctx).firstError(value);
  if (typeError) throw badRequest(decodeErrorMessage(target.kind, typeError, body, bodyKind || target.kind, bodyVersion || target.apiVersion));
  let checked = checkFields(input, ctx);
  // The fast path walks keys in sorted order; kube reports problems in document order.
  if (checked.errors.length && input.node === undefined && mediaType === 'application/json') {
    const parsed = parseJsonBody(body);
    if (parsed.ok) checked = checkFields({ node: parsed.node }, ctx);
  }
  const outcome = applyDirective(checked, directive);
  if (outcome.error) throw badRequest(decodeErrorMessage(target.kind, outcome.error, body, bodyKind || target.kind, bodyVersion || target.apiVersion));
  rc.warnings.push(...outcome.warnings);
  return outcome.value;
}

/** DeleteOptions from a JSON body (kubectl sends propagationPolicy and dryRun there); {} when empty. */
export function decodeDeleteOptionsBody(rc: RequestContext): Obj {
  const body = rc.req.body;
  if (!body || body.length === 0) return {};
  const ct = parseContentType(rc.req.headers['content-type']);
  const mediaType = ct ? `${ct.type}/${ct.subtype}` : 'application/json';
  if (mediaType === 'application/yaml') {
    const parsed = parseYaml(bodyText(body));
    if (!parsed.ok) throw badRequest(parsed.message);
    return (parsed.value ?? {}) as Obj;
  }
  if (mediaType === PROTOBUF) return decodeProtobuf(body, 'DeleteOptions').object as Obj;
  if (mediaType !== 'application/json') throw unsupportedMediaType(unsupportedMediaTypeMessage());
  const parsed = parseJsonBody(body);
  if (!parsed.ok) throw badRequest(decodeErrorMessage('DeleteOptions', parsed.message, body));
  const v = parsed.value;
  if (v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw badRequest(decodeErrorMessage('DeleteOptions', 'json: cannot unmarshal into Go value of type v1.DeleteOptions', body));
  return v as Obj;
}

