// Server-side apply: PATCH with application/apply-patch+yaml. Creates the object when missing
// (201), otherwise merges the applied configuration (200), with field ownership and conflicts
// from the field-management engine.
import type { ApiResponse } from '../meta/types';
import { queryFlag, type RequestContext } from './context';
import type { OutputFormat } from '../meta/output';
import { ApiError, badRequest, conflict } from '../meta/status';
import { createObject, updateObject } from '../registry/store';
import { encodeValue, objectResponse } from './respond';
import { subresourceView, type SubresourceView } from '../registry/subresource-view';
import { bodyText } from '../codec/json';
import { tooDeepAt } from '../codec/json-scan';
import { parseYaml } from '../codec/yaml';
import { applyPatch, conflictMessages, decodeManagedFields, FieldManagerError, type ManagedFieldsEntry, type SchemaRoot, type VersionConverter } from '../fieldmanager';

import { servesObjectItself } from '../registry/subresource-write';
import { ignoredFieldsFor, schemaRootFor, versionConverterFor } from '../registry/managed-fields';
import { badRequestInvalid } from './options';
import { schemaContext } from './body';
import { GoTypeChecker } from '../validation/fieldvalidation/go-types';
import { requestAttributes } from './admission-attributes';
import { clone, rfc3339, type Obj } from '../registry/objects';
import { objectKey, type ServedResource } from '../registry/catalog';
import type { RegistryContext } from '../registry/context';

/** Per API server: object key → the configuration whose apply produced (or left) that revision. */
const lastAppliedByRegistry = new WeakMap<RegistryContext, Map<string, { rev: number; fingerprint: string }>>();
const LAST_APPLIED_LIMIT = 1000;

function lastApplied(reg: RegistryContext): Map<string, { rev: number; fingerprint: string }> {
  let m = lastAppliedByRegistry.get(reg);
  if (!m) {
    m = new Map();
    lastAppliedByRegistry.set(reg, m);
  }
  return m;
}

