// The fields a create records for its writer, computed in one walk. On a create with no
// managedFields there is no live object and no other manager, so updateOwnership's three-way
// bookkeeping (compare into added/modified/removed sets, take fields from others, union,
// differences, encode) reduces to: every field compare(skeleton, object) reports as added or
// modified, minus ignored and stripped fields, written as fieldsV1. This builds that fieldsV1
// directly from plain arrays (no FieldSet maps, which cost a lot of garbage per create);
// create-fields.test.ts checks it against the general path.
import { type Container, containerOf } from './compare';
import type { FieldSet } from './fieldset';
import type { FieldsV1 } from './fieldsv1';
import { comparePathElements, fieldElement, type PathElement } from './pathelement';
import type { TypeNode } from './schema';
import { indexList, mapChild } from './typed';
import { deepEqual } from './value';
import { sortInPlace } from '../codec/sort-in-place';

/** One entry of a level: the element, whether it is a member itself, and its non-empty children. */
interface Node {
  pe: PathElement;
  member: boolean;
  children: Node[] | null;
}

/**
 * The writer's fields for a create (`lhs` = kube's empty object, `rhs` = the new object, both
 * with value structs filled in), as fieldsV1 and its JSON text; undefined when it owns nothing.
 */
export function createdFieldsV1(lhs: unknown, rhs: unknown, t: TypeNode, ignored: FieldSet | undefined, strip: FieldSet | undefined): { fieldsV1: FieldsV1; text: string } | undefined {
  const r = containerOf(lhs, rhs, t);
  let level = r ? changedLevel(r, lhs, rhs) : [];
  if (ignored) level = subtract(level, ignored, true);
  if (strip) level = subtract(level, strip, false);
  if (level.length === 0) return undefined;
  const out = { text: '' };
  return { fieldsV1: emit(level, false, out), text: out.text };
}

/** The children of a container pair that are added or modified (compare's `children`, merged). */
function changedLevel(r: Container, lhs: unknown, rhs: unknown): Node[] {
  const out: Node[] = [];
  if (r.kind === 'map') {
    const lm = (lhs ?? {}) as Record<string, unknown>;
    const rm = (rhs ?? {}) as Record<string, unknown>;
    for (const k in lm) {
      const n = changed(fieldElement(k), lm[k], Object.prototype.hasOwnProperty.call(rm, k) ? rm[k] : undefined, mapChild(r.type, k).type);
      if (n) out.push(n);
    }
    for (const k in rm) {
      if (Object.prototype.hasOwnProperty.call(lm, k)) continue;
      const n = changed(fieldElement(k), undefined, rm[k], mapChild(r.type, k).type);
      if (n) out.push(n);
    }
    return out;
  }
  const elem = r.type.elem();
  const li = indexList(r.type, (lhs ?? []) as unknown[], false);
  const ri = indexList(r.type, (rhs ?? []) as unknown[], false);
  for (const pe of li.order) {
    const n = changed(pe, li.byId.get(pe.id), ri.byId.has(pe.id) ? ri.byId.get(pe.id) : undefined, elem);
    if (n) out.push(n);
  }
  for (const pe of ri.order) {
    if (li.byId.has(pe.id)) continue;
    const n = changed(pe, undefined, ri.byId.get(pe.id), elem);
    if (n) out.push(n);
  }
  return out;
}

/**
 * compare's `node` for one child, keeping only what lands in added ∪ modified: removed fields
 * (absent on the right) never do, and removals are disjoint from additions level by level.
 */
function changed(pe: PathElement, lhs: unknown, rhs: unknown, t: TypeNode): Node | undefined {
  if (lhs !== undefined && lhs === rhs) return undefined;
  const r = containerOf(lhs, rhs, t);
  if (!r) {
    if (lhs === undefined) return { pe, member: true, children: null };
    if (rhs === undefined || deepEqual(lhs, rhs)) return undefined;
    return { pe, member: true, children: null };
  }
  if (lhs === undefined) return { pe, member: true, children: nonEmpty(addedLevel(r, rhs)) };
  const children = changedLevel(r, lhs, rhs);
  return children.length > 0 ? { pe, member: false, children } : undefined;
}

/** What compare records for a container absent on the left: every child as added, as a member. */
function addedLevel(r: Container, rhs: unknown): Node[] {
  const out: Node[] = [];
  if (r.kind === 'map') {
    const rm = (rhs ?? {}) as Record<string, unknown>;
    for (const k in rm) out.push(added(fieldElement(k), rm[k], mapChild(r.type, k).type));
    return out;
  }
  const elem = r.type.elem();
  const ri = indexList(r.type, (rhs ?? []) as unknown[], false);
  for (const pe of ri.order) out.push(added(pe, ri.byId.get(pe.id), elem));
  return out;
}

function added(pe: PathElement, v: unknown, t: TypeNode): Node {
  const c = containerOf(undefined, v, t);
  return { pe, member: true, children: c ? nonEmpty(addedLevel(c, v)) : null };
}

/** FieldSet.difference (recursive = recursiveDifference) on a level, dropping emptied entries. */
function subtract(level: Node[], other: FieldSet, recursive: boolean): Node[] {
  const out: Node[] = [];
  for (const n of level) {
    const o = other.entry(n.pe);
    if (!o) {
      out.push(n);
      continue;
    }
    if (recursive && o.member) continue;
    const member = recursive ? n.member : n.member && !o.member;
    const children = n.children && o.child ? nonEmpty(subtract(n.children, o.child, recursive)) : n.children;
    if (member || children) out.push({ pe: n.pe, member, children });
  }
  return out;
}

function nonEmpty(level: Node[]): Node[] | null {
  return level.length > 0 ? level : null;
}

/**
 * fieldsv1.ts's encoding: `.` first for members with children, then elements in kube's order.
 * Appends the object's JSON text to `out.text` as it goes (what JSON.stringify would write),
 * which costs less than stringifying the freshly built objects later.
 */
function emit(level: Node[], includeSelf: boolean, out: { text: string }): FieldsV1 {
  if (level.length > 1) sortInPlace(level, byElement);
  const obj: FieldsV1 = {};
  let text = '{';
  if (includeSelf) {
    obj['.'] = {};
    text += '".":{}';
  }
  for (let i = 0; i < level.length; i++) {
    const n = level[i]!;
    if (i > 0 || includeSelf) text += ',';
    text += quoted(n.pe) + ':';
    if (n.children) {
      out.text += text;
      text = '';
      obj[n.pe.id] = emit(n.children, n.member, out);
    } else {
      obj[n.pe.id] = {};
      text += '{}';
    }
  }
  out.text += text + '}';
  return obj;
}

/** Field names repeat from object to object: a field element carries its quoted spelling. */
function quoted(pe: PathElement): string {
  return pe.kind === 'field' ? pe.quoted : JSON.stringify(pe.id);
}

function byElement(a: Node, b: Node): number {
  return comparePathElements(a.pe, b.pe);
}
