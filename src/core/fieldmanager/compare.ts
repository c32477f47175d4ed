// Comparing two versions of an object field by field (typed.Compare): which leaf fields and
// items were added, modified or removed. Leaves are scalars, atomic lists/maps and
// lists/maps empty on both sides; a granular node that appears or disappears is itself
// reported too, which is where the `.` markers of Update entries come from.
import { FieldSet } from './fieldset';
import { fieldElement, type PathElement } from './pathelement';
import type { TypeNode } from './schema';
import { indexList, mapChild, resolve, type Resolved } from './typed';
import { deepEqual, isMap } from './value';

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

export function compare(lhs: unknown, rhs: unknown, t: TypeNode): Comparison {
  const out = emptyComparison();
  const r = containerOf(lhs, rhs, t);
  if (r) children(r, lhs, rhs, out);
  return out;
}

export function isSame(c: Comparison): boolean {
  return c.added.isEmpty() && c.modified.isEmpty() && c.removed.isEmpty();
}

/** A granular container: the only values whose children are compared one by one. */
export type Container = Exclude<Resolved, { kind: 'leaf' }>;

function emptyComparison(): Comparison {
  return { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
}

/**
 * How two values of type `t` are compared: as a granular container (its resolved type), or
 * undefined when the pair is a leaf (scalars, atomic lists/maps, shapes that differ, containers
 * empty on both sides). null counts as an empty container of whatever shape the other side has.
 */
export function containerOf(lhs: unknown, rhs: unknown, t: TypeNode): Container | undefined {
  const r = resolve(t, rhs ?? lhs);
  const rl = lhs === undefined || lhs === null ? r : resolve(t, lhs);
  if (r.kind === 'leaf' || r.atomic || rl.kind !== r.kind || isEmptyPair(lhs, rhs)) return undefined;
  return r;
}

/** Compares the children of two values of the granular container type `r` into `out` (relative paths). */
function children(r: Container, lhs: unknown, rhs: unknown, out: Comparison): void {
  if (r.kind === 'map') {
    const lm = (lhs ?? {}) as Record<string, unknown>;
    const rm = (rhs ?? {}) as Record<string, unknown>;
    for (const k in lm) {
      const { type } = mapChild(r.type, k);
      node(fieldElement(k), lm[k], Object.prototype.hasOwnProperty.call(rm, k) ? rm[k] : undefined, type, out);
    }
    for (const k in rm) {
      if (Object.prototype.hasOwnProperty.call(lm, k)) continue;
      node(fieldElement(k), undefined, rm[k], mapChild(r.type, k).type, out);
    }
    return;
  }
  const list = r.type;
  const elem = list.elem();
  const li = indexList(list, (lhs ?? []) as unknown[]);
  const ri = indexList(list, (rhs ?? []) as unknown[]);
  for (const pe of li.order) node(pe, li.byId.get(pe.id), ri.byId.has(pe.id) ? ri.byId.get(pe.id) : undefined, elem, out);
  for (const pe of ri.order) if (!li.byId.has(pe.id)) node(pe, undefined, ri.byId.get(pe.id), elem, out);
}

/** Compares one child `pe` (undefined = absent on that side) and records it under `out`. */
function node(pe: PathElement, lhs: unknown, rhs: unknown, t: TypeNode, out: Comparison): void {
  if (lhs !== undefined && lhs === rhs) return;
  const r = containerOf(lhs, rhs, t);
  if (!r) {
    // A leaf: record the change of the whole value.
    if (lhs === undefined) out.added.insertMember(pe);
    else if (rhs === undefined) out.removed.insertMember(pe);
    else if (!deepEqual(lhs, rhs)) out.modified.insertMember(pe);
    return;
  }
  // Creates take their own path (create-fields.ts); here a new subtree is rare enough to go
  // through the same three sets as any change.
  const sub = emptyComparison();
  children(r, lhs, rhs, sub);
  out.added.attachChild(pe, sub.added);
  out.modified.attachChild(pe, sub.modified);
  out.removed.attachChild(pe, sub.removed);
  if (lhs === undefined) out.added.insertMember(pe);
  else if (rhs === undefined) out.removed.insertMember(pe);
}

// Lists and maps that are empty (or null) on both sides are compared as leaves, which keeps the
// difference between `{}`/`[]` and absent visible.
function isEmptyPair(lhs: unknown, rhs: unknown): boolean {
  return isEmptyContainer(lhs) && isEmptyContainer(rhs);
}

function isEmptyContainer(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isMap(v)) {
    for (const _ in v) return false;
    return true;
  }
  return false;
}
