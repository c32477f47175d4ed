// Per-resource behaviour of the generic store (the ideas of kube-apiserver's RESTCreateStrategy /
// RESTUpdateStrategy): which kinds track metadata.generation, which may be created by PUT, which
// require a resourceVersion on update, and how create resets status. The per-kind facts come
// from the kind's spec (kinds/); this file turns them into the store's questions.
import type { ResourceInfo } from '../schema/resource-info';
import type { Obj } from './objects';
import type { KindSpec } from './kind-spec';

export interface Strategy {
  /** Has a status subresource: writes to the main resource keep the stored status, and vice versa. */
  hasStatusSubresource: boolean;
  /** metadata.generation starts at 1 and is bumped when anything but metadata and status changes. */
  tracksGeneration: boolean;
  /** PUT of a missing object creates it. */
  allowCreateOnUpdate: boolean;
  /** PUT without metadata.resourceVersion is allowed (last write wins). */
  allowUnconditionalUpdate: boolean;
  /** Reset fields a client may not set on create (status for most kinds). */
  prepareForCreate(obj: Obj): void;
  /** A terminating object may leave storage: no finalizers left (namespaces: spec.finalizers too). */
  finalized(obj: Obj): boolean;
}

/** The strategy of a served resource: a built-in's from its kind's spec (kinds/), a custom resource's generic. */
export function strategyFor(info: ResourceInfo, spec: KindSpec | undefined): Strategy {
  const hasStatus = info.subresources.some((s) => s.name === 'status');
  const initial = spec?.initialStatus;
  return {
    hasStatusSubresource: hasStatus,
    tracksGeneration: info.custom === true || spec?.tracksGeneration === true,
    allowCreateOnUpdate: spec?.createOnUpdate === true,
    // Custom resources require a resourceVersion on update; built-ins allow last-write-wins.
    allowUnconditionalUpdate: info.custom !== true,
    finalized(obj: Obj) {
      if (obj.metadata?.finalizers?.length > 0) return false;
      return !spec?.finalizersInSpec || !(obj.spec?.finalizers?.length > 0);
    },
    prepareForCreate(obj: Obj) {
      if (!hasStatus) return;
      if (initial) obj.status = initial();
      else if (info.custom) delete obj.status;
      else delete obj.status;
    },
  };
}
