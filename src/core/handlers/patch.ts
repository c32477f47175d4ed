// PATCH: JSON merge patch and JSON patch on any resource (and its status/scale). Strategic
// merge patch and server-side apply come with the field-management engine.
import type { ApiResponse } from '../meta/types';
import type { RequestContext } from './context';
import type { OutputFormat } from '../meta/output';
import { badRequest, unsupportedMediaType } from '../meta/status';
import { updateObject } from '../registry/store';
import { objectResponse } from './respond';
import { badRequestInvalid, fieldOwner, parseDryRun } from './options';
import { handleApply } from './apply';
import { handleViewUpdate } from './scale';
import { subresourceView } from '../registry/subresource-view';
import { applyJsonPatch, applyMergePatch, parsePatchBody } from '../patch';
import type { Obj } from '../registry/objects';
import { applyStrategicMergePatch } from '../patch/strategic';
import { requestAttributes } from './admission-attributes';
import { patchedObjectDecoder } from './patched-object';


const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';

function unsupported(rc: RequestContext): never {
  const types = rc.r.info.custom ? [JSON_PATCH, MERGE, APPLY] : [JSON_PATCH, MERGE, STRATEGIC, APPLY];
  throw unsupportedMediaType(`the body of the request was in an unknown format - accepted media types include: ${types.join(', ')}`);
}

export async function handlePatch(rc: RequestContext, out: OutputFormat): Promise<ApiResponse> {
  const contentType = (rc.req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const dryRun = parseDryRun(rc.query.getAll('dryRun'), 'PatchOptions');
  if (rc.query.has('force') && contentType !== APPLY) {
    throw badRequestInvalid('PatchOptions', 'force: Forbidden: may not be specified for non-apply patch', 'FieldValueForbidden');
  }
  if (contentType === APPLY) return handleApply(rc, out, dryRun);
  const owner = fieldOwner(rc.query, rc.req.headers['user-agent'], 'PatchOptions');
  let patchOf: (doc: Obj) => unknown;
  const bodyText = new TextDecoder().decode(rc.req.body ?? new Uint8Array());
  switch (contentType) {
    case MERGE: {
      const patch = parsePatchBody(bodyText);
      patchOf = (doc) => applyMergePatch(doc, patch);
      break;
    }
    case JSON_PATCH: {
      const patch = parsePatchBody(bodyText);
      patchOf = (doc) => applyJsonPatch(doc, patch);
      break;
    }
    case STRATEGIC: {
      if (rc.r.info.custom || !rc.r.info.definition) unsupported(rc);
      const patch = parsePatchBody(bodyText);
      if (patch.syntaxError !== undefined) throw badRequest(patch.syntaxError);
      const root = subresourceView(rc.r, rc.info.subresource)?.definition ?? (rc.r.info.definition as string);
      patchOf = (doc) => applyStrategicMergePatch(doc, patch.value, root);
      break;
    }
    default:
      unsupported(rc);
  }
  // The result is decoded as the kind (types checked, unknown fields per fieldValidation).
  const decode = patchedObjectDecoder(rc);
  const apply = (doc: Obj): unknown => decode(patchOf(doc));
  const view = subresourceView(rc.r, rc.info.subresource);
  if (view) return handleViewUpdate(rc, out, view, (current) => apply(current), dryRun, owner);
  const res = await updateObject(rc.reg, rc.r, rc.info.namespace, rc.info.name, (current) => apply(current), {
    dryRun,
    subresource: rc.info.subresource,
    allowCreate: false,
    checkName: false,
    owner,
    attrs: requestAttributes(rc, 'UPDATE', dryRun),
  });
  return objectResponse(200, rc.r, res.obj, res.text, out, rc.warnings, rc.reg.now());
}
