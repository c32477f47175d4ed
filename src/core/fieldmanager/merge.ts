// Merging an applied configuration into a live object (typed.Merge) and removing fields and
// items from an object (typed.RemoveItems). Merge never removes anything: leaves and atomic
// values take the applied value, granular maps merge key by key, granular lists merge item by
// item with kube's ordering (live order while applied items are shared, applied order for them).
import type { FieldSet } from './fieldset';
import { fieldElement, type PathElement } from './pathelement';
import type { TypeNode } from './schema';
import { indexList, listItemElement, mapChild, resolve } from './typed';

export function mergeValues(lhs: unknown, rhs: unknown, t: TypeNode): unknown {
  if (rhs === undefined) return lhs;
  if (lhs === undefined || lhs === null) return rhs;
  const r = resolve(t, rhs);
  if (r.kind === 'leaf' || r.atomic || resolve(t, lhs).kind !== r.kind) return rhs;
  if (r.kind === 'map') {
    const lm = lhs as Record<string, unknown>;
    const rm = rhs as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k in lm) {
      if (!Object.prototype.hasOwnProperty.call(rm, k)) out[k] = lm[k];
      else setMerged(out, k, mergeValues(lm[k], rm[k], mapChild(r.type, k).type));
    }
    for (const k in rm) if (!Object.prototype.hasOwnProperty.call(lm, k)) setMerged(out, k, rm[k]);
    return out;
  }
  return mergeLists(lhs as unknown[], rhs as unknown[], r.type.elem(), r.type);
}

// An applied `null` ends up as an absent field once kube converts the result to its Go type.
function setMerged(out: Record<string, unknown>, k: string, v: unknown): void {
  if (v !== null) out[k] = v;
}

function mergeLists(lhs: unknown[], rhs: unknown[], elem: TypeNode, t: Parameters<typeof indexList>[0]): unknown[] {
  const l = indexList(t, lhs);
  const r = indexList(t, rhs);
  // Items present on both sides are emitted in the applied order; live-only items keep their
  // place relative to them.
  const shared = r.order.filter((pe) => l.byId.has(pe.id));
  let sharedAt = 0;
  const out: unknown[] = [];
  const emitted = new Set<string>();
  const emit = (pe: PathElement) => {
    emitted.add(pe.id);
    out.push(r.byId.has(pe.id) ? mergeValues(l.byId.get(pe.id), r.byId.get(pe.id), elem) : l.byId.get(pe.id));
  };
  let li = 0;
  let ri = 0;
  while (li < l.order.length || ri < r.order.length) {
    if (li < l.order.length && emitted.has(l.order[li]!.id)) {
      li++;
      continue;
    }
    if (li < l.order.length && ri < r.order.length) {
      const lpe = l.order[li]!;
      if (lpe.id === r.order[ri]!.id) {
        emit(lpe);
        li++;
        ri++;
        sharedAt++;
        continue;
      }
      const next = shared[sharedAt];
      if (r.byId.has(lpe.id) && next !== undefined && next.id !== lpe.id) {
        // A shared item the applied order places later: skip it here.
        li++;
        continue;
      }
    }
    if (li < l.order.length && !r.byId.has(l.order[li]!.id)) {
      emit(l.order[li]!);
      li++;
      continue;
    }
    if (ri < r.order.length) {
      const pe = r.order[ri]!;
      if (!emitted.has(pe.id)) emit(pe);
      ri++;
      if (shared[sharedAt]?.id === pe.id) sharedAt++;
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
      out[k] = v;
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
