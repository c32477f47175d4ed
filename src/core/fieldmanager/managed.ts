// managedFields entries as kube-apiserver stores them: decoding and validation, manager
// identifiers, the order entries are written in, the cap on Update entries and the metadata
// fields that are never tracked.
import { FieldSet } from './fieldset';
import { type FieldsV1, fromFieldsV1, toFieldsV1 } from './fieldsv1';
import { fieldElement } from './pathelement';
import type { ManagerSets } from './updater';
import { goJson, isMap } from './value';

export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

/** Who a manager is, as kube distinguishes them. */
export interface ManagerInfo {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  subresource?: string;
}

/** Decoded managedFields: sets by manager identifier, plus what the identifier stands for. */
export interface DecodedManaged {
  sets: ManagerSets;
  info: Map<string, ManagerInfo>;
  times: Map<string, string | undefined>;
}

/**
 * kube's manager identifier: the entry without time and fields, as Go marshals it; appliers
 * leave out apiVersion so that one applier stays one entry across versions.
 */
export function managerIdentifier(m: ManagerInfo): string {
  let s = `{"manager":${goJson(m.manager)},"operation":${goJson(m.operation)}`;
  if (m.operation === 'Update' && m.apiVersion) s += `,"apiVersion":${goJson(m.apiVersion)}`;
  if (m.subresource) s += `,"subresource":${goJson(m.subresource)}`;
  return `${s}}`;
}

/**
 * Decodes managedFields (the list itself, or an object whose metadata.managedFields is read),
 * failing with kube's wording for malformed entries.
 */
export function decodeManagedFields(v: unknown): { entries: ManagedFieldsEntry[] } | { error: string } {
  if (isMap(v) && !Array.isArray(v)) v = isMap(v.metadata) ? v.metadata.managedFields : undefined;
  if (v === undefined || v === null) return { entries: [] };
  if (!Array.isArray(v)) return { error: 'managedFields must be a list' };
  const entries: ManagedFieldsEntry[] = [];
  for (let i = 0; i < v.length; i++) {
    const e = v[i] as Record<string, unknown>;
    if (!isMap(e)) return { error: `managed fields entry ${i} must be an object` };
    if (e.operation !== 'Apply' && e.operation !== 'Update') return { error: 'operation must be `Apply` or `Update`' };
    if (typeof e.apiVersion !== 'string' || e.apiVersion.length < 1) return { error: 'apiVersion must not be empty' };
    if (e.fieldsType === undefined || e.fieldsType === '') return { error: `missing fieldsType in managed fields entry ${i}` };
    if (e.fieldsType !== 'FieldsV1') return { error: `invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}` };
    try {
      fromFieldsV1(e.fieldsV1 ?? {});
    } catch (err) {
      return { error: `error decoding versioned set from managed fields entry ${i}: ${(err as Error).message}` };
    }
    const entry: ManagedFieldsEntry = {
      manager: typeof e.manager === 'string' ? e.manager : '',
      operation: e.operation,
      apiVersion: e.apiVersion,
      fieldsType: 'FieldsV1',
      fieldsV1: (e.fieldsV1 ?? {}) as Record<string, unknown>,
    };
    if (typeof e.time === 'string' && e.time) entry.time = e.time;
    if (typeof e.subresource === 'string' && e.subresource) entry.subresource = e.subresource;
    // Field order as kube writes entries: manager, operation, apiVersion, time, fieldsType, fieldsV1, subresource.
    entries.push(reorder(entry));
  }
  return { entries };
}

/** The 422 causes kube's ObjectMeta validation gives for malformed entries. */
export function validateManagedFields(v: unknown, fieldPath = 'metadata.managedFields'): Array<{ type: 'FieldValueInvalid' | 'FieldValueTooLong'; field: string; value: unknown; detail: string }> {
  const errs: Array<{ type: 'FieldValueInvalid' | 'FieldValueTooLong'; field: string; value: unknown; detail: string }> = [];
  if (!Array.isArray(v)) return errs;
  v.forEach((raw, i) => {
    const e = (isMap(raw) ? raw : {}) as Record<string, unknown>;
    const at = `${fieldPath}[${i}]`;
    if (e.operation !== 'Apply' && e.operation !== 'Update') errs.push({ type: 'FieldValueInvalid', field: `${at}.operation`, value: e.operation ?? '', detail: 'must be `Apply` or `Update`' });
    if (typeof e.fieldsType === 'string' && e.fieldsType !== '' && e.fieldsType !== 'FieldsV1') errs.push({ type: 'FieldValueInvalid', field: `${at}.fieldsType`, value: e.fieldsType, detail: 'must be `FieldsV1`' });
    const manager = typeof e.manager === 'string' ? e.manager : '';
    if (manager.length > 128) errs.push({ type: 'FieldValueTooLong', field: `${at}.manager`, value: manager, detail: 'must have at most 128 bytes' });
    if (typeof e.subresource === 'string' && e.subresource.length > 256) errs.push({ type: 'FieldValueTooLong', field: `${at}.subresource`, value: e.subresource, detail: 'must have at most 256 bytes' });
  });
  return errs;
}

