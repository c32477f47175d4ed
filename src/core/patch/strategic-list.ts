// Merging lists under the `merge` patch strategy, and the element ordering kube applies
// afterwards (strategicpatch mergeSlice / normalizeElementOrder). Lists of maps merge element by
// element on the merge key; lists of scalars are unioned. The result order is: the patch's own
// order for elements it mentions, the live order for the rest, interleaved by live position —
// so elements new to the list come first unless a `$setElementOrder` list says otherwise.
import {
  errBadArgType,
  errBadPatchType,
  errNoListOfLists,
  errNoMergeKey,
  goValue,
  internalPatchError,
} from './strategic-errors';
import { DIRECTIVE_MARKER, SET_ELEMENT_ORDER_PREFIX, type PatchSchema } from './strategic-schema';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Merges a patch element into the live element with the same merge key. */
export type MergeElement = (original: Obj, patch: Obj, schema: PatchSchema) => Obj;
/** Strips nulls and stray directives from a value taken over from the patch as it is. */
export type Sanitize = (value: unknown, schema: PatchSchema) => unknown;

export type ElementKind = 'map' | 'scalar';

/** Go's `==` on decoded JSON values; a missing merge key reads as nil. */
function sameValue(a: unknown, b: unknown): boolean {
  return (a === undefined ? null : a) === (b === undefined ? null : b);
}

/** The Go type tag used to check that all elements of the lists have one type. */
function typeTag(v: unknown): string {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v;
}

/** sliceElementType: all elements must share one type, which must not be a list. */
export function sliceElementKind(lists: unknown[][]): ElementKind {
  let prev: string | undefined;
  for (const list of lists) {
    for (const v of list) {
      const t = typeTag(v);
      if (prev === undefined) {
        prev = t;
        if (t === 'slice') throw errNoListOfLists();
      } else if (prev !== t) {
        throw internalPatchError(`list element types are not identical: ${goValue(lists)}`);
      }
    }
  }
  if (prev === undefined) throw internalPatchError('no elements in any of the given slices');
  return prev === 'map' ? 'map' : 'scalar';
}

/** Index of the element with the same merge-key value (maps) or the same value (scalars). */
function indexIn(list: unknown[], item: unknown, mergeKey: string, kind: ElementKind): number {
  const valueOf = (x: unknown): unknown => (kind === 'map' ? (isObj(x) ? x[mergeKey] : null) : x);
  const wanted = valueOf(item);
  return list.findIndex((x) => sameValue(valueOf(x), wanted));
}

function findByMergeKey(list: unknown[], mergeKey: string, value: unknown): number {
  for (let i = 0; i < list.length; i++) {
    const el = list[i];
    if (!isObj(el)) throw internalPatchError(`value for key ${i} is not a map`);
    if (Object.hasOwn(el, mergeKey) && sameValue(el[mergeKey], value)) return i;
  }
  return -1;
}

function validateMergeKeyInLists(mergeKey: string, ...lists: unknown[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isObj(item)) throw errBadArgType('map', item);
      if (!Object.hasOwn(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    }
  }
}

/** Splits `$patch: delete` elements off (they sort after everything else). */
function extractToDeleteItems(list: unknown[]): [unknown[], unknown[]] {
  const keep: unknown[] = [];
  const toDelete: unknown[] = [];
  for (const v of list) {
    if (!isObj(v)) throw errBadArgType('map', v);
    if (Object.hasOwn(v, DIRECTIVE_MARKER) && v[DIRECTIVE_MARKER] === 'delete') toDelete.push(v);
    else keep.push(v);
  }
  return [keep, toDelete];
}

/**
 * normalizeSliceOrder: sort by position in `order`. Go's comparator answers "less" whenever an
 * element is missing from `order`, so we sort the way Go's sort.SliceStable does for short
 * lists (insertion sort) to place such elements identically.
 */
function normalizeSliceOrder(toSort: unknown[], order: unknown[], mergeKey: string, kind: ElementKind): unknown[] {
  let items = [...toSort];
  let toDelete: unknown[] = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, items, order);
    [items, toDelete] = extractToDeleteItems(items);
  }
  const less = (a: unknown, b: unknown): boolean => {
    const ia = indexIn(order, a, mergeKey, kind);
    const ib = indexIn(order, b, mergeKey, kind);
    return ia >= 0 && ib >= 0 ? ia < ib : true;
  };
  for (let i = 1; i < items.length; i++) {
    for (let j = i; j > 0 && less(items[j], items[j - 1]); j--) [items[j], items[j - 1]] = [items[j - 1], items[j]];
  }
  return [...items, ...toDelete];
}

/**
 * mergeSortedSlice: interleave live-only elements (left) into patch elements (right). A left
 * element goes first only when both are in the live list and it came earlier there.
 */
