// PUT: replace an object (or its status), create-on-update where the strategy allows it.
import type { ApiResponse } from '../meta/types';
import type { RequestContext } from './context';
import type { OutputFormat } from '../meta/output';
import { updateObject } from '../registry/store';
import { objectResponse } from './respond';
import { decodeObjectBody } from './body';
import { fieldOwner, parseDryRun } from './options';
import { clone } from '../registry/objects';
import { handleViewUpdate } from './scale';
import { subresourceView } from '../registry/subresource-view';
import { requestAttributes } from './admission-attributes';

export async function handleUpdate(rc: RequestContext, out: OutputFormat): Promise<ApiResponse> {
  const dryRun = parseDryRun(rc.query.getAll('dryRun'), 'UpdateOptions');
  const owner = fieldOwner(rc.query, rc.req.headers['user-agent'], 'UpdateOptions');
  const body = decodeObjectBody(rc);
  const view = subresourceView(rc.r, rc.info.subresource);
  if (view) return handleViewUpdate(rc, out, view, () => body, dryRun, owner);
  const { info } = rc;
  const res = await updateObject(
    rc.reg,
    rc.r,
    info.namespace,
    info.name,
    () => clone(body),
    { dryRun, subresource: info.subresource, allowCreate: true, checkName: true, owner, attrs: requestAttributes(rc, 'UPDATE', dryRun) },
    () => clone(body),
  );
  return objectResponse(res.created ? 201 : 200, rc.r, res.obj, res.text, out, rc.warnings, rc.reg.now());
}
