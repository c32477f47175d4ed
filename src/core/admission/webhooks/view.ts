// A subresource whose object is not the resource's own: kube serves `/scale` as autoscaling/v1
// Scale (rest.GroupVersionKindProvider), and admission of a scale write sees Scale objects (object
// and oldObject) with that kind, while the store reads and writes the parent object. The view
// converts between the two.
import type { Obj } from '../../registry/objects';
import type { GVK } from './review';

export interface AdmissionView {
  /** The kind webhooks are told (both `kind` and `requestKind`). */
  kind: GVK;
  /** The parent object as the subresource's object. */
  toView(obj: Obj): Obj;
  /** The parent object after a mutating webhook changed the view (a new object; `obj` is left alone). */
  fromView(view: Obj, obj: Obj): Obj;
}
