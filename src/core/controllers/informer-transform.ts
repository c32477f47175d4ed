// What the shared informer keeps of each object it is sent (client-go's SetTransform, with
// TransformStripManagedFields): everything but metadata.managedFields. No controller reads
// managedFields, and an Update that omits them keeps the stored ones (the API server starts from
// the live entries when the request has none), so a controller writing back a cached object
// changes nothing by their absence. For a running pod they are a third of its JSON, and the
// informer holds one parsed copy of every object in the cluster.
import type { Obj } from '../registry/objects';

/** The object without metadata.managedFields; `obj` itself when it has none. */
export function stripManagedFields(obj: Obj): Obj {
  const meta = obj.metadata as Obj | undefined;
  if (!meta || !('managedFields' in meta)) return obj;
  // A copy rather than `delete`: deleting a property that is not the last one added leaves V8
  // a slower, larger dictionary-mode object for the informer to hold.
  const { managedFields: _dropped, ...rest } = meta;
  return { ...obj, metadata: rest };
}
