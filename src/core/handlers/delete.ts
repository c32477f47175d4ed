// DELETE of one object and of a collection. DeleteOptions come from the body (JSON) or the query.
import type { ApiResponse } from '../meta/types';
import type { RequestContext } from './context';
import type { OutputFormat } from '../meta/output';
import { badRequest, ApiError } from '../meta/status';
import { deleteObject, type DeleteOptions } from '../registry/store';
import { encodeValue, objectResponse } from './respond';
import { badRequestInvalid, parseDryRun } from './options';
import { readList } from './list';
import { parseStored, type Obj } from '../registry/objects';
import { decodeDeleteOptionsBody } from './body';
import { queryOptionalBool } from '../meta/query-bool';
import { requestAttributes } from './admission-attributes';

const PROPAGATION = ['Orphan', 'Background', 'Foreground'];

export function deleteOptions(rc: RequestContext): DeleteOptions {
  const body = decodeDeleteOptionsBody(rc);
  const q = rc.query;
  const dryRunValues = Array.isArray(body.dryRun) ? (body.dryRun as string[]) : q.getAll('dryRun');
  const opts: DeleteOptions = { dryRun: parseDryRun(dryRunValues, 'DeleteOptions') };
  const grace = body.gracePeriodSeconds ?? (q.has('gracePeriodSeconds') ? Number(q.get('gracePeriodSeconds')) : undefined);
  if (grace !== undefined) {
    if (!Number.isInteger(grace)) throw badRequest(`invalid gracePeriodSeconds: ${String(grace)}`);
    opts.gracePeriodSeconds = grace;
  }
  const policy = body.propagationPolicy ?? q.get('propagationPolicy') ?? undefined;
  if (policy !== undefined && policy !== null) {
    if (!PROPAGATION.includes(policy)) {
      throw badRequestInvalid('DeleteOptions', `propagationPolicy: Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan", "nil"`, 'FieldValueNotSupported');
    }
    opts.propagationPolicy = policy;
  }
  const orphan = body.orphanDependents ?? queryOptionalBool(q, 'orphanDependents');
  if (orphan !== undefined && opts.propagationPolicy) {
    throw badRequestInvalid('DeleteOptions', `propagationPolicy: Invalid value: ${JSON.stringify(opts.propagationPolicy)}: orphanDependents and deletionPropagation cannot be both set`);
  }
  if (typeof orphan === 'boolean') opts.orphanDependents = orphan;
  const pre = body.preconditions;
  if (pre && typeof pre === 'object') opts.preconditions = { uid: pre.uid ?? undefined, resourceVersion: pre.resourceVersion ?? undefined };
  return opts;
}

/** DELETE admission: the DeleteOptions the request carried. */
function deleteAttributes(rc: RequestContext, opts: DeleteOptions) {
  const { attrs: _a, dryRun, ...fields } = opts;
  return requestAttributes(rc, 'DELETE', dryRun, fields);
}

export async function handleDelete(rc: RequestContext, out: OutputFormat): Promise<ApiResponse> {
  const opts = deleteOptions(rc);
  opts.attrs = deleteAttributes(rc, opts);
  const res = await deleteObject(rc.reg, rc.r, rc.info.namespace, rc.info.name, opts);
  return objectResponse(200, rc.r, res.obj, undefined, out, rc.warnings, rc.reg.now());
}

/** deletecollection: delete every object the selectors match; answers the list of what was deleted. */
export async function handleDeleteCollection(rc: RequestContext, out: OutputFormat): Promise<ApiResponse> {
  const opts = deleteOptions(rc);
  opts.attrs = deleteAttributes(rc, opts);
  const data = await readList(rc);
  const items: Obj[] = [];
  for (const kv of data.kvs) {
    const obj = parseStored(kv.value, rc.r.info.kind, rc.r.apiVersion);
    try {
      const res = await deleteObject(rc.reg, rc.r, obj.metadata.namespace ?? '', obj.metadata.name, opts);
      items.push(res.obj);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    }
  }
  return encodeValue(200, { kind: rc.r.info.listKind, apiVersion: rc.r.apiVersion, metadata: { resourceVersion: String(rc.reg.mvcc.revision) }, items }, out, rc.warnings);
}
