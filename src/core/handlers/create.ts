// POST: create an object (201), or answer a virtual resource (reviews) without storing it.
import type { ApiResponse } from '../meta/types';
import type { RequestContext } from './context';
import type { OutputFormat } from '../meta/output';
import { createObject } from '../registry/store';
import { objectResponse } from './respond';
import { decodeObjectBody } from './body';
import { fieldOwner, parseDryRun } from './options';
import { requestAttributes } from './admission-attributes';

export async function handleCreate(rc: RequestContext, out: OutputFormat): Promise<ApiResponse> {
  const dryRun = parseDryRun(rc.query.getAll('dryRun'));
  const owner = fieldOwner(rc.query, rc.req.headers['user-agent'], 'CreateOptions');
  const obj = decodeObjectBody(rc);
  const attrs = requestAttributes(rc, 'CREATE', dryRun);
  const res = await createObject(rc.reg, rc.r, rc.info.namespace, obj, dryRun, owner, rc.req.restore === true, attrs);
  return objectResponse(201, rc.r, res.obj, res.text, out, rc.warnings, rc.reg.now());
}
