// The steps of one update attempt (the read-modify-write's callback, split where asynchronous
// webhook admission runs between them): from the stored object and the desired one, the next
// object with system fields kept, defaults and built-in mutating admission; its validation; and
// what to write. The attempt remembers what it read and produced for the store to answer with.
import type { KV, Mutation } from '../storage/types';
import { ApiError, badRequest, conflict, invalid, notFound, OPTIMISTIC_LOCK_MESSAGE } from '../meta/status';
import { parseUint64 } from '../codec/go-parse-uint';
import type { ServedResource } from './catalog';
import type { RegistryContext, Reservation, ResourceHooks } from './context';
import { clone, deepEqual, parseStored, rfc3339, storedTextTemplate, type Obj } from './objects';
import { trackWrite, type FieldOwner } from './managed-fields';
import { storageForm } from './conversion';
import { admitUpdateMutating } from './admission-plugin';
import type { AdmissionAttributes } from './admission-attributes';
import type { UpdateSteps } from './webhook-update';
import { applyDefaults, checkSize, requireObject, setNamespace, validateWrite } from './store-common';
import { toGoForm } from './go-order';
import { updateWriteFor, type SubresourceWrite } from './subresource-write';

/** What the steps need of the store's UpdateOptions. */
export interface StepOptions {
  dryRun: boolean;
  subresource: string;
  checkName: boolean;
  owner?: FieldOwner;
  managedFieldsDone?: boolean;
  attrs?: AdmissionAttributes;
}

function withoutVolatile(o: Obj): Obj {
  const c = { ...o, metadata: { ...o.metadata } };
  delete c.metadata.resourceVersion;
  return c;
}

/** Equal but for the resourceVersion: writing `next` would change nothing. */
function sameObject(next: Obj, old: Obj): boolean {
  return deepEqual(withoutVolatile(next), withoutVolatile(old));
}

function specChanged(a: Obj, b: Obj): boolean {
  const strip = (o: Obj) => {
    const c = { ...o };
    delete c.metadata;
    delete c.status;
    return c;
  };
  return !deepEqual(strip(a), strip(b));
}

export class UpdateAttempt implements UpdateSteps {
  /** The object to answer with (the old one when nothing changed). */
  result: Obj | undefined;
  /** The write removed the object (the last finalizer of a terminating object went). */
  deleted = false;
  old: Obj | undefined;
  reservation: Reservation | undefined;
  /** How a write through the request's subresource changes the object. */
  private readonly write: SubresourceWrite;

  constructor(
    private readonly ctx: RegistryContext,
    private readonly r: ServedResource,
    private readonly ns: string,
    private readonly name: string,
    private readonly desired: (current: Obj) => unknown,
    private readonly opts: StepOptions,
    private readonly hooks: ResourceHooks | undefined,
    /** Synchronous validating admission prepared before the transaction (PodSecurity). */
    private readonly admissionCheck: ((next: Obj, old: Obj) => void) | undefined,
  ) {
    this.write = updateWriteFor(r, opts.subresource);
  }

  prepare(cur: KV | undefined): { next: Obj; noop: boolean } {
    const { r, opts, name } = this;
    const { group, resource, kind } = r.info;
    if (!cur) throw notFound(group, resource, name);
    const old = r.codec ? r.codec.toServed(cur.value) : parseStored(cur.value, kind, r.apiVersion);
    // As Go holds it (stored text has the nulls encoding/json writes for zero times and nil
    // lists; the new object, defaulted, has none): comparisons and the field manager see both alike.
    if (!r.info.custom) toGoForm(old);
    this.old = old;
    const out = this.desired(clone(old));
    requireObject(out);
    const obj = out;
    obj.kind = kind;
    obj.apiVersion = r.apiVersion;
    if (!obj.metadata || typeof obj.metadata !== 'object') obj.metadata = {};
    const meta = obj.metadata as Obj;
    if (opts.checkName && meta.name !== name) {
      throw badRequest(`the name of the object (${meta.name ?? ''}) does not match the name on the URL (${name})`);
    }
    setNamespace(r, meta, this.ns);
    // storage.APIObjectVersioner.ObjectResourceVersion: strconv.ParseUint of the text, whose
    // error is no API status (kube answers a reasonless 500); 0 (or none) asks for no precondition.
    const rvText = meta.resourceVersion === undefined || meta.resourceVersion === null ? '' : String(meta.resourceVersion);
    let rv = 0n;
    if (rvText !== '') {
      const parsed = parseUint64(rvText);
      if ('error' in parsed) throw new ApiError(500, '', parsed.error);
      rv = parsed.value;
    }
    if (rv !== 0n) {
      if (rv !== BigInt(cur.modRev)) throw conflict(group, resource, name, OPTIMISTIC_LOCK_MESSAGE);
    } else if (!r.strategy.allowUnconditionalUpdate) {
      throw invalid(group, kind, name, [{ type: 'FieldValueInvalid', field: 'metadata.resourceVersion', valueText: '0x0', detail: 'must be specified for an update' }]);
    } else if (rvText !== '') {
      // `"0"` is an unconditional update, written at the current revision like one without.
      delete meta.resourceVersion;
    }
    keepSystemFields(meta, old.metadata as Obj);
    const next = this.limitToSubresource(obj, old);
    // Nothing asked to change (a no-op apply or patch): the stored object is already defaulted
    // and valid, so the rest is skipped and nothing is written.
    if (sameObject(next, old)) {
      this.result = old;
      return { next, noop: true };
    }
    this.finish(next);
    return { next, noop: false };
  }

