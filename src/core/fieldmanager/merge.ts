// Merging an applied configuration into a live object (typed.Merge) and removing fields and
// items from an object (typed.RemoveItems). Merge never removes anything: leaves and atomic
// values take the applied value, granular maps merge key by key, granular lists merge item by
// item with kube's ordering (live order while applied items are shared, applied order for them).
import type { FieldSet } from './fieldset';
import { fieldElement } from './pathelement';
import type { TypeNode } from './schema';
import { indexList, listItemElement, mapChild, resolve } from './typed';
import { deepEqual } from './value';
import { setOwnKey } from '../codec/own-keys';

export function mergeValues(lhs: unknown, rhs: unknown, t: TypeNode): unknown {
  if (rhs === undefined) return lhs;
  if (lhs === undefined || lhs === null) return rhs;
  const r = resolve(t, rhs);
  if (r.kind === 'leaf' || r.atomic || resolve(t, lhs).kind !== r.kind) return deepEqual(lhs, rhs) ? lhs : rhs;
  // Unchanged subtrees come back as the live objects themselves: later comparisons stop at
  // identical references and cached list keys stay valid.
  if (r.kind === 'map') {
    const lm = lhs as Record<string, unknown>;
    const rm = rhs as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    let changed = false;
    for (const k in lm) {
      if (!Object.hasOwn(rm, k) || rm[k] === undefined) setOwnKey(out, k, lm[k]);
      else {
        const v = mergeValues(lm[k], rm[k], mapChild(r.type, k).type);
        if (v !== lm[k]) changed = true;
        setMerged(out, k, v);
      }
    }
    for (const k in rm) {
      if (Object.prototype.hasOwnProperty.call(lm, k) || rm[k] === undefined) continue;
      changed = true;
      setMerged(out, k, rm[k]);
    }
    return changed ? out : lm;
  }
  const out = mergeLists(lhs as unknown[], rhs as unknown[], r.type.elem(), r.type);
  const l = lhs as unknown[];
  return out.length === l.length && out.every((v, i) => v === l[i]) ? l : out;
}

// An applied `null` ends up as an absent field once kube converts the result to its Go type.
function setMerged(out: Record<string, unknown>, k: string, v: unknown): void {
  if (v !== null) setOwnKey(out, k, v);
}

function mergeLists(lhs: unknown[], rhs: unknown[], elem: TypeNode, t: Parameters<typeof indexList>[0]): unknown[] {
  const l = indexList(t, lhs);
  const r = indexList(t, rhs);
  // Items present on both sides are emitted in the applied order; live-only items keep their
  // place relative to them (kube's merge order).
  const shared: string[] = [];
  for (const pe of r.order) if (l.byId.has(pe.id)) shared.push(pe.id);
  let sharedAt = 0;
  const out: unknown[] = [];
  const emitted = new Set<string>();
  let li = 0;
  let ri = 0;
  while (li < l.order.length || ri < r.order.length) {
    const lid = li < l.order.length ? l.order[li]!.id : undefined;
    if (lid !== undefined && emitted.has(lid)) {
      li++;
      continue;
    }
    if (lid !== undefined && ri < r.order.length) {
      if (lid === r.order[ri]!.id) {
        emitted.add(lid);
        out.push(mergeValues(l.byId.get(lid), r.byId.get(lid), elem));
        li++;
        ri++;
        sharedAt++;
        continue;
      }
      if (r.byId.has(lid) && sharedAt < shared.length && shared[sharedAt] !== lid) {
        // A shared item the applied order places later: skip it here.
        li++;
        continue;
      }
    }
    if (lid !== undefined && !r.byId.has(lid)) {
      emitted.add(lid);
      out.push(l.byId.get(lid));
      li++;
      continue;
    }
    if (ri < r.order.length) {
      const rid = r.order[ri]!.id;
      if (!emitted.has(rid)) {
        emitted.add(rid);
        out.push(l.byId.has(rid) ? mergeValues(l.byId.get(rid), r.byId.get(rid), elem) : r.byId.get(rid));
      }
      ri++;
      if (shared[sharedAt] === rid) sharedAt++;
    }
  }
  return out;
}

/**
 * Removes every member of `toRemove` from `value` (a removed member takes its whole subtree);
 * maps and lists left empty by the removal disappear, as they do once kube stores the result.
 */
export function removeItems(value: unknown, toRemove: FieldSet, t: TypeNode): unknown {
  if (toRemove.isEmpty()) return value;
  const r = resolve(t, value);
  if (r.kind === 'leaf') return value;
  if (r.atomic) return undefined;
  if (r.kind === 'map') {
    const m = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    let kept = 0;
    for (const k in m) {
      const pe = fieldElement(k);
      if (toRemove.hasMember(pe)) continue;
      const sub = toRemove.withPrefix(pe);
      const v = sub.isEmpty() ? m[k] : removeItems(m[k], sub, mapChild(r.type, k).type);
      if (v === undefined) continue;
      setOwnKey(out, k, v);
      kept++;
    }
    return kept > 0 ? out : undefined;
  }
  const list = value as unknown[];
  const elem = r.type.elem();
  const out: unknown[] = [];
  for (let i = 0; i < list.length; i++) {
    const pe = listItemElement(r.type, i, list[i]);
    if (toRemove.hasMember(pe)) continue;
    const sub = toRemove.withPrefix(pe);
    const v = sub.isEmpty() ? list[i] : removeItems(list[i], sub, elem);
    if (v !== undefined) out.push(v);
  }
  return out.length > 0 ? out : undefined;
}
