// POST: create an object (201), or answer a virtual resource (reviews) without storing it.
import type { ApiResponse } from '../meta/types';
import type { RequestContext } from './context';
import type { OutputFormat } from '../meta/output';
import { createObject } from '../registry/store';
import { objectResponse } from './respond';
import { decodeObjectBody } from './body';
import { fieldOwner, parseDryRun } from './options';
import { requestAttributes } from './admission-attributes';

/**
 * Not an async function (a frame, a promise and a turn less per create): what throws before the
 * store is called throws here, inside the dispatcher's try, as a rejection would be caught there.
 */
export function handleCreate(rc: RequestContext, out: OutputFormat): Promise<ApiResponse> {
  const dryRun = parseDryRun(rc.query.getAll('dryRun'));
  const owner = fieldOwner(rc.query, rc.req.headers['user-agent'], 'CreateOptions');
  const obj = decodeObjectBody(rc);
  const attrs = requestAttributes(rc, 'CREATE', dryRun);
  return createObject(rc.reg, rc.r, rc.info.namespace, obj, dryRun, owner, rc.req.restore === true, attrs).then((res) => objectResponse(201, rc.r, res.obj, res.text, out, rc.warnings, rc.reg.now()));
}