  resume(next: Obj): boolean {
    if (sameObject(next, this.old as Obj)) return false;
    this.finish(next);
    return true;
  }

  /** Object validation and synchronous validating admission. */
  check(next: Obj): void {
    const o = this.old as Obj;
    if (this.r.strategy.tracksGeneration && specChanged(next, o)) next.metadata.generation = (o.metadata.generation ?? 0) + 1;
    if (!this.write.skipsValidation) validateWrite(this.ctx, this.r, next, o, this.opts.subresource);
    this.admissionCheck?.(next, o);
  }

  commit(next: Obj): Mutation {
    const o = this.old as Obj;
    if (next.metadata.deletionTimestamp && this.r.strategy.finalized(next)) {
      this.result = next;
      this.deleted = true;
      return this.opts.dryRun ? { kind: 'none' } : { kind: 'delete' };
    }
    if (sameObject(next, o)) {
      this.result = o;
      return { kind: 'none' };
    }
    const stored = storedTextTemplate(storageForm(this.r, next));
    checkSize(stored.text);
    this.result = next;
    if (this.opts.dryRun) return { kind: 'none' };
    return { kind: 'put', encode: stored.withRevision };
  }

  /** A mutating webhook's object, made ours again: the request's namespace, then defaulting. */
  fixUp(next: Obj): void {
    setNamespace(this.r, next.metadata, this.ns);
    applyDefaults(this.r, next);
  }

  oldObject(): Obj {
    return this.old as Obj;
  }

  reset(): void {
    this.reservation?.undo();
    this.reservation = undefined;
    this.deleted = false;
  }

  /** What the write may change, through the adapter of its subresource (subresource-write.ts). */
  private limitToSubresource(obj: Obj, old: Obj): Obj {
    const next = this.write.prepare(obj, old, this.ctx.now());
    this.keepAppliedManagedFields(obj, next);
    return next;
  }

  /** A subresource apply keeps the managedFields it computed (the rest of metadata is the old one's). */
  private keepAppliedManagedFields(obj: Obj, next: Obj): void {
    if (!this.opts.managedFieldsDone) return;
    if (obj.metadata.managedFields === undefined) delete next.metadata.managedFields;
    else next.metadata.managedFields = obj.metadata.managedFields;
  }

  /** Defaults, managedFields and built-in mutating admission of an object that changes something. */
  private finish(next: Obj): void {
    const { opts, r } = this;
    const old = this.old as Obj;
    if (!this.write.skipsDefaults) applyDefaults(r, next);
    if (opts.owner && !opts.managedFieldsDone) trackWrite(r, old, next, this.write.recordedAs ?? opts.subresource, opts.owner, rfc3339(this.ctx.now()));
    admitUpdateMutating(this.ctx, r, next, old, opts.attrs);
    this.reservation = this.hooks?.beforeUpdate?.(this.ctx, r, next, old, opts.attrs) ?? undefined;
  }
}

/** The fields an update cannot change: uid (when unset), creation, deletion and generation. */
function keepSystemFields(meta: Obj, om: Obj): void {
  if (!meta.uid) meta.uid = om.uid;
  meta.creationTimestamp = om.creationTimestamp;
  if (om.deletionTimestamp) meta.deletionTimestamp = om.deletionTimestamp;
  else delete meta.deletionTimestamp;
  if (om.deletionGracePeriodSeconds !== undefined) meta.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds;
  else delete meta.deletionGracePeriodSeconds;
  if (om.generation !== undefined) meta.generation = om.generation;
  else delete meta.generation;
}
