// Subresources served as another kind through their parent object (`scale`: an autoscaling/v1
// Scale of the replica count): GET, PUT and PATCH through the resource's SubresourceView
// (registry/subresource-view.ts), whichever subresource it is.
import type { ApiResponse } from '../meta/types';
import type { RequestContext } from './context';
import type { OutputFormat } from '../meta/output';
import { getObject, updateObject } from '../registry/store';
import { parseStored, type Obj } from '../registry/objects';
import { encodeValue } from './respond';
import type { FieldOwner } from '../registry/managed-fields';
import { admissionViewOf, type SubresourceView } from '../registry/subresource-view';
import { requestAttributes } from './admission-attributes';

export async function handleViewGet(rc: RequestContext, out: OutputFormat, view: SubresourceView): Promise<ApiResponse> {
  const kv = await getObject(rc.reg, rc.r, rc.info.namespace, rc.info.name);
  // Read like the object itself (a custom object with its storage schema's defaults).
  const obj = rc.r.codec ? rc.r.codec.toServed(kv.value) : parseStored(kv.value, rc.r.info.kind, rc.r.apiVersion);
  return encodeValue(200, view.toView(rc.r, obj), out, rc.warnings);
}

/** PUT or PATCH through the view: `toDesired` turns the current view into the desired one. */
export async function handleViewUpdate(rc: RequestContext, out: OutputFormat, view: SubresourceView, toDesired: (current: Obj) => unknown, dryRun: boolean, owner?: FieldOwner): Promise<ApiResponse> {
  const { r, info } = rc;
  const res = await updateObject(
    rc.reg,
    r,
    info.namespace,
    info.name,
    (current) => {
      const desired = toDesired(view.toView(r, current)) as Obj;
      const next = view.fromView(r, desired, current, info.name);
      // The view's resourceVersion is the object's: a stale one is a conflict.
      next.metadata.resourceVersion = desired.metadata?.resourceVersion || current.metadata.resourceVersion;
      return next;
    },
    // kube admits a write through the view as an UPDATE of the subresource, and its field
    // manager records the writer with that subresource (a manager of its own beside the same
    // name's writes to the main resource), as apply through the view does.
    { dryRun, subresource: info.subresource, allowCreate: false, checkName: false, owner, attrs: requestAttributes(rc, 'UPDATE', dryRun), view: admissionViewOf(view, r, info.name) },
  );
  return encodeValue(200, view.toView(r, res.obj), out, rc.warnings);
}
