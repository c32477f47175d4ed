// Server-Side Apply and field management (the engine; no HTTP). Semantics of kube-apiserver
// v1.23's fieldmanager over structured-merge-diff v4, layered like kube's managers:
//   strip untracked metadata → merge/ownership (updater.ts) → fold into the manager's entry
//   and stamp its time → cap Update entries → encode sorted entries.
//
// Caller contract (the lead wires this into the handlers):
// - updateManagedFields for POST/PUT/non-apply PATCH. Pick `managed` like kube does:
//   `managedFieldsForUpdate(requestedManagedFields, liveManagedFields)` — a reset request
//   (`[]` or `[{}]`) gives [], valid non-empty requested entries are used as they are (kubectl's
//   client-side → server-side migration sends them in a JSON patch), anything else falls back to
//   the live entries. Store the returned entries as metadata.managedFields (omit when empty).
// - applyPatch for apply patches: `managed` = the live object's entries (decodeManagedFields);
//   the returned object already carries the new metadata.managedFields. When it deep-equals
//   the live object the write can be skipped (no new resourceVersion).
// - versions: for resources served at several versions whose field paths differ, how to convert
//   objects between them; managers that wrote through another version are then compared there.
// - ignoredFields = kube's reset fields for the write path, e.g. [['status']] for the main
//   resource of kinds with a status subresource and [['spec']] (plus whatever the kind's status
//   strategy resets) for /status. They are never owned, and applyPatch keeps their live values.
import { type Conflict, conflictMessages, conflictsFromSets } from './conflicts';
import { createdFieldsV1 } from './create-fields';
import { rememberManagedFieldsText } from './managed-text';
import { FieldSet } from './fieldset';
import {
  capUpdateManagers,
  type DecodedManaged,
  decodeManagedFields,
  decodeToSets,
  encodeFromSets,
  isResetManagedFields,
  type ManagedFieldsEntry,
  type ManagerInfo,
  managerIdentifier,
  STRIPPED_FIELDS,
  validateManagedFields,
} from './managed';
import { fieldElement } from './pathelement';
import { emptyObject, rootType, type SchemaRoot } from './schema';
import { FieldManagerError } from './typed';
import { appliedTypeErrors } from './validate-applied';
import { applyOwnership, type ConflictSets, updateOwnership, type UpdaterContext } from './updater';
import { allowedConflictsFromLastApplied, CLIENT_SIDE_MIGRATING_MANAGER, hasLastApplied, removeLastAppliedManagers, withLastApplied } from './last-applied';
import { managerFromUserAgent } from './useragent';
import { isMap } from './value';
import { type VersionConverter, VersionViews } from './versions';
import { setOwnKey } from '../codec/own-keys';

export type { Conflict, ManagedFieldsEntry, SchemaRoot, VersionConverter };
export { managedFieldsText } from './managed-text';
export { conflictMessages, decodeManagedFields, FieldManagerError, isResetManagedFields, managerFromUserAgent, validateManagedFields };

/** The manager name kube uses for fields that existed before the first apply. */
export const BEFORE_FIRST_APPLY = 'before-first-apply';

interface WriteArgs {
  managed: ManagedFieldsEntry[];
  manager: string;
  apiVersion: string;
  subresource?: string;
  time: string;
  schema: SchemaRoot;
  /** Top-level-first field paths this write path ignores (kube's reset fields). */
  ignoredFields?: string[][];
  /**
   * How to see the object at other apiVersions of the resource: managers that wrote through
   * another version are compared (and pruned) there, as kube does. Absent: every set is read
   * at the request's version.
   */
  versions?: VersionConverter;
}

/**
 * Non-apply write (create, update, patch): fields whose value changed (or were added) move to
 * `manager` (one Update entry per manager, apiVersion and subresource); removed fields leave
 * everyone's sets; never conflicts. `old` = undefined for create. An update of an object with no
 * entries records nothing.
 */
export function updateManagedFields(args: WriteArgs & { old?: object; next: object }): ManagedFieldsEntry[] {
  // kube's skipNonAppliedManager (track-on-create probability 1): an object nobody manages
  // (reset, or left owning nothing) stays untracked through updates until the next apply, which
  // then records what exists under before-first-apply. Creates are always tracked.
  if (args.old && args.managed.length === 0) return [];
  const ctx = context(args);
  const skeleton = emptyObject(args.schema);
  const next = withSkeleton(withoutManagedFields(args.next), skeleton);
  // A create with no managedFields: nobody else owns anything, so the writer simply gets
  // what the create added (create-fields.ts; same result as the general path), from the kind's
  // empty object, which the create fast path only reads (made once per skeleton).
  if (!args.old && args.managed.length === 0) return createEntries(args, emptyFilled(skeleton), next, ctx);
  const old = withSkeleton(args.old ? withoutManagedFields(args.old) : {}, skeleton);
  return updateByOwnership(args, old, next, ctx);
}

const emptyFilledBySkeleton = new WeakMap<object, Record<string, unknown>>();

