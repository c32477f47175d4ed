// Sets of field paths (fieldpath.Set), stored as a trie. Each node maps a path element to an
// entry that may be a member itself (the `.` marker when it also has children) and may have a
// child set. Parent/child semantics follow structured-merge-diff: owning a child does not mean
// owning its parent, and the plain set operations work member by member; only
// recursiveDifference removes whole subtrees.
import { comparePathElements, type Path, type PathElement } from './pathelement';

interface Entry {
  pe: PathElement;
  member: boolean;
  /** Never an empty set: empty children are dropped so emptiness checks stay cheap. */
  child: FieldSet | null;
}

export class FieldSet {
  private readonly entries = new Map<string, Entry>();

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  isEmpty(): boolean {
    return this.entries.size === 0;
  }

  /** Adds `path` as a member (mutates; used while building sets). */
  insert(path: Path): void {
    if (path.length === 0) return;
    let node: FieldSet = this;
    for (let i = 0; i < path.length; i++) {
      const pe = path[i]!;
      let e = node.entries.get(pe.id);
      if (!e) {
        e = { pe, member: false, child: null };
        node.entries.set(pe.id, e);
      }
      if (i === path.length - 1) {
        e.member = true;
      } else {
        if (!e.child) e.child = new FieldSet();
        node = e.child;
      }
    }
  }

  /** Adds `pe` as a member of this level and returns nothing; a shortcut for insert([pe]). */
  insertMember(pe: PathElement): void {
    const e = this.entries.get(pe.id);
    if (e) e.member = true;
    else this.entries.set(pe.id, { pe, member: true, child: null });
  }

  /** Attaches a non-empty child set under `pe` (mutates; child must not be shared afterwards). */
  attachChild(pe: PathElement, child: FieldSet): void {
    if (child.isEmpty()) return;
    const e = this.entries.get(pe.id);
    if (!e) this.entries.set(pe.id, { pe, member: false, child });
    else e.child = e.child ? e.child.union(child) : child;
  }

  has(path: Path): boolean {
    let node: FieldSet | null = this;
    for (let i = 0; i < path.length && node; i++) {
      const e: Entry | undefined = node.entries.get(path[i]!.id);
      if (!e) return false;
      if (i === path.length - 1) return e.member;
      node = e.child;
    }
    return false;
  }

  hasMember(pe: PathElement): boolean {
    return this.entries.get(pe.id)?.member === true;
  }

  /** The child set under `pe` (empty when there is none). */
  withPrefix(pe: PathElement): FieldSet {
    return this.entries.get(pe.id)?.child ?? EMPTY;
  }

  union(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    if (this.isEmpty()) return other;
    const out = new FieldSet();
    for (const [id, e] of this.entries) {
      const o = other.entries.get(id);
      if (!o) out.entries.set(id, e);
      else {
        const child = e.child && o.child ? e.child.union(o.child) : e.child ?? o.child;
        out.entries.set(id, { pe: e.pe, member: e.member || o.member, child });
      }
    }
    for (const [id, o] of other.entries) if (!this.entries.has(id)) out.entries.set(id, o);
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, e] of this.entries) {
      const o = other.entries.get(id);
      if (!o) continue;
      const member = e.member && o.member;
      const child = e.child && o.child ? nonEmpty(e.child.intersection(o.child)) : null;
      if (member || child) out.entries.set(id, { pe: e.pe, member, child });
    }
    return out;
  }

  /** Members of this set that are not members of `other` (children compared level by level). */
  difference(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    const out = new FieldSet();
    for (const [id, e] of this.entries) {
      const o = other.entries.get(id);
      if (!o) {
        out.entries.set(id, e);
        continue;
      }
      const member = e.member && !o.member;
      const child = e.child ? (o.child ? nonEmpty(e.child.difference(o.child)) : e.child) : null;
      if (member || child) out.entries.set(id, { pe: e.pe, member, child });
    }
    return out;
  }

  /** Like difference, but a member of `other` also removes everything below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    const out = new FieldSet();
    for (const [id, e] of this.entries) {
      const o = other.entries.get(id);
      if (!o) {
        out.entries.set(id, e);
        continue;
      }
      if (o.member) continue;
      const child = e.child ? (o.child ? nonEmpty(e.child.recursiveDifference(o.child)) : e.child) : null;
      if (e.member || child) out.entries.set(id, { pe: e.pe, member: e.member, child });
    }
    return out;
  }

  equals(other: FieldSet): boolean {
    if (this.entries.size !== other.entries.size) return false;
    for (const [id, e] of this.entries) {
      const o = other.entries.get(id);
      if (!o || o.member !== e.member) return false;
      if (!e.child !== !o.child) return false;
      if (e.child && o.child && !e.child.equals(o.child)) return false;
    }
    return true;
  }

  /** Entries of this level in kube's order. */
  sortedEntries(): ReadonlyArray<Readonly<Entry>> {
    return [...this.entries.values()].sort((a, b) => comparePathElements(a.pe, b.pe));
  }

  /** Visits every member path: this level's members first, then each child, in kube's order. */
  iterate(fn: (path: Path) => void, prefix: PathElement[] = []): void {
    const sorted = this.sortedEntries();
    for (const e of sorted) if (e.member) fn([...prefix, e.pe]);
    for (const e of sorted) if (e.child) e.child.iterate(fn, [...prefix, e.pe]);
  }

  /** All member paths (handy in tests and messages). */
  paths(): Path[] {
    const out: Path[] = [];
    this.iterate((p) => out.push(p));
    return out;
  }

  /** Visits this level's entries in insertion order (cheaper than sortedEntries). */
  forEachEntry(fn: (pe: PathElement, member: boolean, child: FieldSet | null) => void): void {
    for (const e of this.entries.values()) fn(e.pe, e.member, e.child);
  }

  /** Direct access for walkers that rebuild sets level by level. */
  entry(pe: PathElement): Readonly<Entry> | undefined {
    return this.entries.get(pe.id);
  }
}

function nonEmpty(s: FieldSet): FieldSet | null {
  return s.isEmpty() ? null : s;
}

const EMPTY = new FieldSet();
