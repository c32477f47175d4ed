// Pod helpers kube's workload controllers share (pkg/controller/controller_utils.go and
// pkg/api/v1/pod): controller references, readiness and availability, pods made from a
// template, and the order in which a controller deletes surplus pods.
import { clone, type Obj } from '../registry/objects';

export interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller: boolean;
  blockOwnerDeletion: boolean;
}

export function controllerRefOf(obj: Obj): Obj | undefined {
  return ((obj.metadata?.ownerReferences ?? []) as Obj[]).find((r) => r.controller === true);
}

export function ownerRefTo(owner: Obj, apiVersion: string, kind: string): OwnerRef {
  return { apiVersion, kind, name: String(owner.metadata.name), uid: String(owner.metadata.uid), controller: true, blockOwnerDeletion: true };
}

export function isActivePod(pod: Obj): boolean {
  return pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

function readyCondition(pod: Obj): Obj | undefined {
  return ((pod.status?.conditions ?? []) as Obj[]).find((c) => c.type === 'Ready');
}

export function isPodReady(pod: Obj): boolean {
  return readyCondition(pod)?.status === 'True';
}

/** Ready for at least minReadySeconds (podutil.IsPodAvailable). */
export function isPodAvailable(pod: Obj, minReadySeconds: number, now: number): boolean {
  const c = readyCondition(pod);
  if (c?.status !== 'True') return false;
  if (!minReadySeconds) return true;
  const since = Date.parse(String(c.lastTransitionTime ?? ''));
  return Number.isFinite(since) && since + minReadySeconds * 1000 <= now;
}

/** GetPodFromTemplate: a new pod's labels, annotations and spec from the template, owned by the controller. */
export function podFromTemplate(template: Obj, namePrefix: string, namespace: string, owner: OwnerRef): Obj {
  const meta = (template.metadata ?? {}) as Obj;
  const metadata: Obj = { generateName: `${namePrefix}-`, namespace };
  if (meta.labels) metadata.labels = { ...meta.labels };
  if (meta.annotations) metadata.annotations = { ...meta.annotations };
  metadata.ownerReferences = [owner];
  if (meta.finalizers) metadata.finalizers = [...meta.finalizers];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: clone(template.spec ?? {}) };
}

const PHASE_RANK: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/**
 * ActivePods' deletion order (controller.ActivePods Less): unassigned before assigned, pending
 * before unknown before running, not ready before ready, ready for less time before more, more
 * restarts before fewer, newer before older.
 */
export function deletionOrder(a: Obj, b: Obj): number {
  const assigned = (p: Obj) => (p.spec?.nodeName ? 1 : 0);
  if (assigned(a) !== assigned(b)) return assigned(a) - assigned(b);
  const phase = (p: Obj) => PHASE_RANK[String(p.status?.phase ?? 'Pending')] ?? 0;
  if (phase(a) !== phase(b)) return phase(a) - phase(b);
  const ready = (p: Obj) => (isPodReady(p) ? 1 : 0);
  if (ready(a) !== ready(b)) return ready(a) - ready(b);
  if (isPodReady(a) && isPodReady(b)) {
    const since = (p: Obj) => Date.parse(String(readyCondition(p)?.lastTransitionTime ?? '')) || 0;
    if (since(a) !== since(b)) return since(b) - since(a);
  }
  const restarts = (p: Obj) => Math.max(0, ...((p.status?.containerStatuses ?? []) as Obj[]).map((s) => Number(s.restartCount ?? 0)));
  if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
  const created = (p: Obj) => Date.parse(String(p.metadata?.creationTimestamp ?? '')) || 0;
  if (created(a) !== created(b)) return created(b) - created(a);
  return String(b.metadata?.name).localeCompare(String(a.metadata?.name));
}
