// application/strategic-merge-patch+json for built-in kinds, with the semantics of
// k8s.io/apimachinery/pkg/util/strategicpatch as kube-apiserver applies it (StrategicMergeMapPatch:
// parallel deletion lists are merged, nulls with nothing to delete are ignored). The patch
// metadata (list merge keys, merge/replace/retainKeys strategies) comes from the built-in OpenAPI
// definitions. The pieces live beside this file: strategic-map (objects and directives),
// strategic-list (list merging and ordering), strategic-schema, strategic-errors.
import { badRequest } from '../meta/status';
import { StrategicPatchError } from './strategic-errors';
import { isObj } from './strategic-list';
import { mergeMap } from './strategic-map';
import { rootSchema } from './strategic-schema';

function copy<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** The JSON type name Go's decoder reports when the body is not an object. */
function jsonTypeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v; // 'string' | 'number'
}

/**
 * Apply a strategic merge patch to `original` (a plain JSON object of kind definition
 * `rootDefinition`, e.g. 'io.k8s.api.apps.v1.Deployment'). Returns the patched object; neither
 * input is modified. Throws ApiError worded as kube-apiserver answers: a body that is not a JSON
 * object → 400; malformed directive lists → 400; lists of lists → 422; anything else kube's
 * patch code rejects (missing merge key, unknown `$patch` value, `$setElementOrder` mismatch)
 * → 500 without a reason, which is what kube-apiserver sends for such errors.
 */
export function applyStrategicMergePatch(original: unknown, patch: unknown, rootDefinition: string): unknown {
  const schema = rootSchema(rootDefinition);
  // A `null` body decodes to an empty patch in Go.
  if (patch === null) return copy(original);
  if (!isObj(patch)) throw badRequest(`json: cannot unmarshal ${jsonTypeName(patch)} into Go value of type map[string]interface {}`);
  const doc = isObj(original) ? copy(original) : {};
  try {
    return mergeMap(doc, copy(patch), schema);
  } catch (e) {
    if (e instanceof StrategicPatchError) throw e.toApiError();
    throw e;
  }
}
