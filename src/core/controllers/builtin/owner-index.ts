// Who depends on whom: every stored object's metadata.ownerReferences, indexed by owner uid, so
// the garbage collector finds an owner's dependents without scanning the store. Fed from store
// events; objects without references (nearly all) cost one substring test per write, and the
// references of the others are read out of their text (owner-refs-text.ts).
export interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export class OwnerIndex {
  private readonly refsByKey = new Map<string, OwnerRef[]>();
  private readonly dependentsByUid = new Map<string, Set<string>>();

  /** No object references another: deletions need not look up dependents. */
  get empty(): boolean {
    return this.refsByKey.size === 0;
  }

  refs(key: string): readonly OwnerRef[] {
    return this.refsByKey.get(key) ?? [];
  }

  /** Keys of the objects that name `uid` as an owner. */
  dependents(uid: string): string[] {
    const deps = this.dependentsByUid.get(uid);
    return deps ? [...deps] : [];
  }

  /** Records the key's references (none: forgets the key); answers the references it did not have. */
  set(key: string, refs: readonly OwnerRef[] | undefined): OwnerRef[] {
    const before = this.refsByKey.get(key);
    if (!refs || refs.length === 0) {
      if (before) this.remove(key);
      return [];
    }
    // A pod is written several times with the same references: nothing to relink.
    if (before && before.length === refs.length && before.every((r, i) => r.uid === refs[i].uid)) {
      this.refsByKey.set(key, [...refs]);
      return [];
    }
    const known = new Set(before?.map((r) => r.uid));
    const kept = new Set(refs.map((r) => r.uid));
    for (const old of before ?? []) if (!kept.has(old.uid)) this.unlink(old.uid, key);
    this.refsByKey.set(key, [...refs]);
    const added: OwnerRef[] = [];
    for (const ref of refs) {
      let deps = this.dependentsByUid.get(ref.uid);
      if (!deps) this.dependentsByUid.set(ref.uid, (deps = new Set()));
      deps.add(key);
      if (!known.has(ref.uid)) added.push(ref);
    }
    return added;
  }

  /** Forgets a deleted key; answers the references it had. */
  remove(key: string): OwnerRef[] {
    const refs = this.refsByKey.get(key) ?? [];
    this.refsByKey.delete(key);
    for (const ref of refs) this.unlink(ref.uid, key);
    return refs;
  }

  private unlink(uid: string, key: string): void {
    const deps = this.dependentsByUid.get(uid);
    if (!deps) return;
    deps.delete(key);
    if (deps.size === 0) this.dependentsByUid.delete(uid);
  }
}
