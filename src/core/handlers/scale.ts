// The scale subresource: an autoscaling/v1 Scale view of an object's replica count.
import type { ApiResponse } from '../types';
import type { RequestContext } from '../server/context';
import type { OutputFormat } from '../server/output';
import { badRequest, invalid } from '../server/status';
import { getObject, updateObject } from '../registry/store';
import { clone, parseStored, type Obj } from '../registry/objects';
import { encodeValue } from '../server/respond';
import type { ServedResource } from '../registry/catalog';
import type { FieldOwner } from '../registry/managed-fields';
import type { AdmissionView } from '../admission/webhooks/view';
import { requestAttributes } from '../admission/request-attributes';

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

export async function handleScaleGet(rc: RequestContext, out: OutputFormat): Promise<ApiResponse> {
  const kv = await getObject(rc.reg, rc.r, rc.info.namespace, rc.info.name);
  // Read like the object itself (a custom object with its storage schema's defaults).
  const obj = rc.r.codec ? rc.r.codec.toServed(kv.value) : parseStored(kv.value, rc.r.info.kind, rc.r.apiVersion);
  return encodeValue(200, scaleOf(rc.r, obj), out, rc.warnings);
}

function replicasOf(rc: RequestContext, scale: unknown): number {
  if (!scale || typeof scale !== 'object') throw badRequest('the body of the request was in an unknown format');
  const replicas = (scale as Obj).spec?.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw invalid('autoscaling', 'Scale', rc.info.name, [{ type: 'FieldValueInvalid', field: 'spec.replicas', value: replicas, detail: 'must be greater than or equal to 0' }]);
  }
  return replicas;
}

/** Admission of a scale write sees autoscaling/v1 Scale objects; a mutating webhook's Scale sets the replicas. */
function scaleView(rc: RequestContext): AdmissionView {
  const p = scalePaths(rc.r);
  return {
    kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
    toView: (obj) => scaleOf(rc.r, obj),
    fromView: (view, obj) => {
      const next = clone(obj);
      setPath(next, p.spec, replicasOf(rc, view));
      return next;
    },
  };
}

/** PUT or PATCH of the scale: `toScale` turns the current Scale into the desired one. */
export async function handleScaleUpdate(rc: RequestContext, out: OutputFormat, toScale: (current: Obj) => unknown, dryRun: boolean, owner?: FieldOwner): Promise<ApiResponse> {
  const p = scalePaths(rc.r);
  const res = await updateObject(
    rc.reg,
    rc.r,
    rc.info.namespace,
    rc.info.name,
    (current) => {
      const desired = toScale(scaleOf(rc.r, current)) as Obj;
      const replicas = replicasOf(rc, desired);
      const next = clone(current);
      // The Scale's resourceVersion is the object's: a stale one is a conflict.
      next.metadata.resourceVersion = desired.metadata?.resourceVersion || current.metadata.resourceVersion;
      setPath(next, p.spec, replicas);
      return next;
    },
    // kube admits a scale write as an UPDATE of the `scale` subresource, and its field manager
    // records the writer with that subresource (a manager of its own beside the same name's
    // writes to the main resource), as apply on /scale does.
    { dryRun, subresource: 'scale', allowCreate: false, checkName: false, owner, attrs: requestAttributes(rc, 'UPDATE', dryRun), view: scaleView(rc) },
  );
  return encodeValue(200, scaleOf(rc.r, res.obj), out, rc.warnings);
}
