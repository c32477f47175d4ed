// A subresource whose object is not the resource's own: kube serves `/scale` as autoscaling/v1
// Scale (rest.GroupVersionKindProvider), and admission of a scale write sees Scale objects (object
// and oldObject) with that kind, while the store reads and writes the parent object. The view
// converts between the two.
import type { Obj } from './objects';
import type { ServedResource } from './catalog';
import type { AdmissionAttributes } from './admission-attributes';

/** A group/version/kind as an AdmissionReview names it. */
export interface GVK {
  group: string;
  version: string;
  kind: string;
}

export interface AdmissionView {
  /** The kind webhooks are told (both `kind` and `requestKind`). */
  kind: GVK;
  /** The parent object as the subresource's object. */
  toView(obj: Obj): Obj;
  /** The parent object after a mutating webhook changed the view (a new object; `obj` is left alone). */
  fromView(view: Obj, obj: Obj): Obj;
}

/** One object write as the admission webhooks see it. */
export interface WebhookRequest {
  r: ServedResource;
  namespace: string;
  name: string;
  object: Obj | null;
  oldObject: Obj | null;
  attrs: AdmissionAttributes;
  /**
   * The objects' kind when a subresource is served as another kind (autoscaling/v1 Scale,
   * policy/v1 Eviction, v1 Binding): webhooks get it as kind and requestKind at every version,
   * and the objects are sent as they are.
   */
  kind?: GVK;
}
