// The scale subresource as a view: an autoscaling/v1 Scale of an object's replica count (the
// built-ins' spec.replicas/status.replicas, or a CRD's declared paths).
import type { ServedResource } from './catalog';
import { clone, type Obj } from './objects';
import { badRequest, invalid } from '../meta/status';
import type { SubresourceView } from './subresource-view';

interface ScalePaths {
  spec: string[];
  status: string[];
  selector?: string[];
}

function pathOf(jsonPath: string): string[] {
  return jsonPath.replace(/^\./, '').split('.').filter(Boolean);
}

function scalePaths(r: ServedResource): ScalePaths {
  if (r.info.scale) {
    return { spec: pathOf(r.info.scale.specReplicasPath), status: pathOf(r.info.scale.statusReplicasPath), selector: r.info.scale.labelSelectorPath ? pathOf(r.info.scale.labelSelectorPath) : undefined };
  }
  return { spec: ['spec', 'replicas'], status: ['status', 'replicas'] };
}

function getPath(o: Obj, path: string[]): unknown {
  let cur: any = o;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = cur[p];
  }
  return cur;
}

function setPath(o: Obj, path: string[], value: unknown): void {
  let cur: any = o;
  for (const p of path.slice(0, -1)) {
    if (cur[p] === null || typeof cur[p] !== 'object') cur[p] = {};
    cur = cur[p];
  }
  cur[path[path.length - 1]] = value;
}

/** metav1.LabelSelector (or a plain map for ReplicationControllers) → selector string. */
export function selectorString(sel: unknown): string {
  if (!sel || typeof sel !== 'object') return '';
  const s = sel as Obj;
  const isLabelSelector = 'matchLabels' in s || 'matchExpressions' in s;
  const labels: Record<string, string> = isLabelSelector ? (s.matchLabels ?? {}) : (s as Record<string, string>);
  const parts = Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`);
  for (const e of (isLabelSelector ? s.matchExpressions : undefined) ?? []) {
    const vals = [...(e.values ?? [])].sort().join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${vals})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${vals})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.join(',');
}

export function scaleOf(r: ServedResource, obj: Obj): Obj {
  const p = scalePaths(r);
  const m = obj.metadata ?? {};
  const meta: Obj = { name: m.name };
  if (m.namespace) meta.namespace = m.namespace;
  meta.uid = m.uid;
  meta.resourceVersion = m.resourceVersion;
  meta.creationTimestamp = m.creationTimestamp;
  const status: Obj = { replicas: Number(getPath(obj, p.status) ?? 0) };
  const selector = p.selector ? getPath(obj, p.selector) : selectorString(obj.spec?.selector);
  if (selector) status.selector = selector;
  return { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: meta, spec: { replicas: Number(getPath(obj, p.spec) ?? 0) }, status };
}

function replicasOf(name: string, scale: unknown): number {
  if (!scale || typeof scale !== 'object') throw badRequest('the body of the request was in an unknown format');
  const replicas = (scale as Obj).spec?.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw invalid('autoscaling', 'Scale', name, [{ type: 'FieldValueInvalid', field: 'spec.replicas', value: replicas, detail: 'must be greater than or equal to 0' }]);
  }
  return replicas;
}

export const SCALE_VIEW: SubresourceView = {
  group: 'autoscaling',
  version: 'v1',
  kind: 'Scale',
  apiVersion: 'autoscaling/v1',
  definition: 'io.k8s.api.autoscaling.v1.Scale',
  applyIgnoredFields: [['status']],
  toView: scaleOf,
  fromView(r, view, parent, name) {
    const next = clone(parent);
    setPath(next, scalePaths(r).spec, replicasOf(name, view));
    return next;
  },
  // A Scale's spec.replicas is the object's; so are its resourceVersion and managedFields.
  fromAppliedView(_r, merged, view, parent) {
    const next = clone(parent);
    next.spec = { ...(next.spec ?? {}), replicas: merged.spec?.replicas ?? view.spec.replicas };
    if (merged.metadata?.resourceVersion) next.metadata.resourceVersion = merged.metadata.resourceVersion;
    if (merged.metadata?.managedFields) next.metadata.managedFields = merged.metadata.managedFields;
    return next;
  },
};
