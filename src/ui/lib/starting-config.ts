// A configuration to start editing from: the live object without what the server owns (status,
// uid, resourceVersion, managedFields, timestamps...). Applying the whole live object would make
// the applier co-own every field, and a stale resourceVersion would turn the apply into a
// precondition failure; this keeps only what a person would write in a manifest.
type Obj = Record<string, unknown>;

const SERVER_METADATA = ['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'managedFields', 'selfLink'];

export function startingConfig(live: unknown): Obj {
  const obj = (live && typeof live === 'object' ? live : {}) as Obj;
  // Entries, not assignments: a top-level key named `__proto__` stays a key.
  const out: Obj = Object.fromEntries(Object.entries(obj).filter(([k]) => k !== 'status'));
  const meta = { ...((obj.metadata as Obj | undefined) ?? {}) };
  for (const k of SERVER_METADATA) delete meta[k];
  const annotations = meta.annotations as Record<string, string> | undefined;
  // kubectl's client-side-apply record would make a server-side applier own a stale copy of itself.
  if (annotations && 'kubectl.kubernetes.io/last-applied-configuration' in annotations) {
    const { ['kubectl.kubernetes.io/last-applied-configuration']: _dropped, ...rest } = annotations;
    if (Object.keys(rest).length) meta.annotations = rest;
    else delete meta.annotations;
  }
  out.metadata = meta;
  return out;
}

/** The minimal apply configuration for one kind: identity only, fields to be filled in. */
export function skeletonConfig(apiVersion: string, kind: string, name: string, namespace?: string): Obj {
  return { apiVersion, kind, metadata: namespace ? { name, namespace } : { name } };
}
