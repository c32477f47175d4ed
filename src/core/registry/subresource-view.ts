// A subresource served as a kind of its own and stored in its parent object: a store adapter
// (kube's ScaleREST over the parent's store). Handlers read and write through the view without
// knowing which subresource it is; a built-in kind lists its views in its spec (kinds/), a custom
// resource gets `scale` when its CRD declares it (decision 0039).
import type { ServedResource } from './catalog';
import type { Obj } from './objects';
import type { AdmissionView } from './admission-view';
import { SCALE_VIEW } from './scale-view';

export interface SubresourceView {
  /** The kind the subresource reads and writes, e.g. autoscaling/v1 Scale. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** `group/version` of that kind. */
  readonly apiVersion: string;
  /** Its definition in the schema set (decoding, strategic merge, apply). */
  readonly definition: string;
  /** Fields of the view an apply does not own (kube's reset fields). */
  readonly applyIgnoredFields: string[][];
  /** The parent object as the view. */
  toView(r: ServedResource, parent: Obj): Obj;
  /** A copy of the parent with the desired view written in; throws Invalid for a bad view. */
  fromView(r: ServedResource, view: unknown, parent: Obj, name: string): Obj;
  /** A copy of the parent with an applied (merged) view written in, its managedFields included. */
  fromAppliedView(r: ServedResource, merged: Obj, view: Obj, parent: Obj): Obj;
}

/** The view serving `subresource` of this resource, if that subresource is one. */
export function subresourceView(r: ServedResource, subresource: string): SubresourceView | undefined {
  if (!subresource) return undefined;
  if (r.info.custom) return subresource === 'scale' && r.info.subresources.some((s) => s.name === 'scale') ? SCALE_VIEW : undefined;
  return r.spec?.views?.[subresource];
}

/** How admission (webhooks) sees a write through the view: objects of the view's kind. */
export function admissionViewOf(view: SubresourceView, r: ServedResource, name: string): AdmissionView {
  return {
    kind: { group: view.group, version: view.version, kind: view.kind },
    toView: (obj) => view.toView(r, obj),
    fromView: (v, obj) => view.fromView(r, v, obj, name),
  };
}