/** `[]` or `[{}]`: a write asking kube to forget all ownership. */
export function isResetManagedFields(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  if (v.length === 0) return true;
  return v.length === 1 && isMap(v[0]) && Object.values(v[0]).every((x) => x === undefined || x === null || x === '' || (isMap(x) && Object.keys(x).length === 0));
}

export function decodeToSets(entries: readonly ManagedFieldsEntry[]): DecodedManaged {
  const out: DecodedManaged = { sets: new Map(), info: new Map(), times: new Map() };
  for (const e of entries) {
    const info: ManagerInfo = { manager: e.manager, operation: e.operation, apiVersion: e.apiVersion };
    if (e.subresource) info.subresource = e.subresource;
    const id = managerIdentifier(info);
    out.sets.set(id, { set: fromFieldsV1(e.fieldsV1), apiVersion: e.apiVersion, applied: e.operation === 'Apply' });
    out.info.set(id, info);
    out.times.set(id, e.time);
  }
  return out;
}

/** Encodes sets back into entries, in kube's order: Apply before Update, then time, manager, ... */
export function encodeFromSets(d: DecodedManaged): ManagedFieldsEntry[] {
  const entries: ManagedFieldsEntry[] = [];
  for (const [id, vs] of d.sets) {
    const info = d.info.get(id);
    if (!info) continue;
    const e: ManagedFieldsEntry = { manager: info.manager, operation: info.operation, apiVersion: vs.apiVersion, fieldsType: 'FieldsV1', fieldsV1: toFieldsV1(vs.set) as FieldsV1 };
    const t = d.times.get(id);
    if (t) e.time = t;
    if (info.subresource) e.subresource = info.subresource;
    entries.push(reorder(e));
  }
  return entries.sort(compareEntries);
}

function reorder(e: ManagedFieldsEntry): ManagedFieldsEntry {
  // manager is omitempty (a write with no field manager and no User-Agent has none).
  const out = (e.manager ? { manager: e.manager, operation: e.operation, apiVersion: e.apiVersion } : { operation: e.operation, apiVersion: e.apiVersion }) as ManagedFieldsEntry;
  if (e.time !== undefined) out.time = e.time;
  out.fieldsType = e.fieldsType;
  out.fieldsV1 = e.fieldsV1;
  if (e.subresource !== undefined) out.subresource = e.subresource;
  return out;
}

/** Seconds since the epoch, as kube compares times (a missing time counts as 0). */
export function unixSeconds(t: string | undefined): number {
  if (!t) return 0;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

function str(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareEntries(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  return (
    str(p.operation, q.operation) ||
    unixSeconds(p.time) - unixSeconds(q.time) ||
    str(p.manager, q.manager) ||
    str(p.apiVersion, q.apiVersion) ||
    str(p.subresource ?? '', q.subresource ?? '')
  );
}

export const MAX_UPDATE_MANAGERS = 10;
export const ANCIENT_CHANGES = 'ancient-changes';

/**
 * Keeps at most 10 Update entries: the oldest are folded, per apiVersion, into an
 * `ancient-changes` Update entry carrying the time of the newest update folded in.
 */
export function capUpdateManagers(d: DecodedManaged, max = MAX_UPDATE_MANAGERS): void {
  const updaters = [...d.sets.entries()].filter(([, vs]) => !vs.applied).map(([id]) => id);
  if (updaters.length <= max) return;
  updaters.sort((a, b) => unixSeconds(d.times.get(a)) - unixSeconds(d.times.get(b)) || str(a, b));
  const firstByVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i]!;
    const vs = d.sets.get(id)!;
    const version = vs.apiVersion;
    const bucketInfo: ManagerInfo = { manager: ANCIENT_CHANGES, operation: 'Update', apiVersion: version };
    const bucket = managerIdentifier(bucketInfo);
    const first = firstByVersion.get(version);
    if (first === undefined) {
      firstByVersion.set(version, id);
      continue;
    }
    if (!d.sets.has(bucket)) {
      // The first update of this version becomes the bucket.
      d.sets.set(bucket, d.sets.get(first)!);
      d.sets.delete(first);
      d.info.delete(first);
      d.times.delete(first);
      d.info.set(bucket, bucketInfo);
    }
    d.sets.set(bucket, { set: vs.set.union(d.sets.get(bucket)!.set), apiVersion: vs.apiVersion, applied: false });
    d.times.set(bucket, d.times.get(id));
    d.sets.delete(id);
    d.info.delete(id);
    d.times.delete(id);
    length--;
  }
}

/** Fields kube never records in managedFields (stripMetaManager). */
export const STRIPPED_FIELDS: FieldSet = FieldSet.of(
  [fieldElement('apiVersion')],
  [fieldElement('kind')],
  [fieldElement('metadata')],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((f) => [fieldElement('metadata'), fieldElement(f)]),
);
