// Apply conflicts and the messages kube-apiserver writes for them (409, reason Conflict,
// causes of type FieldManagerConflict).
import type { FieldSet } from './fieldset';
import { type ManagerInfo, managerIdentifier } from './managed';
import { pathString } from './pathelement';

export interface Conflict {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  subresource?: string;
  /** The field as kube prints it: `.spec.replicas`, `.spec.containers[name="x"].image`. */
  field: string;
}

/** Flattens conflict sets into conflicts, managers in identifier order, fields in set order. */
export function conflictsFromSets(sets: Map<string, FieldSet>, info: Map<string, ManagerInfo>): Conflict[] {
  const out: Conflict[] = [];
  for (const id of [...sets.keys()].sort()) {
    const m = info.get(id);
    if (!m) continue;
    sets.get(id)!.iterate((p) => {
      const c: Conflict = { manager: m.manager, operation: m.operation, apiVersion: m.apiVersion, field: pathString(p) };
      if (m.subresource) c.subresource = m.subresource;
      out.push(c);
    });
  }
  return out;
}

/** `"m"`, `"m" using apps/v1`, `"m" with subresource "status" using v1` (kube's printManager). */
function printManager(c: Conflict): string {
  let s = JSON.stringify(c.manager);
  if (c.subresource) s += ` with subresource ${JSON.stringify(c.subresource)}`;
  if (c.operation === 'Update') s += ` using ${c.apiVersion}`;
  return s;
}

export function conflictMessages(conflicts: Conflict[]): {
  message: string;
  causes: Array<{ reason: 'FieldManagerConflict'; message: string; field: string }>;
} {
  const causes = conflicts.map((c) => ({ reason: 'FieldManagerConflict' as const, message: `conflict with ${printManager(c)}`, field: c.field }));
  if (conflicts.length === 1) {
    const c = conflicts[0]!;
    return { message: `Apply failed with 1 conflict: conflict with ${printManager(c)}: ${c.field}`, causes };
  }
  // Grouped per manager, managers sorted by their identifier as kube sorts them.
  const groups = new Map<string, { printed: string; fields: string[] }>();
  for (const c of conflicts) {
    const info: ManagerInfo = { manager: c.manager, operation: c.operation, apiVersion: c.apiVersion };
    if (c.subresource) info.subresource = c.subresource;
    const id = managerIdentifier(info);
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { printed: printManager(c), fields: [] }));
    g.fields.push(c.field);
  }
  const lines: string[] = [];
  for (const id of [...groups.keys()].sort()) {
    const g = groups.get(id)!;
    lines.push(`conflicts with ${g.printed}:`);
    for (const f of g.fields) lines.push(`- ${f}`);
  }
  return { message: `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`, causes };
}
