// JSON merge patch (RFC 7386) with the exact behaviour of evanphx/json-patch's MergePatch, which
// kube-apiserver uses for application/merge-patch+json: nulls delete, objects merge, anything
// else replaces (nulls pruned from newly added objects); a patch that is null or a scalar is
// `Invalid JSON Patch` (400).
import { badRequest } from '../meta/status';
import { JsonSyntaxError, nodeToValue, scanJson, type JsonNode } from '../codec/json-scan';
import { duplicateFieldErrors } from '../validation/fieldvalidation/strict';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export const INVALID_JSON_PATCH = 'Invalid JSON Patch';

function setKey(o: Obj, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** Drop null members of objects, recursing into objects and arrays (arrays keep their nulls). */
function pruneNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => (x === null ? null : pruneNulls(x)));
  if (!isObj(v)) return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) setKey(out, k, pruneNulls(x));
  return out;
}

function mergeDocs(doc: Obj, patch: Obj): void {
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      delete doc[k];
      continue;
    }
    // Only the document's own key: `__proto__` or `toString` it does not have is a new key.
    const cur = Object.hasOwn(doc, k) ? doc[k] : undefined;
    if (cur === undefined || cur === null) setKey(doc, k, pruneNulls(v));
    else if (!isObj(cur)) setKey(doc, k, pruneNulls(v));
    else if (!isObj(v)) setKey(doc, k, v);
    else mergeDocs(cur, v);
  }
}

/** Apply a parsed merge patch to a document (neither input is modified). */
export function applyMergePatch(doc: unknown, patch: unknown): unknown {
  if (patch === null || (!isObj(patch) && !Array.isArray(patch))) throw badRequest(INVALID_JSON_PATCH);
  if (Array.isArray(patch)) return pruneNulls(clone(patch));
  if (!isObj(doc)) return pruneNulls(clone(patch));
  const out = clone(doc);
  mergeDocs(out, clone(patch));
  return out;
}

export interface ParsedPatch {
  value: unknown;
  node: JsonNode;
}

/** Read a merge-patch body; malformed JSON is `Invalid JSON Patch` (400) like kube. */
export function parseMergePatch(body: string): ParsedPatch {
  try {
    const node = scanJson(body);
    return { value: nodeToValue(node), node };
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw badRequest(INVALID_JSON_PATCH);
    throw e;
  }
}

/**
 * fieldValidation Strict/Warn on a merge patch first decodes it strictly into a map: a non-object
 * is `error decoding patch: ...` (400) and repeated keys become strict errors.
 */
export function mergePatchStrictErrors(p: ParsedPatch): string[] {
  if (p.node.kind !== 'object') {
    const what = p.node.kind === 'array' ? 'array' : typeof p.value === 'string' ? 'string' : typeof p.value === 'number' ? 'number' : p.value === null ? '' : 'bool';
    if (what) throw badRequest(`error decoding patch: json: cannot unmarshal ${what} into Go value of type map[string]interface {}`);
    return [];
  }
  return duplicateFieldErrors(p.node);
}

