// The PATCH handler's entry points: read the body once, then apply it as a merge patch or a JSON
// patch with kube's error for each body shape (merge: `Invalid JSON Patch`; JSON patch: Go's
// decode message) — both 400 — and 422 for JSON patch operations that fail.
import { badRequest } from '../meta/status';
import { JsonSyntaxError, nodeToValue, scanJson, type JsonNode } from '../codec/json-scan';
import { applyMergePatch as mergeValue, INVALID_JSON_PATCH, mergePatchStrictErrors } from './merge';
import { applyJsonPatch as applyOps, jsonPatchStrictErrors, parseJsonPatch } from './json-patch';

export { MAX_JSON_PATCH_OPERATIONS, jsonPatchApplyError, parseJsonPatch, jsonPatchStrictErrors } from './json-patch';
export { INVALID_JSON_PATCH, parseMergePatch, mergePatchStrictErrors } from './merge';

/** A patch body read once; syntax errors are kept until we know which patch type wants them. */
export interface PatchBody {
  readonly kind: 'patch-body';
  text: string;
  node?: JsonNode;
  value?: unknown;
  syntaxError?: string;
}

export function parsePatchBody(text: string): PatchBody {
  try {
    const node = scanJson(text);
    return { kind: 'patch-body', text, node, value: nodeToValue(node) };
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { kind: 'patch-body', text, syntaxError: e.message };
    throw e;
  }
}

function isPatchBody(p: unknown): p is PatchBody {
  return typeof p === 'object' && p !== null && (p as PatchBody).kind === 'patch-body';
}

/** application/merge-patch+json. Accepts a PatchBody or an already-parsed patch value. */
export function applyMergePatch(doc: unknown, patch: PatchBody | unknown): unknown {
  if (!isPatchBody(patch)) return mergeValue(doc, patch);
  if (patch.syntaxError !== undefined) throw badRequest(INVALID_JSON_PATCH);
  return mergeValue(doc, patch.value);
}

/** application/json-patch+json. Accepts a PatchBody or an already-parsed operation list. */
export function applyJsonPatch(doc: unknown, patch: PatchBody | unknown): unknown {
  const text = isPatchBody(patch) ? patch.text : JSON.stringify(patch);
  if (isPatchBody(patch) && patch.syntaxError !== undefined) throw badRequest(patch.syntaxError);
  return applyOps(doc, parseJsonPatch(text).ops);
}

/** Strict/Warn field validation findings about the patch body itself (before it is applied). */
export function patchStrictErrors(type: 'merge' | 'json', patch: PatchBody): string[] {
  if (patch.syntaxError !== undefined || !patch.node) return [];
  if (type === 'json') return jsonPatchStrictErrors({ ops: [], node: patch.node });
  return mergePatchStrictErrors({ value: patch.value, node: patch.node });
}
