// Merging one JSON object with a strategic merge patch (strategicpatch mergeMap): nulls delete,
// maps merge recursively, lists follow their field's patch strategy, and the directives
// `$patch`, `$retainKeys`, `$setElementOrder/<list>` and `$deleteFromPrimitiveList/<list>` are
// consumed here. Works in place on `original` (the caller hands in a private copy).
import { errBadArgType, errBadPatchFormatForPrimitiveList, errBadPatchFormatForRetainKeys, errBadPatchFormatForSetElementOrderList, errBadPatchType } from './strategic-errors';
import { isObj, mergeList, normalizeElementOrder, partitionByPresence, sliceElementKind, validatePatchWithSetOrderList, type Obj } from './strategic-list';
import {
  childSchema,
  DELETE_FROM_PRIMITIVE_LIST_PREFIX,
  DIRECTIVE_MARKER,
  isDirectiveKey,
  isStruct,
  itemSchema,
  lookupListField,
  lookupMapField,
  RETAIN_KEYS_DIRECTIVE,
  SET_ELEMENT_ORDER_PREFIX,
  type PatchSchema,
} from './strategic-schema';

/** Assign without tripping over a `__proto__` key. */
function setKey(o: Obj, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/**
 * A value copied from the patch as it is. Go leaves nulls and directive keys in such values and
 * only loses them when the result is decoded into the typed object (nulls become zero values,
 * unknown struct fields vanish). Our objects are stored as JSON, so we drop them here: nulls
 * everywhere, directive keys in structs (in free-form maps they are ordinary keys).
 */
export function sanitize(value: unknown, schema: PatchSchema): unknown {
  if (Array.isArray(value)) {
    const items = itemSchema(schema);
    return value.map((v) => (v === null ? null : sanitize(v, items)));
  }
  if (!isObj(value)) return value;
  const struct = isStruct(schema);
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || (struct && isDirectiveKey(k))) continue;
    setKey(out, k, sanitize(v, childSchema(schema, k)));
  }
  return out;
}

type ValueKind = 'map' | 'slice' | 'nil' | 'scalar';
const kindOf = (v: unknown): ValueKind => (v === null || v === undefined ? 'nil' : Array.isArray(v) ? 'slice' : typeof v === 'object' ? 'map' : 'scalar');

/** `$setElementOrder/containers` → `containers`; the prefix must be followed by a slash. */
function extractKey(key: string, prefix: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw prefix === DELETE_FROM_PRIMITIVE_LIST_PREFIX ? errBadPatchFormatForPrimitiveList() : errBadPatchFormatForSetElementOrderList();
  }
  return key.slice(slash + 1);
}

function asList(v: unknown): unknown[] {
  if (!Array.isArray(v)) throw errBadArgType('slice', v);
  return v;
}

/** `$patch` on a map: replace it with the patch, or delete it (leaving an empty map). */
function mapDirective(directive: unknown, patch: Obj, schema: PatchSchema): Obj {
  if (directive === 'replace') {
    const rest: Obj = {};
    for (const [k, v] of Object.entries(patch)) if (k !== DIRECTIVE_MARKER) setKey(rest, k, v);
    return sanitize(rest, schema) as Obj;
  }
  if (directive === 'delete') return {};
  throw errBadPatchType(directive, patch);
}

/**
 * `$retainKeys: [...]` clears every live key not listed; every key the patch sets (nulls and
 * list directives aside) must be listed.
 */
function applyRetainKeys(original: Obj, patch: Obj): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS_DIRECTIVE)) return;
  const listed = patch[RETAIN_KEYS_DIRECTIVE];
  delete patch[RETAIN_KEYS_DIRECTIVE];
  if (!Array.isArray(listed)) throw errBadPatchFormatForRetainKeys();
  const keep = new Set<unknown>(listed);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX) || k.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    if (!keep.has(k)) throw errBadPatchFormatForRetainKeys();
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

/**
 * `$setElementOrder/<list>`: merge the list with its patch (if any) and then order the result —
 * listed elements in the listed order, live-only elements kept near their live neighbours.
 * The list is removed from `patch` so the main loop does not merge it again.
 */
function applySetElementOrder(original: Obj, patch: Obj, schema: PatchSchema): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw errBadArgType('slice', order);
    const field = extractKey(key, SET_ELEMENT_ORDER_PREFIX);
    const foundOriginal = Object.hasOwn(original, field);
    const foundPatch = Object.hasOwn(patch, field);
    const originalList = foundOriginal ? asList(original[field]) : [];
    const patchList = foundPatch ? asList(patch[field]) : [];
    const meta = lookupListField(schema, field);
    validatePatchWithSetOrderList(patchList, order, meta.mergeKey);
    if (!foundOriginal && !foundPatch) continue;
    let merged: unknown[];
    let fromPatch = false;
    if (!foundPatch) merged = originalList;
    else if (foundOriginal && meta.strategy === 'merge') merged = mergeList(originalList, patchList, meta.schema, meta.mergeKey, false, mergeMap, sanitize);
    else [merged, fromPatch] = [patchList, true];
    const [listed, serverOnly] = partitionByPresence(merged, order, meta.mergeKey);
    const kind = sliceElementKind([originalList, patchList]);
    const ordered = normalizeElementOrder(listed, serverOnly, order, originalList, meta.mergeKey, kind);
    setKey(original, field, fromPatch ? sanitize(ordered, childSchema(schema, field)) : ordered);
    delete patch[field];
  }
}

/** mergeMap: apply `patch` to `original` (both plain JSON objects; both are modified). */
export function mergeMap(original: Obj, patch: Obj, schema: PatchSchema): Obj {
  if (Object.hasOwn(patch, DIRECTIVE_MARKER)) return mapDirective(patch[DIRECTIVE_MARKER], patch, schema);
  applyRetainKeys(original, patch);
  applySetElementOrder(original, patch, schema);
  for (const patchKey of Object.keys(patch)) {
    const patchV = patch[patchKey];
    const isDeleteList = patchKey.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX);
    const key = isDeleteList ? extractKey(patchKey, DELETE_FROM_PRIMITIVE_LIST_PREFIX) : patchKey;
    if (patchV === null) {
      delete original[key];
      continue;
    }
    const current = original[key];
    if (!Object.hasOwn(original, key) || kindOf(current) !== kindOf(patchV)) {
      // New or retyped: take the patch value; a deletion list never creates its list.
      if (!isDeleteList) setKey(original, key, sanitize(patchV, childSchema(schema, key)));
      continue;
    }
    if (isObj(current)) {
      const meta = lookupMapField(schema, key);
      const next = meta.strategy === 'replace' ? sanitize(patchV, meta.schema) : mergeMap(current, patchV as Obj, meta.schema);
      setKey(original, key, next);
    } else if (Array.isArray(current)) {
      const meta = lookupListField(schema, key);
      const next =
        meta.strategy === 'merge'
          ? mergeList(current, patchV as unknown[], meta.schema, meta.mergeKey, isDeleteList, mergeMap, sanitize)
          : sanitize(patchV, childSchema(schema, key));
      setKey(original, key, next);
    } else {
      setKey(original, key, patchV);
    }
  }
  return original;
}