/** withSkeleton({}, skeleton), remembered: read, never written, by createdFieldsV1. */
function emptyFilled(skeleton: Record<string, unknown>): Record<string, unknown> {
  let filled = emptyFilledBySkeleton.get(skeleton);
  if (!filled) emptyFilledBySkeleton.set(skeleton, (filled = withSkeleton({}, skeleton)));
  return filled;
}

/** updateManagedFields' general path (exported so tests can hold the create fast path to it). */
export function updateManagedFieldsByOwnership(args: WriteArgs & { old?: object; next: object }): ManagedFieldsEntry[] {
  const skeleton = emptyObject(args.schema);
  const old = withSkeleton(args.old ? withoutManagedFields(args.old) : {}, skeleton);
  return updateByOwnership(args, old, withSkeleton(withoutManagedFields(args.next), skeleton), context(args));
}

function updateByOwnership(args: WriteArgs, old: object, next: object, ctx: UpdaterContext): ManagedFieldsEntry[] {
  const d = decodeToSets(args.managed);
  const info = managerInfo(args, 'Update');
  const id = managerIdentifier(info);
  const r = updateOwnership(old, next, args.apiVersion, d.sets, id, ctx);
  d.sets = r.managers;
  if (r.changed) {
    d.info.set(id, info);
    d.times.set(id, args.time);
  }
  capUpdateManagers(d);
  return encodeFromSets(d);
}

/**
 * Server-side apply: merges `applied` into `live` (undefined = create) and returns the merged
 * object (with its new metadata.managedFields) and the entries, or the conflicts when `force`
 * is false. Throws FieldManagerError for values it cannot track (e.g. a list-map item without
 * its key). The manager `kubectl` also migrates from client-side apply (last-applied.ts).
 */
export function applyPatch(
  args: WriteArgs & { live?: object; applied: object; force: boolean; appliedConfig?: object },
): { object: object; managed: ManagedFieldsEntry[] } | { conflicts: Conflict[] } {
  const ctx = context(args);
  const live = args.live ? withoutManagedFields(args.live) : undefined;
  const applied = withoutManagedFields(args.applied);
  // SMD types the applied configuration before anything else: a mistyped scalar fails it.
  const typeErrors = appliedTypeErrors(applied, ctx.type);
  if (typeErrors.length === 1) throw new FieldManagerError(typeErrors[0]!);
  if (typeErrors.length > 1) throw new FieldManagerError(['errors:', ...typeErrors.map((e) => `  ${e}`)].join('\n'));
  const migrating = args.manager === CLIENT_SIDE_MIGRATING_MANAGER;
  let r = applyToSets(args, ctx, live, applied, decodeToSets(args.managed), args.force);
  if ('conflicts' in r) {
    if (!migrating) return { conflicts: conflictsFromSets(r.conflicts, r.info) };
    // lastAppliedManager: conflicts the annotation explains are forced, the others reported.
    const allowed = live ? allowedConflictsFromLastApplied(live, args.apiVersion, ctx.type) : undefined;
    if (!allowed) return { conflicts: conflictsFromSets(r.conflicts, r.info) };
    const left = new Map<string, FieldSet>();
    for (const [id, set] of r.conflicts) {
      const rest = set.difference(allowed);
      if (!rest.isEmpty()) left.set(id, rest);
    }
    if (left.size > 0) return { conflicts: conflictsFromSets(left, r.info) };
    const managed = decodeToSets(args.managed);
    removeLastAppliedManagers(managed);
    r = applyToSets(args, ctx, live, applied, managed, true);
    if ('conflicts' in r) return { conflicts: conflictsFromSets(r.conflicts, r.info) };
  } else if (migrating) removeLastAppliedManagers(r.d);
  const managed = encodeFromSets(r.d);
  let object = withManagedFields(r.object, managed, args.live) as Record<string, unknown>;
  // lastAppliedUpdater: an annotation the result carries follows kubectl's applied configuration.
  if (migrating && hasLastApplied(object)) object = withLastApplied(object, (args.appliedConfig ?? args.applied) as Record<string, unknown>);
  return { object, managed };
}

type SetsApplied = { d: DecodedManaged; object: Record<string, unknown> } | { conflicts: ConflictSets; info: Map<string, ManagerInfo> };

/** One pass of the apply over decoded managedFields (`d` is changed in place). */
function applyToSets(args: WriteArgs, ctx: UpdaterContext, live: Record<string, unknown> | undefined, applied: object, d: DecodedManaged, force: boolean): SetsApplied {
  if (live && d.sets.size === 0) {
    // kube first hands every existing field to an Update entry, so that the applier
    // conflicts with "before-first-apply" instead of silently taking them.
    const bfa = managerInfo({ ...args, manager: BEFORE_FIRST_APPLY }, 'Update');
    const skeleton = emptyObject(args.schema);
    const r = updateOwnership(skeleton, withSkeleton(live, skeleton), args.apiVersion, d.sets, managerIdentifier(bfa), ctx);
    d.sets = r.managers;
    if (r.changed) {
      d.info.set(managerIdentifier(bfa), bfa);
      d.times.set(managerIdentifier(bfa), args.time);
    }
    capUpdateManagers(d);
  }
  const info = managerInfo(args, 'Apply');
  const id = managerIdentifier(info);
  const r = applyOwnership(live ?? {}, applied, args.apiVersion, d.sets, id, force, ctx);
  if ('conflicts' in r) return { conflicts: r.conflicts, info: d.info };
  d.sets = r.managers;
  d.info.set(id, info);
  // An apply that changed nothing keeps the applier's previous time (none if it is new).
  if (!r.noop) d.times.set(id, args.time);
  capUpdateManagers(d);
  return { d, object: r.noop && live ? live : (r.object as Record<string, unknown>) };
}

