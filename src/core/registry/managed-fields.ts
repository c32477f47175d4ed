// Glue between the generic store and the field-management engine (src/core/fieldmanager):
// which schema a resource's fields are typed by, which fields a write path ignores, and how a
// non-apply write updates metadata.managedFields.
import type { ServedResource } from './catalog';
import type { Obj } from './objects';
import { managedFieldsForUpdate, updateManagedFields, type ManagedFieldsEntry, type SchemaRoot } from '../fieldmanager';

/** Who writes: `fieldManager`, or the User-Agent's prefix when it is unset. */
export interface FieldOwner {
  manager: string;
}

export function schemaRootFor(r: ServedResource): SchemaRoot {
  if (r.info.custom) return r.info.openAPIV3Schema ? { openAPIV3Schema: r.info.openAPIV3Schema } : { unstructured: true };
  return r.info.definition ? { definition: r.info.definition } : { unstructured: true };
}

/** kube's reset fields: the main resource does not own status, the status subresource does not own spec. */
export function ignoredFieldsFor(r: ServedResource, subresource: string): string[][] {
  if (subresource === 'status') return [['spec'], ['metadata']];
  if (r.strategy.hasStatusSubresource && subresource === '') return [['status']];
  return [];
}

function setManaged(obj: Obj, managed: ManagedFieldsEntry[]): void {
  if (managed.length) obj.metadata.managedFields = managed;
  else delete obj.metadata.managedFields;
}

/** Record a create/update/patch by `owner` in next.metadata.managedFields (old undefined for create). */
export function trackWrite(r: ServedResource, old: Obj | undefined, next: Obj, subresource: string, owner: FieldOwner, time: string): void {
  const managed = managedFieldsForUpdate(next.metadata?.managedFields, old?.metadata?.managedFields);
  const out = updateManagedFields({
    old,
    next,
    managed,
    manager: owner.manager,
    apiVersion: r.apiVersion,
    subresource: subresource || undefined,
    time,
    schema: schemaRootFor(r),
    ignoredFields: ignoredFieldsFor(r, subresource),
  });
  setManaged(next, out);
}
