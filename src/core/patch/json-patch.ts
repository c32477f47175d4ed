// JSON patch (RFC 6902) for application/json-patch+json, applied as evanphx/json-patch does
// (json-patch-apply.ts) and answered the way kube-apiserver (evanphx/json-patch) does: a body that does not decode as a
// list of operations is 400 BadRequest, more than 10000 operations is 413, and any operation
// that fails (bad path, failed test, unknown op) is 422 with kube's generic message.
import { applyOperations, JsonPatchApplyFailure } from './json-patch-apply';
import { ApiError, badRequest, requestEntityTooLarge } from '../meta/status';
import { JsonSyntaxError, nodeToValue, scanJson, type JsonNode } from '../codec/json-scan';

export const MAX_JSON_PATCH_OPERATIONS = 10000;

/** What kube answers when an operation cannot be applied (details is an empty object). */
export function jsonPatchApplyError(): ApiError {
  return new ApiError(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
}

function goKind(n: JsonNode): string {
  if (n.kind === 'object') return 'object';
  if (n.kind === 'array') return 'array';
  const v = n.value;
  return typeof v === 'string' ? 'string' : typeof v === 'number' ? 'number' : 'bool';
}

/** One operation as the client sent it (its members are checked when it is applied). */
export type Operation = Record<string, unknown>;

export interface ParsedJsonPatch {
  ops: Operation[];
  node: JsonNode;
}

/** jsonpatch.DecodePatch with Go's messages. */
export function parseJsonPatch(body: string): ParsedJsonPatch {
  let node: JsonNode;
  try {
    node = scanJson(body);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw badRequest(e.message);
    throw e;
  }
  if (node.kind === 'scalar' && node.value === null) return { ops: [], node };
  if (node.kind !== 'array') throw badRequest(`json: cannot unmarshal ${goKind(node)} into Go value of type jsonpatch.Patch`);
  for (const item of node.items) {
    if (item.kind !== 'object' && !(item.kind === 'scalar' && item.value === null)) {
      throw badRequest(`json: cannot unmarshal ${goKind(item)} into Go value of type jsonpatch.Operation`);
    }
  }
  if (node.items.length > MAX_JSON_PATCH_OPERATIONS) {
    throw requestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${node.items.length}`);
  }
  return { ops: nodeToValue(node) as Operation[], node };
}

const OP_FIELDS = new Set(['op', 'path', 'from', 'value']);

/** fieldValidation Strict/Warn: unknown or repeated members of the operations themselves. */
export function jsonPatchStrictErrors(p: ParsedJsonPatch): string[] {
  const out: string[] = [];
  if (p.node.kind !== 'array') return out;
  p.node.items.forEach((item, i) => {
    if (item.kind !== 'object') return;
    for (const e of item.entries) {
      // Go matches struct fields case-insensitively.
      const known = OP_FIELDS.has(e.key) || OP_FIELDS.has(e.key.toLowerCase());
      if (!known) out.push(`json patch unknown field "[${i}].${e.key}"`);
      else if (e.duplicate) out.push(`json patch duplicate field "[${i}].${e.key}"`);
    }
  });
  return [...new Set(out)];
}

/** Apply operations to a copy of the document. */
export function applyJsonPatch(doc: unknown, ops: Operation[]): unknown {
  if (ops.length === 0) return structuredCloneJson(doc);
  try {
    return applyOperations(doc, ops);
  } catch (e) {
    if (e instanceof JsonPatchApplyFailure) throw jsonPatchApplyError();
    throw e;
  }
}

function structuredCloneJson<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}
