// A write to an object through one of its own subresources (or the main resource) as a store
// adapter: which fields of the stored object the write may change, what it resets, and which of
// the store's steps apply — kube's per-subresource update strategies (StatusStrategy,
// NamespaceFinalizeStrategy, EphemeralContainersStrategy, csrApprovalStrategy, BindingREST's
// assignPod). The store applies whichever adapter the resource and subresource name, never a
// branch per subresource (decision 0043). `status` is the one generic rule; the rest are declared
// in the kind's spec (`subresourceWrites`, kinds/).
import type { ServedResource } from './catalog';
import { clone, type Obj } from './objects';

export interface SubresourceWrite {
  /**
   * The object to store, from the written one (system fields already kept) and the stored one:
   * the strategy's PrepareForUpdate. May throw an API error (a binding's Conflict).
   */
  prepare(written: Obj, stored: Obj, now: number): Obj;
  /** Fields a manager writing through here does not own (kube's GetResetFields); none when absent. */
  resetFields?: readonly (readonly string[])[];
  /** The subresource managedFields records the write under, when not its own name (finalize: the main resource's). */
  recordedAs?: string;
  /** The kind's update validation does not run (a binding is not a pod update: spec is otherwise immutable). */
  skipsValidation?: boolean;
  /** Defaulting does not run on the result (it would put back the `kubernetes` finalizer a finalize write removes). */
  skipsDefaults?: boolean;
  /** Reached by POSTing another kind to the subresource (pods/binding takes a Binding), not read or updated as the object. */
  byCreate?: boolean;
}

/** The stored object with one spec field taken from the written one (finalize's spec.finalizers, ephemeralcontainers' spec.ephemeralContainers). */
export function withSpecFieldOf(written: Obj, stored: Obj, field: string): Obj {
  const next = clone(stored);
  next.spec = { ...(next.spec ?? {}) };
  if (written.spec?.[field] === undefined) delete next.spec[field];
  else next.spec[field] = written.spec[field];
  return next;
}

/** A write to the main resource keeps the stored status when the kind has a status subresource. */
function mainResourceWrite(r: ServedResource): SubresourceWrite {
  const hasStatus = r.strategy.hasStatusSubresource;
  return {
    resetFields: hasStatus ? [['status']] : [],
    prepare(written, stored) {
      if (hasStatus) {
        if (stored.status === undefined) delete written.status;
        else written.status = stored.status;
      }
      r.spec?.rules?.prepareForUpdate?.(written, stored);
      return written;
    },
  };
}

/**
 * A write to status changes status only. A kind whose status strategy resets only some fields
 * (its spec's `statusResets`: Deployment's, HorizontalPodAutoscaler's) keeps the annotations
 * written with the status (the deployment controller's revision, the HPA's v1 conditions).
 */
function statusWrite(r: ServedResource): SubresourceWrite {
  const resets = r.spec?.statusResets;
  return {
    resetFields: resets ?? [['spec'], ['metadata']],
    prepare(written, stored) {
      const next = clone(stored);
      if (written.status === undefined) delete next.status;
      else next.status = written.status;
      if (resets) {
        if (written.metadata?.annotations === undefined) delete next.metadata.annotations;
        else next.metadata.annotations = written.metadata.annotations;
      }
      return next;
    },
  };
}

/**
 * The adapter of a write to `subresource` ('' the main resource): the generic main-resource and
 * status rules, or what the kind's spec declares. Undefined for a subresource that writes no
 * part of the object itself (served as another kind, like scale, or not written at all).
 */
export function subresourceWrite(r: ServedResource, subresource: string): SubresourceWrite | undefined {
  if (subresource === '') return genericWrites(r).main;
  if (subresource === 'status') return genericWrites(r).status;
  const declared = r.spec?.subresourceWrites;
  // Own keys only: a subresource named like an Object.prototype member is no write.
  return declared && Object.hasOwn(declared, subresource) ? declared[subresource] : undefined;
}

/** The generic rules of a served resource, made once (every write and field-manager update asks). */
const generic = new WeakMap<ServedResource, { main: SubresourceWrite; status: SubresourceWrite }>();
function genericWrites(r: ServedResource): { main: SubresourceWrite; status: SubresourceWrite } {
  let writes = generic.get(r);
  if (!writes) {
    writes = { main: mainResourceWrite(r), status: statusWrite(r) };
    generic.set(r, writes);
  }
  return writes;
}

/** The adapter an update through `subresource` goes through: a view's write lands on the object as a main-resource one. */
export function updateWriteFor(r: ServedResource, subresource: string): SubresourceWrite {
  return subresourceWrite(r, subresource) ?? genericWrites(r).main;
}

/** The subresource is the object itself, read and updated with its own strategy (status, finalize, approval, ephemeralcontainers). */
export function servesObjectItself(r: ServedResource, subresource: string): boolean {
  const write = subresource ? subresourceWrite(r, subresource) : undefined;
  return write !== undefined && !write.byCreate;
}
