// Readable views of managedFields for tests, the bench and debugging: each entry's owned fields
// printed the way kube prints paths in conflicts.
import { fromFieldsV1 } from './fieldsv1';
import type { ManagedFieldsEntry } from './managed';
import { pathString } from './pathelement';
import { setOwnKey } from '../codec/own-keys';

/** `manager:operation[:subresource]` → owned member paths (`.spec.replicas`, `...[name="c"]`). */
export function ownedPaths(managed: readonly ManagedFieldsEntry[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of managed) {
    const label = [e.manager, e.operation, ...(e.subresource ? [e.subresource] : [])].join(':');
    setOwnKey(out, label, fromFieldsV1(e.fieldsV1).paths().map(pathString));
  }
  return out;
}
