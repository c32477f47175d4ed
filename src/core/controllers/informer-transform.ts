// What the shared informer keeps of each object it is sent (client-go's SetTransform, with
// TransformStripManagedFields): everything but metadata.managedFields. No controller reads
// managedFields, and an Update that omits them keeps the stored ones (the API server starts from
// the live entries when the request has none), so a controller writing back a cached object
// changes nothing by their absence. For a running pod they are a third of its JSON, and the
// informer holds one parsed copy of every object in the cluster.
import { deepEqual, type Obj } from '../registry/objects';

/** The object without metadata.managedFields; `obj` itself when it has none. */
export function stripManagedFields(obj: Obj): Obj {
  const meta = obj.metadata as Obj | undefined;
  if (!meta || !('managedFields' in meta)) return obj;
  // A copy rather than `delete`: deleting a property that is not the last one added leaves V8
  // a slower, larger dictionary-mode object for the informer to hold.
  const { managedFields: _dropped, ...rest } = meta;
  return { ...obj, metadata: rest };
}

/**
 * `obj` with `old`'s spec object in place of its own when the two are equal and the generation
 * did not move: a status write (a ReplicaSet's per pod, a Deployment's per ReplicaSet change)
 * leaves the spec as it was, and handing the controllers the same spec object lets what they
 * keep per template (deployment-util's hashless texts) be found again instead of worked out
 * anew. The generation only gates the check: kube keeps it when a spec changes in form but not
 * in meaning (a quantity written another way), so the spec is still compared, and a spec that
 * differs in any way is kept as sent. Kinds without a generation (pods) are left alone.
 */
export function withCachedSpec(obj: Obj, old: Obj | undefined): Obj {
  const generation = obj.metadata?.generation;
  if (!old || generation === undefined || old.metadata?.generation !== generation) return obj;
  const spec = obj.spec;
  if (!spec || !old.spec || spec === old.spec || !deepEqual(spec, old.spec)) return obj;
  return { ...obj, spec: old.spec };
}