function createEntries(args: WriteArgs, old: object, next: object, ctx: UpdaterContext): ManagedFieldsEntry[] {
  const fields = createdFieldsV1(old, next, ctx.type, ctx.ignored, ctx.strip);
  if (!fields) return [];
  // Field order as encodeFromSets writes entries; the text is what JSON.stringify writes for them.
  // manager is omitempty (a write with no field manager and no User-Agent has none).
  const e = (args.manager ? { manager: args.manager, operation: 'Update', apiVersion: args.apiVersion } : { operation: 'Update', apiVersion: args.apiVersion }) as ManagedFieldsEntry;
  let text = `[{${args.manager ? `"manager":${JSON.stringify(args.manager)},` : ''}"operation":"Update","apiVersion":${JSON.stringify(args.apiVersion)}`;
  if (args.time) {
    e.time = args.time;
    text += `,"time":${JSON.stringify(args.time)}`;
  }
  e.fieldsType = 'FieldsV1';
  e.fieldsV1 = fields.fieldsV1;
  text += `,"fieldsType":"FieldsV1","fieldsV1":${fields.text}`;
  if (args.subresource) {
    e.subresource = args.subresource;
    text += `,"subresource":${JSON.stringify(args.subresource)}`;
  }
  const entries = [e];
  rememberManagedFieldsText(entries, `${text}}]`);
  return entries;
}

/** kube's choice of the managedFields an Update starts from (see the contract above). */
export function managedFieldsForUpdate(requested: unknown, live: unknown): ManagedFieldsEntry[] {
  if (isResetManagedFields(requested)) return [];
  if (requested !== undefined && requested !== null) {
    const d = decodeManagedFields(requested);
    if ('entries' in d && d.entries.length > 0) return d.entries;
  }
  const l = decodeManagedFields(live);
  return 'entries' in l ? l.entries : [];
}

function context(args: WriteArgs): UpdaterContext {
  const ctx: UpdaterContext = { type: rootType(args.schema), strip: STRIPPED_FIELDS };
  if (args.versions) ctx.views = new VersionViews(args.apiVersion, ctx.type, args.versions);
  if (args.ignoredFields && args.ignoredFields.length > 0) ctx.ignored = FieldSet.of(...args.ignoredFields.map((p) => p.map(fieldElement)));
  return ctx;
}

function managerInfo(args: WriteArgs, operation: 'Apply' | 'Update'): ManagerInfo {
  const info: ManagerInfo = { manager: args.manager, operation, apiVersion: args.apiVersion };
  if (args.subresource) info.subresource = args.subresource;
  return info;
}

function withoutManagedFields(obj: object): Record<string, unknown> {
  const o = obj as Record<string, unknown>;
  if (!isMap(o.metadata) || !('managedFields' in o.metadata)) return o;
  const { managedFields: _drop, ...metadata } = o.metadata;
  return { ...o, metadata };
}

function withManagedFields(obj: Record<string, unknown>, managed: ManagedFieldsEntry[], original?: object): object {
  const metadata: Record<string, unknown> = { ...(isMap(obj.metadata) ? obj.metadata : {}) };
  const hadField = isMap((original as Record<string, unknown> | undefined)?.metadata) && 'managedFields' in ((original as Record<string, unknown>).metadata as object);
  if (managed.length > 0) {
    if (hadField) {
      // Keep the field where the live object had it.
      const before = (original as Record<string, Record<string, unknown>>).metadata!;
      const ordered: Record<string, unknown> = {};
      for (const k of Object.keys(before)) if (k === 'managedFields' || Object.hasOwn(metadata, k)) setOwnKey(ordered, k, k === 'managedFields' ? managed : metadata[k]);
      for (const k of Object.keys(metadata)) if (!Object.hasOwn(ordered, k)) setOwnKey(ordered, k, metadata[k]);
      return { ...obj, metadata: ordered };
    }
    metadata.managedFields = managed;
  } else delete metadata.managedFields;
  return { ...obj, metadata };
}

/** Fills in the value-typed struct fields kube's Go objects always carry (see schema.ts). */
function withSkeleton(obj: Record<string, unknown>, skeleton: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const k in skeleton) {
    const have = obj[k];
    const sk = skeleton[k];
    const filled = !isMap(sk) ? (have === undefined ? sk : have) : have === undefined ? withSkeleton({}, sk) : isMap(have) ? withSkeleton(have, sk) : have;
    if (filled !== have) (out ??= { ...obj })[k] = filled;
  }
  return out ?? obj;
}
