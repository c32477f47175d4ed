// An object's history as a learner reads it: for each revision the host recorded, who wrote it
// (the managedFields entries that changed), which fields changed value, and which fields changed
// owner — including a manager that lost its last field, which the live legend no longer shows.
import { ownershipView, type ManagedFieldsEntry } from './ownership';

export interface RecordedRevision {
  rev: number;
  type: 'put' | 'delete';
  /** The object as stored at this revision (the last one it had, for a delete). */
  object: Record<string, unknown>;
}

export interface OwnerChange {
  path: string;
  gained: string[];
  lost: string[];
}

export interface TimelineEntry {
  rev: number;
  type: 'created' | 'changed' | 'deleted';
  /** "manager (Operation)" of each managedFields entry this write added or touched. */
  writers: string[];
  changedValues: string[];
  ownerChanges: OwnerChange[];
  /** Managers that owned fields before this revision and own none after it. */
  managersGone: string[];
}

type Json = unknown;

/** Leaf values by path (`.spec.replicas`, `.spec.containers[0].image`), without server-kept fields. */
export function leafValues(obj: Json, path = '', out = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(obj)) {
    if (obj.length === 0) out.set(path, '[]');
    obj.forEach((v, i) => leafValues(v, `${path}[${i}]`, out));
  } else if (obj && typeof obj === 'object') {
    const keys = Object.keys(obj);
    if (keys.length === 0) out.set(path, '{}');
    for (const k of keys) {
      const p = `${path}.${k}`;
      if (p === '.metadata.managedFields' || p === '.metadata.resourceVersion') continue;
      leafValues((obj as Record<string, Json>)[k], p, out);
    }
  } else out.set(path, JSON.stringify(obj));
  return out;
}

/** Field path → its owners' names, as the ownership view computes them. */
export function ownersByPath(obj: Json): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of ownershipView(obj).lines) {
    const names = [...new Set(line.owners.map((o) => o.manager))].sort();
    for (const p of line.paths) out.set(p, names);
  }
  return out;
}

const entryId = (e: ManagedFieldsEntry) => `${e.manager ?? ''}\u0000${e.operation ?? ''}\u0000${e.subresource ?? ''}`;
const managed = (obj: Json): ManagedFieldsEntry[] => ((obj as { metadata?: { managedFields?: ManagedFieldsEntry[] } })?.metadata?.managedFields ?? []);

function writersOf(before: Json, after: Json): string[] {
  const old = new Map(managed(before).map((e) => [entryId(e), JSON.stringify(e)]));
  return managed(after)
    .filter((e) => old.get(entryId(e)) !== JSON.stringify(e))
    .map((e) => `${e.manager || '(no manager)'} (${e.operation ?? ''}${e.subresource ? `, ${e.subresource}` : ''})`);
}

function diffValues(a: Map<string, string>, b: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [p, v] of b) if (a.get(p) !== v) out.push(p);
  for (const p of a.keys()) if (!b.has(p)) out.push(p);
  return out.sort();
}

function diffOwners(a: Map<string, string[]>, b: Map<string, string[]>): { changes: OwnerChange[]; gone: string[] } {
  const changes: OwnerChange[] = [];
  for (const p of new Set([...a.keys(), ...b.keys()])) {
    const was = a.get(p) ?? [];
    const now = b.get(p) ?? [];
    const gained = now.filter((m) => !was.includes(m));
    const lost = was.filter((m) => !now.includes(m));
    if (gained.length || lost.length) changes.push({ path: p, gained, lost });
  }
  const ownersIn = (m: Map<string, string[]>) => new Set([...m.values()].flat());
  const after_ = ownersIn(b);
  const gone = [...ownersIn(a)].filter((m) => !after_.has(m)).sort();
  return { changes: changes.sort((x, y) => (x.path < y.path ? -1 : 1)), gone };
}

function ownersOfPaths(obj: Json, paths: string[]): string[] {
  const view = ownershipView(obj);
  const wanted = new Set(paths);
  const out = new Set<string>();
  for (const line of view.lines) if (line.paths.some((p) => wanted.has(p))) for (const o of line.owners) out.add(`${o.manager || '(no manager)'} (${o.operation}${o.subresource ? `, ${o.subresource}` : ''})`);
  return [...out].sort();
}

export function describeTimeline(revisions: readonly RecordedRevision[]): TimelineEntry[] {
  const out: TimelineEntry[] = [];
  // Each revision's values and owners are read once and compared with the next revision's.
  let before: { object: Json; values: Map<string, string>; owners: Map<string, string[]> } | undefined;
  for (const r of [...revisions].sort((x, y) => x.rev - y.rev)) {
    if (r.type === 'delete') {
      out.push({ rev: r.rev, type: 'deleted', writers: [], changedValues: [], ownerChanges: [], managersGone: [] });
      before = undefined;
      continue;
    }
    const now = { object: r.object as Json, values: leafValues(r.object), owners: ownersByPath(r.object) };
    const owners = diffOwners(before?.owners ?? new Map(), now.owners);
    const changedValues = diffValues(before?.values ?? new Map(), now.values);
    let writers = writersOf(before?.object, r.object);
    // A write that changed values but left every managedFields entry as it was (same fields, and
    // the entry's time kept): its writer owns what changed.
    if (!writers.length && changedValues.length) writers = ownersOfPaths(r.object, changedValues);
    out.push({ rev: r.rev, type: before === undefined ? 'created' : 'changed', writers, changedValues, ownerChanges: owners.changes, managersGone: owners.gone });
    before = now;
  }
  return out;
}
