// The garbage collector (kube-controller-manager's, run here like the other controllers this
// server keeps): objects whose owners are all gone are deleted, an owner deleted in the
// foreground waits for the dependents that block it, and an orphaning delete strips the owner's
// references from its dependents before the owner goes.
//
// Owners are checked by lookup (apiVersion, kind, name, and uid must match): a namespaced owner
// is looked up in its dependent's namespace, so a reference across namespaces reads as absent;
// a kind this server does not serve, or a namespaced kind named by a cluster-scoped object,
// cannot be resolved and leaves the object alone (as kube does).
import type { RegistryContext } from '../../registry/context';
import { WorkQueue, type Outcome } from '../../registry/work-queue';
import { objectKey, type ServedResource } from '../../registry/catalog';
import { deleteObject, updateObject } from '../../registry/store';
import { ApiError } from '../../meta/status';
import type { Obj } from '../../registry/objects';
import type { StoreEvent, WatchHandle } from '../../storage/types';
import { OwnerIndex, type OwnerRef } from './owner-index';
import { ownerRefsOf, uidOf } from './owner-refs-text';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../../registry/deletion-finalizers';
import type { Controller, ControllerContext } from '../controller';

interface Located {
  r: ServedResource;
  ns: string;
  name: string;
}

type TaskKind = 'dependent' | 'owner';

/** Conflicts with a concurrent writer are retried this many times; the next event retries too. */
const MAX_ATTEMPTS = 5;

export class GarbageCollector implements Controller {
  readonly name = 'garbagecollector';
  private readonly index = new OwnerIndex();
  private watch?: WatchHandle;
  // The server's store, given at the first start.
  private ctx!: RegistryContext;
  private work?: WorkQueue<{ kind: TaskKind; key: string }>;
  private generation = -1;
  private byPrefix = new Map<string, ServedResource>();
  private byKind = new Map<string, ServedResource>();
  /**
   * Owners a check found present and not being deleted, by storage key → uid (kube's graph holds
   * every object; this holds the ones dependents named). A new dependent of one of them is not
   * checked again: a thousand pods of one ReplicaSet cost one read of it, not a thousand reads of
   * each pod and its owner. Forgotten at the owner's delete or deletion mark, which the watch
   * delivers in order, after any write the check read.
   */
  private readonly liveOwners = new Map<string, string>();
  /** Deletes and deletion marks seen: a check that read an owner before one of them must not record it. */
  private forgets = 0;

  /** Indexes the stored references, checks every object that has some, and follows changes. */
  async start(context: ControllerContext): Promise<void> {
    if (this.watch) return;
    this.ctx = context.server.registry;
    this.work ??= new WorkQueue(this.ctx, (t) => this.process(t), MAX_ATTEMPTS, 'garbage collector');
    const { kvs, rev } = await this.ctx.mvcc.range('/');
    for (const kv of kvs) this.observe(kv.key, kv.value);
    this.watch = this.ctx.mvcc.watch('/', rev, (ev) => this.onEvent(ev));
  }

  stop(): void {
    this.watch?.cancel();
    this.watch = undefined;
    this.work?.clear();
    this.liveOwners.clear();
  }

  private onEvent(ev: StoreEvent): void {
    if (ev.type === 'put') {
      this.observe(ev.key, ev.value as string);
      return;
    }
    this.forget(ev.key);
    if (this.index.empty) return;
    // A deleted owner: its dependents may now be garbage.
    const uid = uidOf(ev.prevValue as string);
    if (uid) for (const dep of this.index.dependents(uid)) this.enqueue('dependent', dep);
    // A deleted dependent: an owner deleted in the foreground may have been waiting for it.
    const dep = this.locate(ev.key);
    for (const ref of this.index.remove(ev.key)) {
      const owner = dep && this.resolveOwner(ref, dep);
      if (owner) this.enqueue('owner', objectKey(owner.r, owner.ns, ref.name));
    }
  }

  private observe(key: string, text: string): void {
    const refs = ownerRefsOf(text);
    if (refs || this.index.refs(key).length) {
      // New references: their owners may not exist (kube checks them, and collects the object).
      const added = this.index.set(key, refs);
      if (added.length && !added.every((ref) => this.knownLive(ref, key))) this.enqueue('dependent', key);
    }
    if (text.includes('"deletionTimestamp"')) {
      this.forget(key);
      if (text.includes(`"${FOREGROUND_FINALIZER}"`) || text.includes(`"${ORPHAN_FINALIZER}"`)) this.enqueue('owner', key);
    }
  }

