// Glue between the generic store and the field-management engine (src/core/fieldmanager):
// which schema a resource's fields are typed by, which fields a write path ignores, and how a
// non-apply write updates metadata.managedFields.
import type { ServedResource } from './catalog';
import type { Obj } from './objects';
import { subresourceWrite } from './subresource-write';
import { FieldManagerError, managedFieldsForUpdate, updateManagedFields, type ManagedFieldsEntry, type SchemaRoot, type VersionConverter } from '../fieldmanager';
import { builtinResources } from '../schema/index';
import { convert, convertibleKinds, needsConversion, parseApiVersion } from '../versions/index';

/** Who writes: `fieldManager`, or the User-Agent's prefix when it is unset. */
export interface FieldOwner {
  manager: string;
}

export function schemaRootFor(r: ServedResource): SchemaRoot {
  if (r.info.custom) return r.info.openAPIV3Schema ? { openAPIV3Schema: r.info.openAPIV3Schema } : { unstructured: true };
  return r.info.definition ? { definition: r.info.definition } : { unstructured: true };
}

const definitions = new Map<string, string | undefined>();

function definitionAt(apiVersion: string, kind: string): string | undefined {
  const key = `${apiVersion}/${kind}`;
  if (!definitions.has(key)) {
    const { group, version } = parseApiVersion(apiVersion);
    definitions.set(key, builtinResources.find((i) => i.group === group && i.version === version && i.kind === kind)?.definition);
  }
  return definitions.get(key);
}

/**
 * How the field manager sees a built-in at its other versions. Custom resources convert with
 * strategy None (only apiVersion changes), so their sets carry over as they are: no converter.
 */
export function versionConverterFor(r: ServedResource): VersionConverter | undefined {
  if (r.info.custom || !r.info.storageVersion) return undefined;
  // Built once per served resource: every write of the resource asks.
  let c = converters.get(r.info);
  if (c === undefined) converters.set(r.info, (c = builtinConverter(r.info.kind) ?? null));
  return c ?? undefined;
}

const converters = new WeakMap<object, VersionConverter | null>();

function builtinConverter(kind: string): VersionConverter | undefined {
  const served = convertibleKinds()[kind];
  if (!served) return undefined;
  const converts = (v: string) => served.includes(v) && definitionAt(v, kind) !== undefined;
  return {
    // Versions we cannot convert (or type) are read as the request's: the best we can do.
    samePaths: (a, b) => !converts(a) || !converts(b) || !needsConversion(kind, a, b),
    convert: (obj, from, to) => convert({ ...(obj as object), kind, apiVersion: from }, from, to),
    schema: (apiVersion) => ({ definition: definitionAt(apiVersion, kind)! }),
  };
}

/** kube's reset fields: what a manager writing through this subresource does not own (its write adapter's). */
export function ignoredFieldsFor(r: ServedResource, subresource: string): string[][] {
  return (subresourceWrite(r, subresource)?.resetFields ?? []).map((path) => [...path]);
}

function setManaged(obj: Obj, managed: ManagedFieldsEntry[]): void {
  if (managed.length) obj.metadata.managedFields = managed;
  else delete obj.metadata.managedFields;
}

/**
 * Record a create/update/patch by `owner` in next.metadata.managedFields (old undefined for create).
 * An object the field manager cannot type (a list-map item without its key, which validation
 * lets through for some kinds) is written without managedFields, as kube's UpdateNoErrors does:
 * the write goes on, and no garbage is recorded.
 */
export function trackWrite(r: ServedResource, old: Obj | undefined, next: Obj, subresource: string, owner: FieldOwner, time: string): void {
  const managed = managedFieldsForUpdate(next.metadata?.managedFields, old?.metadata?.managedFields);
  let out: ManagedFieldsEntry[];
  try {
    out = trackedFields(r, old, next, subresource, owner, time, managed);
  } catch (error) {
    if (!(error instanceof FieldManagerError)) throw error;
    out = [];
  }
  setManaged(next, out);
}

function trackedFields(r: ServedResource, old: Obj | undefined, next: Obj, subresource: string, owner: FieldOwner, time: string, managed: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  return updateManagedFields({
    old,
    next,
    managed,
    manager: owner.manager,
    apiVersion: r.apiVersion,
    subresource: subresource || undefined,
    time,
    schema: schemaRootFor(r),
    ignoredFields: ignoredFieldsFor(r, subresource),
    versions: versionConverterFor(r),
  });
}
