// The field sets kube-apiserver v1.23 exposes per kind for field selectors (the
// registry's ToSelectableFields functions). Keys are the internal (core) field names that
// convertFieldSelector produces. Which kind has which set is in its spec (../kinds/).

type Obj = Record<string, any>;

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function int(v: unknown): string {
  return String(typeof v === 'number' ? Math.trunc(v) : 0);
}

function metaFields(obj: Obj, namespaced: boolean): Record<string, string> {
  const m = (obj.metadata ?? {}) as Obj;
  const f: Record<string, string> = { 'metadata.name': str(m.name) };
  if (namespaced) f['metadata.namespace'] = str(m.namespace);
  return f;
}

function podFields(o: Obj): Record<string, string> {
  const spec = (o.spec ?? {}) as Obj;
  const status = (o.status ?? {}) as Obj;
  const podIPs = Array.isArray(status.podIPs) ? (status.podIPs as Obj[]) : [];
  return {
    'spec.nodeName': str(spec.nodeName),
    'spec.restartPolicy': str(spec.restartPolicy),
    'spec.schedulerName': str(spec.schedulerName),
    'spec.serviceAccountName': str(spec.serviceAccountName),
    'status.phase': str(status.phase),
    // kube takes the first of podIPs (status.podIP mirrors it).
    'status.podIP': podIPs.length ? str(podIPs[0].ip) : str(status.podIP),
    'status.nominatedNodeName': str(status.nominatedNodeName),
  };
}

function coreEventFields(o: Obj): Record<string, string> {
  const io = (o.involvedObject ?? {}) as Obj;
  const source = str((o.source ?? {}).component) || str(o.reportingComponent);
  return {
    'involvedObject.kind': str(io.kind),
    'involvedObject.namespace': str(io.namespace),
    'involvedObject.name': str(io.name),
    'involvedObject.uid': str(io.uid),
    'involvedObject.apiVersion': str(io.apiVersion),
    'involvedObject.resourceVersion': str(io.resourceVersion),
    'involvedObject.fieldPath': str(io.fieldPath),
    reason: str(o.reason),
    reportingComponent: str(o.reportingComponent),
    source,
    type: str(o.type),
  };
}

/** An events.k8s.io Event read through the same (core) field names. */
function eventsV1Fields(o: Obj): Record<string, string> {
  const r = (o.regarding ?? {}) as Obj;
  const source = str((o.deprecatedSource ?? {}).component) || str(o.reportingController);
  return {
    'involvedObject.kind': str(r.kind),
    'involvedObject.namespace': str(r.namespace),
    'involvedObject.name': str(r.name),
    'involvedObject.uid': str(r.uid),
    'involvedObject.apiVersion': str(r.apiVersion),
    'involvedObject.resourceVersion': str(r.resourceVersion),
    'involvedObject.fieldPath': str(r.fieldPath),
    reason: str(o.reason),
    reportingComponent: str(o.reportingController),
    source,
    type: str(o.type),
  };
}

/** The selectable fields a kind adds to metadata's (the kind's spec names its function, kinds/). */
export type KindFieldSet = (o: Obj) => Record<string, string>;

export const POD_FIELD_SET: KindFieldSet = podFields;
export const CORE_EVENT_FIELD_SET: KindFieldSet = coreEventFields;
export const EVENTS_V1_FIELD_SET: KindFieldSet = eventsV1Fields;
export const SECRET_FIELD_SET: KindFieldSet = (o) => ({ type: str(o.type) });
// kube also exposes a legacy `name` field on namespaces (not selectable via conversion).
export const NAMESPACE_FIELD_SET: KindFieldSet = (o) => ({ 'status.phase': str((o.status ?? {}).phase), name: str((o.metadata ?? {}).name) });
export const NODE_FIELD_SET: KindFieldSet = (o) => ({ 'spec.unschedulable': String((o.spec ?? {}).unschedulable === true) });
/** ReplicationController and ReplicaSet. */
export const REPLICAS_FIELD_SET: KindFieldSet = (o) => ({ 'status.replicas': int((o.status ?? {}).replicas) });
export const JOB_FIELD_SET: KindFieldSet = (o) => ({ 'status.successful': int((o.status ?? {}).succeeded) });
export const CSR_FIELD_SET: KindFieldSet = (o) => ({ 'spec.signerName': str((o.spec ?? {}).signerName) });

/**
 * The selectable fields of one object: metadata's and the kind's own (`kindFields`, from its
 * spec). `namespaced` defaults to "has metadata.namespace"; cluster-scoped kinds only expose
 * metadata.name.
 */
export function fieldsFor(kindFields: KindFieldSet | undefined, obj: unknown, namespaced?: boolean): Record<string, string> {
  const o = (obj ?? {}) as Obj;
  const ns = namespaced ?? typeof (o.metadata ?? {}).namespace === 'string';
  const base = metaFields(o, ns);
  return kindFields ? { ...base, ...kindFields(o) } : base;
}