function mergeSortedSlice(left: unknown[], right: unknown[], serverOrder: unknown[], mergeKey: string, kind: ElementKind): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey, kind);
      const ri = indexIn(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

export function normalizeElementOrder(
  patchItems: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
  kind: ElementKind,
): unknown[] {
  const patchSorted = normalizeSliceOrder(patchItems, patchOrder, mergeKey, kind);
  const serverSorted = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(serverSorted, patchSorted, serverOrder, mergeKey, kind);
}

/** Splits merged elements into those `partitionBy` mentions and the live-only rest. */
export function partitionByPresence(merged: unknown[], partitionBy: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const inPatch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of merged) {
    let found: boolean;
    if (!mergeKey) found = partitionBy.some((p) => sameValue(p, v));
    else {
      if (!isObj(v)) throw errBadArgType('map', v);
      if (!Object.hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
      found = findByMergeKey(partitionBy, mergeKey, v[mergeKey]) >= 0;
    }
    (found ? inPatch : serverOnly).push(v);
  }
  return [inPatch, serverOnly];
}

/** Handles `$patch` elements: delete by merge key, or replace the whole list. */
function applySpecialElements(original: unknown[], patch: unknown[], mergeKey: string): { original: unknown[]; patch: unknown[]; replaced: boolean } {
  const live = [...original];
  const plain: unknown[] = [];
  let replace = false;
  for (const v of patch) {
    const el = v as Obj;
    if (!Object.hasOwn(el, DIRECTIVE_MARKER)) {
      plain.push(v);
      continue;
    }
    const directive = el[DIRECTIVE_MARKER];
    if (directive === 'delete') {
      if (!Object.hasOwn(el, mergeKey)) throw errNoMergeKey(el, mergeKey);
      for (let i = findByMergeKey(live, mergeKey, el[mergeKey]); i >= 0; i = findByMergeKey(live, mergeKey, el[mergeKey])) live.splice(i, 1);
    } else if (directive === 'replace') {
      // Keep scanning so that other directive elements are dropped too.
      replace = true;
    } else if (directive === 'merge') {
      throw internalPatchError('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, el);
    }
  }
  return replace ? { original: plain, patch: [], replaced: true } : { original: live, patch: plain, replaced: false };
}

/** mergeSlice: the `merge` strategy for one list. */
export function mergeList(
  original: unknown[],
  patch: unknown[],
  elem: PatchSchema,
  mergeKey: string,
  isDeleteList: boolean,
  mergeElement: MergeElement,
  sanitize: Sanitize,
): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementKind([original, patch]);
  let merged: unknown[];
  if (kind !== 'map') {
    if (isDeleteList) return original.filter((v) => !patch.some((d) => sameValue(d, v)));
    merged = [];
    for (const v of [...original, ...patch]) if (!merged.some((m) => sameValue(m, v))) merged.push(v);
  } else {
    // Go names the element type's kind here, which for API objects is always a struct.
    if (!mergeKey) throw internalPatchError('cannot merge lists without merge key for struct');
    const special = applySpecialElements(original, patch, mergeKey);
    // After a `$patch: replace` element the list is the patch's other elements, taken as they are.
    original = special.replaced ? special.original.map((v) => sanitize(v, elem)) : special.original;
    patch = special.patch;
    merged = [...original];
    for (const v of patch) {
      const el = v as Obj;
      if (!Object.hasOwn(el, mergeKey)) throw errNoMergeKey(el, mergeKey);
      const at = findByMergeKey(merged, mergeKey, el[mergeKey]);
      if (at >= 0) merged[at] = mergeElement(merged[at] as Obj, el, elem);
      else merged.push(sanitize(el, elem));
    }
  }
  const [patchItems, serverOnly] = partitionByPresence(merged, patch, mergeKey);
  return normalizeElementOrder(patchItems, serverOnly, patch, original, mergeKey, kind);
}

/**
 * validatePatchWithSetOrderList: the patch list's elements (deletions and other directive
 * elements aside) must appear in `$setElementOrder` in the same relative order.
 */
export function validatePatchWithSetOrderList(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  const items = mergeKey ? extractToDeleteItems(patchList)[0] : patchList;
  const keyOf = (v: unknown): unknown => {
    if (!isObj(v)) throw errBadArgType('map', v);
    if (!Object.hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    return v[mergeKey];
  };
  let pi = 0;
  let oi = 0;
  while (pi < items.length && oi < order.length) {
    const item = items[pi];
    if (isObj(item) && Object.hasOwn(item, DIRECTIVE_MARKER)) {
      pi++;
      continue;
    }
    const equal = mergeKey ? sameValue(keyOf(item), keyOf(order[oi])) : sameValue(item, order[oi]);
    if (equal) pi++;
    oi++;
  }
  if (pi < items.length && oi >= order.length) {
    throw internalPatchError(`The order in patch list:\n${goValue(patchList)}\n doesn't match ${SET_ELEMENT_ORDER_PREFIX} list:\n${goValue(order)}\n`);
  }
}
