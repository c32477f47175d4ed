// The ownership bookkeeping of structured-merge-diff's merge.Updater: who loses fields when an
// object changes, conflicts for appliers, and pruning of fields an applier stopped applying.
// Managers are keyed by kube's manager identifier (see managers.ts); a manager's set is read at
// the apiVersion it was recorded with (versions.ts), converting objects where paths differ.
import { compare, type Comparison, isSame } from './compare';
import type { FieldSet } from './fieldset';
import { mergeValues, removeItems } from './merge';
import type { TypeNode } from './schema';
import { ensureNamedFieldsAreMembers, toFieldSet } from './typed';
import { deepEqual, isMap } from './value';
import { comparisonsByView, setsByView, type VersionViews } from './versions';
import { ownValue, setOwnKey } from '../codec/own-keys';

export interface VersionedSet {
  set: FieldSet;
  apiVersion: string;
  applied: boolean;
}

export type ManagerSets = Map<string, VersionedSet>;

export interface UpdaterContext {
  type: TypeNode;
  /** Fields this write path never owns nor changes (kube's reset fields, e.g. `status`). */
  ignored?: FieldSet;
  /** Fields never recorded for the writing manager (apiVersion, kind, metadata.name, ...). */
  strip?: FieldSet;
  /** Other versions' views, when managers may have written through another apiVersion. */
  views?: VersionViews;
}

/** Other managers whose fields a change would take: manager id → conflicting fields. */
export type ConflictSets = Map<string, FieldSet>;

function excludeIgnored(c: Comparison, ignored: FieldSet | undefined): Comparison {
  if (!ignored || ignored.isEmpty()) return c;
  return {
    added: c.added.recursiveDifference(ignored),
    modified: c.modified.recursiveDifference(ignored),
    removed: c.removed.recursiveDifference(ignored),
  };
}

/**
 * Takes changed fields away from every manager but `workflow` and forgets removed fields;
 * with force=false, any field another manager owns that changes is a conflict instead.
 */
function takeOwnership(
  oldObj: unknown,
  newObj: unknown,
  managers: ManagerSets,
  workflow: string,
  force: boolean,
  ctx: UpdaterContext,
): { managers: ManagerSets; comparison: Comparison } | { conflicts: ConflictSets } {
  const exclude = (c: Comparison) => excludeIgnored(c, ctx.ignored);
  const comparison = exclude(compare(oldObj, newObj, ctx.type));
  // Each manager's set is compared with the change as seen at its own version (kube converts
  // the old and new objects to every other manager's version).
  const views = ctx.views;
  const atView = views ? comparisonsByView(views, oldObj, newObj, exclude) : undefined;
  const comparisonOf = (apiVersion: string): Comparison => {
    if (!views || !atView) return comparison;
    const view = views.viewOf(apiVersion);
    return view === views.apiVersion ? comparison : atView(view);
  };
  const changedByView = new Map<Comparison, FieldSet>();
  const changedIn = (c: Comparison): FieldSet => {
    let set = changedByView.get(c);
    if (!set) changedByView.set(c, (set = c.modified.union(c.added)));
    return set;
  };
  const conflicts: ConflictSets = new Map();
  for (const [id, vs] of managers) {
    if (id === workflow) continue;
    const c = vs.set.intersection(changedIn(comparisonOf(vs.apiVersion)));
    if (!c.isEmpty()) conflicts.set(id, c);
  }
  if (!force && conflicts.size > 0) return { conflicts };
  const out: ManagerSets = new Map();
  for (const [id, vs] of managers) {
    let set = vs.set;
    const c = conflicts.get(id);
    if (c) set = set.difference(c);
    if (id !== workflow) set = set.difference(comparisonOf(vs.apiVersion).removed);
    if (!set.isEmpty()) out.set(id, set === vs.set ? vs : { ...vs, set });
  }
  return { managers: out, comparison };
}

/**
 * A non-apply write: the fields it changed (minus removed and ignored ones, minus `ctx.strip`)
 * join `manager`'s set, taken from everyone else; removed fields leave every set.
 * `changed` tells whether the write touched any field, which decides the entry's timestamp.
 */
export function updateOwnership(
  oldObj: unknown,
  newObj: unknown,
  apiVersion: string,
  managers: ManagerSets,
  manager: string,
  ctx: UpdaterContext,
): { managers: ManagerSets; changed: boolean } {
  // kube runs the update as a separate "current-operation" manager and then folds it into
  // the real one, so the manager's own earlier fields are handled like anyone else's.
  const r = takeOwnership(oldObj, newObj, managers, CURRENT_OPERATION, true, ctx);
  if ('conflicts' in r) throw new Error('unreachable: forced update reported conflicts');
  const { comparison } = r;
  let current = comparison.modified.union(comparison.added).difference(comparison.removed);
  if (ctx.ignored) current = current.recursiveDifference(ctx.ignored);
  if (ctx.strip) current = current.difference(ctx.strip);
  const out = r.managers;
  if (current.isEmpty()) return { managers: out, changed: false };
  const previous = out.get(manager);
  out.set(manager, { set: previous ? current.union(previous.set) : current, apiVersion, applied: false });
  return { managers: out, changed: true };
}

const CURRENT_OPERATION = '\u0000current-operation';

export interface ApplyResult {
  object: unknown;
  managers: ManagerSets;
  /** True when the merged object equals the live one (nothing to write but managedFields). */
  noop: boolean;
}

