// client-go's cache.Indexer, in small: named functions give each object index values, and the
// objects holding a value can be found without walking the whole cache. A controller asks for
// the pods of one owner, not for every pod in the cluster (kube's workload controllers still
// walk a namespace's pods per sync; at a thousand pods per owner that walk is the sync's cost).
import type { Obj } from '../registry/objects';

export type IndexFunc = (obj: Obj) => readonly string[];

export class InformerIndexes {
  private readonly funcs = new Map<string, IndexFunc>();
  /** index name → value → object key → object. */
  private readonly indexes = new Map<string, Map<string, Map<string, Obj>>>();

  has(name: string): boolean {
    return this.funcs.has(name);
  }

  /** A new index over `objects` (the cache's current content). */
  add(name: string, fn: IndexFunc, objects: Iterable<[string, Obj]>): void {
    this.funcs.set(name, fn);
    this.indexes.set(name, new Map());
    for (const [key, obj] of objects) this.insert(name, fn, key, obj);
  }

  /** The cache set `key` from `old` (absent for a new key) to `obj` (absent for a deletion). */
  update(key: string, old: Obj | undefined, obj: Obj | undefined): void {
    for (const [name, fn] of this.funcs) {
      if (old) {
        const byValue = this.indexes.get(name)!;
        for (const value of fn(old)) {
          const set = byValue.get(value);
          set?.delete(key);
          if (set?.size === 0) byValue.delete(value);
        }
      }
      if (obj) this.insert(name, fn, key, obj);
    }
  }

  /** The objects whose index `name` holds `value`, a copy (callers may await while the cache moves). */
  get(name: string, value: string): Obj[] {
    const set = this.indexes.get(name)?.get(value);
    return set ? [...set.values()] : [];
  }

  private insert(name: string, fn: IndexFunc, key: string, obj: Obj): void {
    const byValue = this.indexes.get(name)!;
    for (const value of fn(obj)) {
      let set = byValue.get(value);
      if (!set) byValue.set(value, (set = new Map()));
      set.set(key, obj);
    }
  }
}
