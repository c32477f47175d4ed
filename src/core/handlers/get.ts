// GET of one object (and of its status subresource, which answers the same object).
import type { ApiResponse } from '../meta/types';
import type { RequestContext } from './context';
import type { OutputFormat } from '../meta/output';
import { notFound } from '../meta/status';
import { objectKey } from '../registry/catalog';
import { StorageError } from '../storage/types';
import { awaitRevision, parseResourceVersion, tooOld } from './resourceversion';
import { objectResponse } from './respond';

export async function handleGet(rc: RequestContext, out: OutputFormat): Promise<ApiResponse> {
  const { reg, r, info, query } = rc;
  // unset = most recent; "0" = any; other = not older than (wait briefly for a future revision).
  const rvText = query.get('resourceVersion');
  // A get with a resourceVersion is served by the watch cache.
  const rv = parseResourceVersion(rvText, 'watch cache');
  if (rv !== undefined && rv > 0) await awaitRevision(reg.mvcc, rv, rvText ?? undefined);
  let kv;
  try {
    kv = await reg.mvcc.get(objectKey(r, info.namespace, info.name));
  } catch (err) {
    if (err instanceof StorageError && err.code === 'Expired') throw tooOld(rv ?? 0, reg.mvcc.compactRevision);
    throw err;
  }
  if (!kv) throw notFound(r.info.group, r.info.resource, info.name);
  return objectResponse(200, r, undefined, kv.value, out, rc.warnings, reg.now());
}