  private forget(key: string): void {
    this.forgets++;
    this.liveOwners.delete(key);
  }

  /** The reference names an owner a check found present, and nothing since said it went or is going. */
  private knownLive(ref: OwnerRef, depKey: string): boolean {
    const dep = this.locate(depKey);
    const owner = dep && this.resolveOwner(ref, dep);
    return !!owner && this.liveOwners.get(objectKey(owner.r, owner.ns, ref.name)) === ref.uid;
  }

  private enqueue(kind: TaskKind, key: string): void {
    this.work?.add(`${kind} ${key}`, { kind, key });
  }

  /** One task; a conflict with a concurrent writer is retried, other API errors end it. */
  private async process(t: { kind: TaskKind; key: string }): Promise<Outcome> {
    try {
      if (t.kind === 'owner') await this.processOwner(t.key);
      else await this.attemptToDelete(t.key);
      return 'done';
    } catch (err) {
      if (err instanceof ApiError) return err.code === 409 ? 'retry' : 'done';
      throw err;
    }
  }

  /** An owner being deleted with `orphan` or `foregroundDeletion`: do what it asks, then drop the finalizer. */
  private async processOwner(key: string): Promise<void> {
    const loc = this.locate(key);
    const obj = loc && (await this.read(key));
    const m = obj?.metadata;
    if (!loc || !m?.deletionTimestamp) return;
    const finalizers: string[] = Array.isArray(m.finalizers) ? m.finalizers : [];
    if (finalizers.includes(ORPHAN_FINALIZER)) {
      for (const dep of this.index.dependents(m.uid)) {
        const depLoc = this.locate(dep);
        if (depLoc) await this.removeRefs(depLoc, new Set([m.uid]));
      }
      await this.removeFinalizer(loc, m.uid, ORPHAN_FINALIZER);
      return;
    }
    if (!finalizers.includes(FOREGROUND_FINALIZER)) return;
    let blocked = false;
    for (const dep of this.index.dependents(m.uid)) {
      const d = (await this.read(dep))?.metadata;
      const ref = (d?.ownerReferences as OwnerRef[] | undefined)?.find((o) => o.uid === m.uid);
      if (!ref) continue;
      if (ref.blockOwnerDeletion === true) blocked = true;
      if (!d?.deletionTimestamp) this.enqueue('dependent', dep);
    }
    if (!blocked) await this.removeFinalizer(loc, m.uid, FOREGROUND_FINALIZER);
  }

  /** A dependent: deleted when no owner of it remains, its dangling references dropped when one does. */
  private async attemptToDelete(key: string): Promise<void> {
    const loc = this.locate(key);
    const obj = loc && (await this.read(key));
    const m = obj?.metadata;
    if (!loc || !m) return;
    if (m.deletionTimestamp) {
      // Being deleted already; one waiting for its own dependents is processed as an owner.
      if (Array.isArray(m.finalizers) && m.finalizers.includes(FOREGROUND_FINALIZER)) await this.processOwner(key);
      return;
    }
    const refs: OwnerRef[] = Array.isArray(m.ownerReferences) ? m.ownerReferences : [];
    if (!refs.length) return;
    const solid: OwnerRef[] = [];
    const gone: OwnerRef[] = [];
    const waiting: OwnerRef[] = [];
    for (const ref of refs) {
      const owner = this.resolveOwner(ref, loc);
      if (!owner) return;
      const ownerKey = objectKey(owner.r, owner.ns, ref.name);
      const forgets = this.forgets;
      const o = (await this.read(ownerKey))?.metadata;
      if (!o || o.uid !== ref.uid) gone.push(ref);
      else if (o.deletionTimestamp && Array.isArray(o.finalizers) && o.finalizers.includes(FOREGROUND_FINALIZER)) waiting.push(ref);
      else {
        solid.push(ref);
        // Unless its delete or deletion mark arrived while the read was answered.
        if (!o.deletionTimestamp && forgets === this.forgets) this.liveOwners.set(ownerKey, o.uid);
      }
    }
    if (solid.length) {
      // Kept by a live owner; references to owners that are gone (or waiting on it) are dropped.
      if (gone.length || waiting.length) await this.removeRefs(loc, new Set([...gone, ...waiting].map((r) => r.uid)), m.uid);
      return;
    }
    const finalizers: string[] = Array.isArray(m.finalizers) ? m.finalizers : [];
    let policy = finalizers.includes(ORPHAN_FINALIZER) ? 'Orphan' : finalizers.includes(FOREGROUND_FINALIZER) ? 'Foreground' : 'Background';
    // An owner waits for it in the foreground: its own dependents go first too.
    if (waiting.length && this.index.dependents(m.uid).length) policy = 'Foreground';
    await deleteObject(this.ctx, loc.r, loc.ns, loc.name, { dryRun: false, propagationPolicy: policy, preconditions: { uid: m.uid } });
  }

