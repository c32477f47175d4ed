// Values seen through a type (structured-merge-diff's typed package, part 1): resolving a
// schema type against an actual value, naming list items, the set of fields a value
// mentions (ToFieldSet) and EnsureNamedFieldsAreMembers.
import { FieldSet } from './fieldset';
import { fieldElement, indexElement, keyElement, type PathElement, pathString, valueElement } from './pathelement';
import { DEDUCED, type ListType, type MapType, type TypeNode } from './schema';
import { isMap, type JsonValue } from './value';

/** Thrown for values the engine cannot track (kube answers these with an error too). */
export class FieldManagerError extends Error {}

export type Resolved =
  | { kind: 'leaf' }
  | { kind: 'list'; type: ListType; atomic: boolean }
  | { kind: 'map'; type: MapType | null; atomic: boolean };

const LEAF: Resolved = { kind: 'leaf' };
const DEDUCED_LIST: Resolved = { kind: 'list', type: { kind: 'list', rel: 'atomic', keys: [], keyDefaults: {}, elem: () => DEDUCED }, atomic: true };
const DEDUCED_MAP: Resolved = { kind: 'map', type: null, atomic: false };

/** How a value of type `t` is walked; a value whose shape contradicts the type is a leaf. */
export function resolve(t: TypeNode, v: unknown): Resolved {
  switch (t.kind) {
    case 'scalar':
      return LEAF;
    case 'list':
      return Array.isArray(v) ? { kind: 'list', type: t, atomic: t.rel === 'atomic' } : LEAF;
    case 'map':
      return isMap(v) ? { kind: 'map', type: t, atomic: t.atomic } : LEAF;
    case 'deduced':
      return isMap(v) ? DEDUCED_MAP : Array.isArray(v) ? DEDUCED_LIST : LEAF;
  }
}

/** The type of key `k` of a granular map (null type = deduced map); `declared` = a struct field. */
export function mapChild(t: MapType | null, k: string): { type: TypeNode; declared: boolean } {
  if (!t) return { type: DEDUCED, declared: false };
  const f = t.field(k);
  if (f) return { type: f, declared: true };
  // Undeclared keys of a closed struct would be rejected by validation first; walk them as
  // untyped values rather than failing here.
  return { type: t.elem() ?? DEDUCED, declared: false };
}

// Key elements are costly to spell; items are usually the same objects from call to call
// (stored objects are not copied), so remember each item's element per list type.
const keyCache = new WeakMap<object, { t: ListType; pe: PathElement }>();

/** The path element naming item `i` of a list: its key fields, its value, or its index. */
export function listItemElement(t: ListType, i: number, item: unknown, remember = true): PathElement {
  if (t.rel === 'set') return valueElement(item as JsonValue);
  if (t.rel === 'map') {
    if (remember && isMap(item)) {
      const hit = keyCache.get(item);
      if (hit && hit.t === t) return hit.pe;
    }
    if (!isMap(item)) throw new FieldManagerError(`element ${i}: associative list with keys may not have ${item === null ? 'a null element' : 'non-map elements'}`);
    const fields: Array<[string, JsonValue]> = [];
    for (const k of t.keys) {
      if (Object.prototype.hasOwnProperty.call(item, k)) fields.push([k, item[k] as JsonValue]);
      else if (Object.hasOwn(t.keyDefaults, k)) fields.push([k, t.keyDefaults[k]!]);
      else throw new FieldManagerError(`element ${i}: associative list with keys has an element that omits key field ${JSON.stringify(k)} (and doesn't have default value)`);
    }
    const pe = keyElement(fields);
    if (remember) keyCache.set(item, { t, pe });
    return pe;
  }
  return indexElement(i);
}

/**
 * The items of a granular list by path element; later duplicates are ignored as kube does.
 * `remember` = false for items seen once (a create's fresh objects): caching their key
 * elements in the weak table would only cost garbage-collection work.
 */
export function indexList(t: ListType, list: readonly unknown[], remember = true): { order: PathElement[]; byId: Map<string, unknown> } {
  const order: PathElement[] = [];
  const byId = new Map<string, unknown>();
  for (let i = 0; i < list.length; i++) {
    const pe = listItemElement(t, i, list[i], remember);
    if (byId.has(pe.id)) continue;
    byId.set(pe.id, list[i]);
    order.push(pe);
  }
  return { order, byId };
}

/** Every leaf field and item `value` mentions (typed.ToFieldSet). */
export function toFieldSet(value: unknown, t: TypeNode): FieldSet {
  const set = new FieldSet();
  const r = resolve(t, value);
  if (r.kind === 'map' && !r.atomic) mapItems(value as Record<string, unknown>, r.type, set);
  else if (r.kind === 'list' && !r.atomic) listItems(value as unknown[], r.type, set, []);
  return set;
}

function addChild(parent: FieldSet, pe: PathElement, v: unknown, t: TypeNode, member: boolean, path: PathElement[]): void {
  const r = resolve(t, v);
  if (r.kind === 'leaf' || r.atomic) {
    parent.insertMember(pe);
    return;
  }
  const child = new FieldSet();
  if (r.kind === 'map') mapItems(v as Record<string, unknown>, r.type, child);
  else listItems(v as unknown[], r.type, child, [...path, pe]);
  parent.attachChild(pe, child);
  if (member) parent.insertMember(pe);
}

function mapItems(m: Record<string, unknown>, t: MapType | null, into: FieldSet): void {
  for (const k in m) {
    const v = m[k];
    if (v === undefined) continue;
    const { type, declared } = mapChild(t, k);
    const member = v === null || !declared || (isMap(v) && isEmptyObject(v));
    addChild(into, fieldElement(k), v, type, member, []);
  }
}

function listItems(list: unknown[], t: ListType, into: FieldSet, path: PathElement[]): void {
  const elem = t.elem();
  for (let i = 0; i < list.length; i++) {
    let pe: PathElement;
    try {
      pe = listItemElement(t, i, list[i]);
    } catch (e) {
      throw new FieldManagerError(`${pathString(path)}: ${(e as Error).message}`);
    }
    addChild(into, pe, list[i], elem, true, path);
  }
}

function isEmptyObject(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

/**
 * Adds every named struct field that has children as a member itself, so pruning a struct's
 * last owned field removes the struct instead of leaving `{}` behind (EnsureNamedFieldsAreMembers).
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, t: TypeNode | undefined): FieldSet {
  if (set.isEmpty()) return set;
  const out = new FieldSet();
  const map = t?.kind === 'map' ? t : undefined;
  const list = t?.kind === 'list' ? t : undefined;
  set.forEachEntry((pe, member, child) => {
    let childType: TypeNode | undefined;
    let named = false;
    if (pe.kind === 'field' && map) {
      const f = map.field(pe.name);
      named = f !== undefined;
      childType = f ?? map.elem();
    } else if (t?.kind === 'deduced' && pe.kind === 'field') childType = DEDUCED;
    else if (pe.kind === 'key' && list) childType = list.elem();
    if (child) out.attachChild(pe, ensureNamedFieldsAreMembers(child, childType));
    if (member || (named && child)) out.insertMember(pe);
  });
  return out;
}