/** Server-side apply of `config` onto `live` by `manager`. */
export function applyOwnership(
  live: unknown,
  config: unknown,
  apiVersion: string,
  managers: ManagerSets,
  manager: string,
  force: boolean,
  ctx: UpdaterContext,
): ApplyResult | { conflicts: ConflictSets } {
  let merged = mergeValues(live, config, ctx.type);
  const lastSet = managers.get(manager);
  let set = toFieldSet(config, ctx.type);
  let last = lastSet?.set;
  const lastView = lastSet && ctx.views ? ctx.views.viewOf(lastSet.apiVersion) : apiVersion;
  if (ctx.ignored) {
    set = set.recursiveDifference(ctx.ignored);
    if (last) last = last.recursiveDifference(ctx.ignored);
  }
  const withApplier: ManagerSets = new Map(managers);
  withApplier.set(manager, { set, apiVersion, applied: true });
  // Pruning can only remove what the applier owned before and no longer applies.
  if (last && lastView !== apiVersion && ctx.views) merged = pruneAcrossVersions(merged, withApplier, last, lastView, ctx.views);
  else if (last && !last.difference(set).isEmpty()) merged = prune(merged, withApplier, last, ctx.type);
  if (ctx.ignored) merged = restoreIgnored(merged, live, ctx.ignored);
  const r = takeOwnership(live, merged, withApplier, manager, force, ctx);
  if ('conflicts' in r) return r;
  const mine = r.managers.get(manager);
  if (mine && ctx.strip) {
    const stripped = mine.set.difference(ctx.strip);
    if (stripped.isEmpty()) r.managers.delete(manager);
    else r.managers.set(manager, { ...mine, set: stripped });
  }
  return { object: merged, managers: r.managers, noop: isSame(r.comparison) && deepEqual(live, merged) };
}

/**
 * Removes what the applier owned last time and no longer applies, unless another manager (or
 * the new configuration) still owns it; only fields the applier owned are ever removed.
 */
function prune(merged: unknown, managers: ManagerSets, last: FieldSet, t: TypeNode): unknown {
  const ensure = (s: FieldSet) => ensureNamedFieldsAreMembers(s, t);
  const lastE = ensure(last);
  let pruned = removeItems(merged, lastE, t) ?? {};
  let owned: FieldSet | undefined;
  for (const vs of managers.values()) owned = owned ? owned.union(vs.set) : vs.set;
  const mergedSet = ensure(toFieldSet(merged, t));
  const keep = ensure(toFieldSet(pruned, t)).union(owned ? ensure(owned) : lastE.difference(lastE));
  pruned = removeItems(merged, mergedSet.difference(keep), t) ?? {};
  const prunedSet = ensure(toFieldSet(pruned, t));
  return removeItems(merged, mergedSet.difference(prunedSet).intersection(lastE), t) ?? {};
}

/**
 * prune() when the applier last applied through a version whose paths differ: kube removes the
 * dropped fields at that version, adds back what any manager owns (at each manager's version,
 * starting with the pruned one), then converts the result back to the request's version.
 */
function pruneAcrossVersions(merged: unknown, managers: ManagerSets, last: FieldSet, lastView: string, views: VersionViews): unknown {
  const req = views.apiVersion;
  const ensure = (s: FieldSet, t: TypeNode) => ensureNamedFieldsAreMembers(s, t);
  const tl = views.typeAt(lastView);
  const mergedL = views.convert(merged, req, lastView);
  const lastE = ensure(last, tl);
  let pruned: unknown = removeItems(mergedL, lastE, tl) ?? {};
  let at = lastView;
  const owned = setsByView(views, managers.values());
  const order = [...owned.keys()].sort((a, b) => (a === lastView ? -1 : b === lastView ? 1 : 0));
  for (const view of order) {
    const t = views.typeAt(view);
    const mergedV = views.convert(merged, req, view);
    pruned = views.convert(pruned, at, view);
    at = view;
    const keep = ensure(toFieldSet(pruned, t), t).union(ensure(owned.get(view)!, t));
    pruned = removeItems(mergedV, ensure(toFieldSet(mergedV, t), t).difference(keep), t) ?? {};
  }
  pruned = views.convert(pruned, at, lastView);
  const mergedSet = ensure(toFieldSet(mergedL, tl), tl);
  const dangling = mergedSet.difference(ensure(toFieldSet(pruned, tl), tl)).intersection(lastE);
  return views.convert(removeItems(mergedL, dangling, tl) ?? {}, lastView, req);
}

/**
 * Puts the live values back at ignored paths: kube's strategies reset these fields (status on
 * the main resource, spec on /status) whatever the request said.
 */
function restoreIgnored(merged: unknown, live: unknown, ignored: FieldSet): unknown {
  if (!isMap(merged)) return merged;
  const out: Record<string, unknown> = { ...merged };
  const liveMap = isMap(live) ? live : {};
  ignored.forEachEntry((pe, member, child) => {
    if (pe.kind !== 'field') return;
    const k = pe.name;
    if (member) {
      if (Object.hasOwn(liveMap, k)) setOwnKey(out, k, liveMap[k]);
      else delete out[k];
    } else if (child && Object.hasOwn(out, k) && isMap(out[k])) setOwnKey(out, k, restoreIgnored(out[k], ownValue(liveMap, k), child));
  });
  return out;
}