  private async removeRefs(loc: Located, uids: Set<string>, expectUid?: string): Promise<void> {
    await this.rewriteMeta(loc, expectUid, (meta) => {
      const refs = (meta.ownerReferences as OwnerRef[] | undefined) ?? [];
      const kept = refs.filter((r) => !uids.has(r.uid));
      if (kept.length === refs.length) return false;
      if (kept.length) meta.ownerReferences = kept;
      else delete meta.ownerReferences;
      return true;
    });
  }

  private async removeFinalizer(loc: Located, uid: string, finalizer: string): Promise<void> {
    await this.rewriteMeta(loc, uid, (meta) => {
      const finalizers: string[] = Array.isArray(meta.finalizers) ? meta.finalizers : [];
      if (!finalizers.includes(finalizer)) return false;
      const kept = finalizers.filter((f) => f !== finalizer);
      if (kept.length) meta.finalizers = kept;
      else delete meta.finalizers;
      return true;
    });
  }

  /** An update of metadata only, of the object with this uid (a recreated one is left alone). */
  private async rewriteMeta(loc: Located, uid: string | undefined, change: (meta: Obj) => boolean): Promise<void> {
    const current = await this.read(objectKey(loc.r, loc.ns, loc.name));
    if (!current || (uid && current.metadata?.uid !== uid)) return;
    if (!change({ ...current.metadata })) return;
    await updateObject(
      this.ctx,
      loc.r,
      loc.ns,
      loc.name,
      (cur) => {
        const obj = cur as Obj;
        if (uid && obj.metadata?.uid !== uid) return obj;
        const meta = { ...obj.metadata };
        return change(meta) ? { ...obj, metadata: meta } : obj;
      },
      { dryRun: false, subresource: '', allowCreate: false, checkName: false },
    );
  }

  private async read(key: string): Promise<Obj | undefined> {
    const kv = await this.ctx.mvcc.get(key);
    return kv && (JSON.parse(kv.value) as Obj);
  }

  private refreshMaps(): void {
    if (this.generation === this.ctx.catalog.generation) return;
    this.generation = this.ctx.catalog.generation;
    this.byPrefix = new Map();
    this.byKind = new Map();
    for (const r of this.ctx.catalog.servedResources()) {
      if (r.info.virtual) continue;
      if (!this.byPrefix.has(r.keyPrefix)) this.byPrefix.set(r.keyPrefix, r);
      this.byKind.set(`${r.apiVersion} ${r.info.kind}`, r);
    }
  }

  /** The resource, namespace and name a storage key belongs to. */
  private locate(key: string): Located | undefined {
    this.refreshMaps();
    const third = key.indexOf('/', key.indexOf('/', 1) + 1);
    const r = third > 0 ? this.byPrefix.get(key.slice(0, third + 1)) : undefined;
    if (!r) return undefined;
    const rest = key.slice(third + 1);
    if (!r.info.namespaced) return { r, ns: '', name: rest };
    const slash = rest.indexOf('/');
    return { r, ns: rest.slice(0, slash), name: rest.slice(slash + 1) };
  }

  /** Where a reference's owner would be stored, or undefined when it cannot be resolved. */
  private resolveOwner(ref: OwnerRef, dep: Located): { r: ServedResource; ns: string } | undefined {
    this.refreshMaps();
    const r = this.byKind.get(`${ref.apiVersion} ${ref.kind}`);
    if (!r || (r.info.namespaced && !dep.r.info.namespaced)) return undefined;
    return { r, ns: r.info.namespaced ? dep.ns : '' };
  }
}
