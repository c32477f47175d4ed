// Server-side apply: PATCH with application/apply-patch+yaml. Creates the object when missing
// (201), otherwise merges the applied configuration (200), with field ownership and conflicts
// from the field-management engine.
import type { ApiResponse } from '../types';
import type { RequestContext } from '../server/context';
import type { OutputFormat } from '../server/output';
import { ApiError, badRequest } from '../server/status';
import { createObject, updateObject } from '../registry/store';
import { objectResponse } from '../server/respond';
import { bodyText } from '../codec/json';
import { parseYaml } from '../codec/yaml';
import { applyPatch, conflictMessages, decodeManagedFields, FieldManagerError, type ManagedFieldsEntry } from '../fieldmanager';
import { ignoredFieldsFor, schemaRootFor } from '../registry/managed-fields';
import { badRequestInvalid } from './options';
import { rfc3339, type Obj } from '../registry/objects';
import type { ServedResource } from '../registry/catalog';

function conflictError(conflicts: Parameters<typeof conflictMessages>[0]): ApiError {
  const { message, causes } = conflictMessages(conflicts);
  return new ApiError(409, 'Conflict', message, { causes });
}

/** Read and check the applied configuration against the URL. */
function appliedObject(rc: RequestContext): Obj {
  const parsed = parseYaml(bodyText(rc.req.body));
  if (!parsed.ok) throw badRequest(parsed.message);
  const obj = parsed.value as Obj;
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw badRequest('error decoding YAML: the applied configuration must be an object');
  if (!obj.metadata || typeof obj.metadata !== 'object') obj.metadata = {};
  if (obj.metadata.name === undefined) obj.metadata.name = rc.info.name;
  const { r, info } = rc;
  const wantKind = info.subresource === 'scale' ? 'Scale' : r.info.kind;
  const wantVersion = info.subresource === 'scale' ? 'autoscaling/v1' : r.apiVersion;
  if (!obj.kind) throw badRequest(`Object 'Kind' is missing in '${bodyText(rc.req.body).slice(0, 200)}'`);
  if (!obj.apiVersion) throw badRequest(`Object 'apiVersion' is missing in '${bodyText(rc.req.body).slice(0, 200)}'`);
  if (obj.apiVersion !== wantVersion) throw badRequest(`the API version in the data (${obj.apiVersion}) does not match the expected API version (${wantVersion})`);
  if (obj.kind !== wantKind) throw badRequest(`the kind in the data (${obj.kind}) does not match the expected kind (${wantKind})`);
  const meta = (obj.metadata ?? {}) as Obj;
  if (meta.managedFields !== undefined) throw badRequest('metadata.managedFields must be nil');
  if (meta.name !== undefined && meta.name !== info.name) throw badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${info.name})`);
  if (r.info.namespaced && meta.namespace && meta.namespace !== info.namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  return obj;
}

function runApply(r: ServedResource, live: Obj | undefined, applied: Obj, manager: string, subresource: string, force: boolean, time: string): Obj {
  let managed: ManagedFieldsEntry[] = [];
  if (live) {
    const d = decodeManagedFields(live.metadata?.managedFields);
    managed = 'entries' in d ? d.entries : [];
  }
  let res;
  try {
    res = applyPatch({ live, applied, managed, manager, apiVersion: r.apiVersion, subresource: subresource || undefined, force, time, schema: schemaRootFor(r), ignoredFields: ignoredFieldsFor(r, subresource) });
  } catch (err) {
    if (err instanceof FieldManagerError) throw new ApiError(500, 'InternalError', `Internal error occurred: failed to create typed patch object: ${err.message}`, { causes: [{ message: err.message }] });
    throw err;
  }
  if ('conflicts' in res) throw conflictError(res.conflicts);
  return res.object as Obj;
}

export async function handleApply(rc: RequestContext, out: OutputFormat, dryRun: boolean): Promise<ApiResponse> {
  const manager = rc.query.get('fieldManager');
  if (!manager) throw badRequestInvalid('PatchOptions', 'fieldManager: Required value: is required for apply patch');
  if (manager.length > 128) throw badRequestInvalid('PatchOptions', 'fieldManager: Too long: may not be longer than 128');
  const forceText = rc.query.get('force');
  const force = forceText === 'true' || forceText === '1';
  const applied = appliedObject(rc);
  const { r, info, reg } = rc;
  const sub = info.subresource === 'status' ? 'status' : '';
  const time = rfc3339(reg.now());
  const attempt = async (): Promise<ApiResponse> => {
    try {
      const res = await updateObject(reg, r, info.namespace, info.name, (current) => runApply(r, current, applied, manager, sub, force, time), {
        dryRun,
        subresource: sub,
        allowCreate: false,
        checkName: false,
        managedFieldsDone: true,
      });
      return objectResponse(200, r, res.obj, res.text, out, rc.warnings, reg.now());
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404 && err.reason === 'NotFound' && !sub)) throw err;
    }
    // Missing: apply creates it.
    const created = runApply(r, undefined, applied, manager, '', force, time);
    const res = await createObject(reg, r, info.namespace, created, dryRun);
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