function tryJson(text: string): unknown {
  // Too deep for what follows: the YAML reader words the refusal.
  if (tooDeepAt(text) >= 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function conflictError(conflicts: Parameters<typeof conflictMessages>[0]): ApiError {
  const { message, causes } = conflictMessages(conflicts);
  return new ApiError(409, 'Conflict', message, { causes });
}

/**
 * Read and check the applied configuration against the URL. `config` is the configuration as
 * sent (kubectl's last-applied annotation is written from it), `obj` the one applied (metadata
 * and name filled in from the URL).
 */
function appliedObject(rc: RequestContext): { obj: Obj; config: Obj } {
  const text = bodyText(rc.req.body);
  let obj: Obj;
  // kubectl, helm and client-node send JSON; JSON.parse is far cheaper than the YAML reader.
  const json = text.trimStart().startsWith('{') ? tryJson(text) : undefined;
  if (json !== undefined) {
    obj = json as Obj;
  } else {
    const parsed = parseYaml(text);
    if (!parsed.ok) throw badRequest(`error decoding YAML: ${parsed.message}`);
    obj = parsed.value as Obj;
  }
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw badRequest('error decoding YAML: the applied configuration must be an object');
  // Copied only when something is filled in (kubectl, helm and client-node always send both).
  const config = obj.metadata && typeof obj.metadata === 'object' && obj.metadata.name !== undefined ? obj : clone(obj);
  if (!obj.metadata || typeof obj.metadata !== 'object') obj.metadata = {};
  if (obj.metadata.name === undefined) obj.metadata.name = rc.info.name;
  const { r, info } = rc;
  const view = subresourceView(r, info.subresource);
  const wantKind = view ? view.kind : r.info.kind;
  const wantVersion = view ? view.apiVersion : r.apiVersion;
  if (!obj.kind) throw badRequest(`Object 'Kind' is missing in '${bodyText(rc.req.body).slice(0, 200)}'`);
  if (!obj.apiVersion) throw badRequest(`Object 'apiVersion' is missing in '${bodyText(rc.req.body).slice(0, 200)}'`);
  if (obj.apiVersion !== wantVersion) throw badRequest(`the API version in the data (${obj.apiVersion}) does not match the expected API version (${wantVersion})`);
  if (obj.kind !== wantKind) throw badRequest(`the kind in the data (${obj.kind}) does not match the expected kind (${wantKind})`);
  const meta = (obj.metadata ?? {}) as Obj;
  if (meta.managedFields !== undefined) throw badRequest('metadata.managedFields must be nil');
  if (meta.name !== undefined && meta.name !== info.name) throw badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${info.name})`);
  if (r.info.namespaced && meta.namespace && meta.namespace !== info.namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  return { obj, config };
}

interface ApplyTarget {
  schema: SchemaRoot;
  apiVersion: string;
  ignoredFields: string[][];
  /** Managers that applied through another version are compared at theirs. */
  versions?: VersionConverter;
}

function targetOf(r: ServedResource, subresource: string): ApplyTarget {
  const view = subresourceView(r, subresource);
  if (view) return { schema: { definition: view.definition }, apiVersion: r.apiVersion, ignoredFields: view.applyIgnoredFields };
  return { schema: schemaRootFor(r), apiVersion: r.apiVersion, ignoredFields: ignoredFieldsFor(r, subresource), versions: versionConverterFor(r) };
}

/**
 * The merged object must decode into the kind's Go struct, as kube converts it back from the
 * typed value: structured-merge-diff types quantities, times and []byte as plain strings and
 * integers as any number, so an applied `1.5` for an int32, or a time that does not parse, gets
 * this far. A plain error in v1.23 (500 without a reason). The detail is worded as the JSON
 * decoder words it; kube's unstructured converter says some of them differently.
 */
function checkConverted(types: GoTypeChecker | undefined, merged: Obj): Obj {
  const error = types?.firstError(merged);
  if (error) throw new ApiError(500, '', `failed to convert new object to proper version: ${error}`);
  return merged;
}

function runApply(r: ServedResource, live: Obj | undefined, applied: Obj, manager: string, subresource: string, force: boolean, time: string, appliedConfig?: Obj): Obj {
  const t = targetOf(r, subresource);
  let managed: ManagedFieldsEntry[] = [];
  if (live) {
    const d = decodeManagedFields(live.metadata?.managedFields);
    managed = 'entries' in d ? d.entries : [];
  }
  let res;
  try {
    res = applyPatch({ live, applied, appliedConfig, managed, manager, apiVersion: t.apiVersion, subresource: subresource || undefined, force, time, schema: t.schema, ignoredFields: t.ignoredFields, versions: t.versions });
  } catch (err) {
    // A plain error in kube-apiserver v1.23: Status 500 without a reason (later releases say 400).
    if (err instanceof FieldManagerError) throw new ApiError(500, '', `failed to create typed patch object: ${err.message}`);
    throw err;
  }
  if ('conflicts' in res) throw conflictError(res.conflicts);
  return res.object as Obj;
}

export async function handleApply(rc: RequestContext, out: OutputFormat, dryRun: boolean): Promise<ApiResponse> {
  const manager = rc.query.get('fieldManager');
  if (!manager) throw badRequestInvalid('PatchOptions', 'fieldManager: Required value: is required for apply patch', 'FieldValueRequired');
  if (manager.length > 128) throw badRequestInvalid('PatchOptions', 'fieldManager: Too long: must have at most 128 bytes', 'FieldValueTooLong');
  const force = queryFlag(rc.query, 'force');
  const { r, info, reg } = rc;
  // A subresource that is the object itself (status, ephemeralcontainers, approval) applies with its own strategy.
  const sub = servesObjectItself(r, info.subresource) ? info.subresource : '';
  // Re-applying the configuration that produced the stored revision is a no-op: answer it like a
  // get. (The same body to the same URL was checked when it was first applied.)
  const key = objectKey(r, info.namespace, info.name);
  const view = subresourceView(r, info.subresource);
  const fingerprint = view ? '' : `${manager}\u0000${force}\u0000${sub}\u0000${bodyText(rc.req.body)}`;
  const seen = fingerprint ? lastApplied(reg).get(key) : undefined;
  if (seen && seen.fingerprint === fingerprint) {
    const kv = await reg.mvcc.get(key);
    if (kv && kv.modRev === seen.rev) return objectResponse(200, r, undefined, kv.value, out, rc.warnings, reg.now());
  }
  const { obj: applied, config } = appliedObject(rc);
  const time = rfc3339(reg.now());
  const schema = schemaContext(rc);
  const types = schema && !schema.custom ? new GoTypeChecker(schema) : undefined;
  if (view) return applyThroughView(rc, out, view, applied, manager, force, time, dryRun);
  const remember = (obj: Obj) => {
    if (dryRun) return;
    const rev = Number(obj.metadata?.resourceVersion);
    const cache = lastApplied(reg);
    if (cache.size >= LAST_APPLIED_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(key, { rev, fingerprint });
  };
  const attempt = async (): Promise<ApiResponse> => {
    try {
      const res = await updateObject(reg, r, info.namespace, info.name, (current) => checkConverted(types, runApply(r, current, applied, manager, sub, force, time, config)), {
        dryRun,
        subresource: sub,
        allowCreate: false,
        checkName: false,
        managedFieldsDone: true,
        attrs: requestAttributes(rc, 'UPDATE', dryRun, force ? { force: true } : {}),
      });
      remember(res.obj);
      return objectResponse(200, r, res.obj, res.text, out, rc.warnings, reg.now());
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404 && err.reason === 'NotFound' && !sub)) throw err;
    }
    // Missing: apply creates it.
    const created = checkConverted(types, runApply(r, undefined, applied, manager, '', force, time, config));
    // kube's patcher.applyPatch: an object created by the patch may not carry a uid of its own.
    const uid = created.metadata?.uid;
    if (typeof uid === 'string' && uid !== '') throw conflict(r.info.group, r.info.resource, info.name, `uid mismatch: the provided object specified uid ${uid}, and no existing object was found`);
    const res = await createObject(reg, r, info.namespace, created, dryRun, undefined, false, requestAttributes(rc, 'CREATE', dryRun));
    remember(res.obj);
    return objectResponse(201, r, res.obj, res.text, out, rc.warnings, reg.now());
  };
  try {
    return await attempt();
  } catch (err) {
    // Created by someone else between our read and our create: apply again as an update.
    if (err instanceof ApiError && err.reason === 'AlreadyExists') return attempt();
    throw err;
  }
}

/**
 * Apply through a subresource view (/scale): the applied object is merged into the view of the
 * object, with the object's managedFields (a Scale's spec.replicas is the object's), and written back.
 */
async function applyThroughView(rc: RequestContext, out: OutputFormat, view: SubresourceView, applied: Obj, manager: string, force: boolean, time: string, dryRun: boolean): Promise<ApiResponse> {
  const { r, info, reg } = rc;
  const res = await updateObject(
    reg,
    r,
    info.namespace,
    info.name,
    (current) => {
      const live = view.toView(r, current);
      live.metadata.managedFields = current.metadata?.managedFields;
      const merged = runApply(r, live, applied, manager, info.subresource, force, time);
      return view.fromAppliedView(r, merged, live, current);
    },
    { dryRun, subresource: '', allowCreate: false, checkName: false, managedFieldsDone: true },
  );
  return encodeValue(200, view.toView(r, res.obj), out, rc.warnings);
}
