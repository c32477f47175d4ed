// The scheduler's filters (kube-scheduler v1.23 plugins NodeUnschedulable, TaintToleration,
// NodeAffinity, NodeResourcesFit, InterPodAffinity, in the default profile's order: a node is
// refused by the first that fails), as functions of a pod, a node and what the node already holds (scheduler-cache.ts). Each refusal is worded as the plugin words it, because the
// FailedScheduling message counts nodes per reason.
import type { Obj } from '../registry/objects';
import { parseQuantity } from '../validation/quantity';
import { labelSelectorFromObject, matchesLabels, requirementMatches } from '../selectors/labels';
import type { InterPodAffinity } from './pod-fit-affinity';
import type { PodVolumes } from './pod-fit-volumes';

/** A quantity in thousandths (cpu in millicores, memory in millibytes), as the scheduler compares them. */
export function milli(q: unknown): number {
  if (typeof q !== 'string') return milliOf(q);
  // The same few texts (each node's allocatable cpu, memory and pods, the pods' requests) are
  // read for every node of every pod placed: parsed once each.
  let v = milliTexts.get(q);
  if (v === undefined) {
    if (milliTexts.size >= MILLI_TEXTS_KEPT) milliTexts.clear();
    v = milliOf(q);
    milliTexts.set(q, v);
  }
  return v;
}

const MILLI_TEXTS_KEPT = 4096;
const milliTexts = new Map<string, number>();

function milliOf(q: unknown): number {
  const parsed = parseQuantity(q);
  if (!parsed) return 0;
  return Number(parsed.unscaled) * 10 ** (parsed.scale + 3);
}

export interface Requests {
  cpu: number;
  memory: number;
}

/** computePodResourceRequest: the larger of the containers' sum and any one init container, plus overhead. */
export function podRequests(pod: Obj): Requests {
  const sum: Requests = { cpu: 0, memory: 0 };
  for (const c of (pod.spec?.containers ?? []) as Obj[]) {
    sum.cpu += milli(c.resources?.requests?.cpu);
    sum.memory += milli(c.resources?.requests?.memory);
  }
  for (const c of (pod.spec?.initContainers ?? []) as Obj[]) {
    sum.cpu = Math.max(sum.cpu, milli(c.resources?.requests?.cpu));
    sum.memory = Math.max(sum.memory, milli(c.resources?.requests?.memory));
  }
  sum.cpu += milli(pod.spec?.overhead?.cpu);
  sum.memory += milli(pod.spec?.overhead?.memory);
  return sum;
}

/** Scoring counts a pod without requests as 100m cpu and 200Mi memory (kube's non-zero defaults). */
export function nonZeroRequests(r: Requests): Requests {
  return { cpu: r.cpu || 100, memory: r.memory || 200 * 1024 * 1024 * 1000 };
}

/** What a node already holds, summed (framework.NodeInfo's Requested and NonZeroRequested). */
export interface NodeUsage {
  readonly podCount: number;
  readonly requested: Requests;
  readonly nonZeroRequested: Requests;
}

/** v1.Toleration.ToleratesTaint, for any of the tolerations. */
export function tolerates(tolerations: Obj[], taint: Obj): boolean {
  return tolerations.some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (t.key && t.key !== taint.key) return false;
    if (!t.key && t.operator !== 'Exists') return false;
    if (t.operator === 'Exists') return true;
    return (t.value ?? '') === (taint.value ?? '');
  });
}

/** A NodeSelectorTerm against a node; a term with no requirements matches nothing. */
export function nodeSelectorTermMatches(term: Obj, node: Obj): boolean {
  const exprs = (term.matchExpressions ?? []) as Obj[];
  const fields = (term.matchFields ?? []) as Obj[];
  if (!exprs.length && !fields.length) return false;
  const labels = (node.metadata?.labels ?? {}) as Record<string, string>;
  const op = (o: string) => ({ In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!', Gt: 'gt', Lt: 'lt' })[o] as 'in';
  for (const e of exprs) if (!requirementMatches({ key: String(e.key), operator: op(String(e.operator)), values: (e.values ?? []) as string[] }, labels)) return false;
  for (const f of fields) {
    if (f.key !== 'metadata.name') return false;
    if (!requirementMatches({ key: 'metadata.name', operator: op(String(f.operator)), values: (f.values ?? []) as string[] }, { 'metadata.name': String(node.metadata?.name) })) return false;
  }
  return true;
}

/** NodeAffinity's filter: spec.nodeSelector and requiredDuringSchedulingIgnoredDuringExecution. */
export function matchesNodeAffinity(pod: Obj, node: Obj): boolean {
  const selector = pod.spec?.nodeSelector as Record<string, string> | undefined;
  if (selector && !matchesLabels(labelSelectorFromObject({ matchLabels: selector }), node.metadata?.labels ?? {})) return false;
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return ((required.nodeSelectorTerms ?? []) as Obj[]).some((t) => nodeSelectorTermMatches(t, node));
}

function taintText(t: Obj): string {
  return `{${t.key}: ${t.value ?? ''}}`;
}

/**
 * Why the pod cannot go on this node, as the plugins word it (several resource shortages give
 * several reasons), or an empty list when it fits.
 */
export function unfitReasons(pod: Obj, node: Obj, usage: NodeUsage, plugins: { volumes?: PodVolumes; interPod?: InterPodAffinity; spread?: { unfitReason(node: Obj): string | undefined } } = {}): string[] {
  const tolerations = (pod.spec?.tolerations ?? []) as Obj[];
  if (node.spec?.unschedulable && !tolerates(tolerations, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' })) return ['node(s) were unschedulable'];
  const ready = ((node.status?.conditions ?? []) as Obj[]).find((c) => c.type === 'Ready');
  const taints = [...((node.spec?.taints ?? []) as Obj[])];
  // The node lifecycle controller taints a node that is not Ready; until it has (or when it does
  // not run) the node counts as so tainted, so no pod lands on a node that never became Ready.
  if (ready?.status !== 'True' && !taints.some((t) => t.key === 'node.kubernetes.io/not-ready' || t.key === 'node.kubernetes.io/unreachable')) taints.push({ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' });
  const untolerated = taints.find((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerates(tolerations, t));
  if (untolerated) return [`node(s) had taint ${taintText(untolerated)}, that the pod didn't tolerate`];
  if (!matchesNodeAffinity(pod, node)) return ["node(s) didn't match Pod's node affinity/selector"];
  const reasons: string[] = [];
  const allocatable = node.status?.allocatable ?? {};
  if (usage.podCount + 1 > milli(allocatable.pods ?? '0') / 1000) reasons.push('Too many pods');
  const want = podRequests(pod);
  const used = usage.requested;
  if (want.cpu > 0 && used.cpu + want.cpu > milli(allocatable.cpu)) reasons.push('Insufficient cpu');
  if (want.memory > 0 && used.memory + want.memory > milli(allocatable.memory)) reasons.push('Insufficient memory');
  if (reasons.length) return reasons;
  // kube's filter order: VolumeBinding, PodTopologySpread, InterPodAffinity.
  const later = plugins.volumes?.unfitReason(node) ?? plugins.spread?.unfitReason(node) ?? plugins.interPod?.unfitReason(node);
  return later ? [later] : [];
}

/** LeastAllocated (cpu and memory, equal weights), 0-100: the emptier node scores higher. */
export function leastAllocatedScore(pod: Obj, node: Obj, usage: NodeUsage): number {
  const allocatable = node.status?.allocatable ?? {};
  const own = nonZeroRequests(podRequests(pod));
  const used = { cpu: usage.nonZeroRequested.cpu + own.cpu, memory: usage.nonZeroRequested.memory + own.memory };
  const score = (capacity: number, requested: number) => (capacity <= 0 || requested > capacity ? 0 : ((capacity - requested) * 100) / capacity);
  return (score(milli(allocatable.cpu), used.cpu) + score(milli(allocatable.memory), used.memory)) / 2;
}

/** kube's FitError message: `0/3 nodes are available: 1 Insufficient cpu, 2 node(s) were unschedulable.` */
export function fitErrorMessage(nodeCount: number, reasonsByNode: readonly string[][]): string {
  const counts = new Map<string, number>();
  for (const reasons of reasonsByNode) for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  const parts = [...counts].map(([r, n]) => `${n} ${r}`).sort();
  return `0/${nodeCount} nodes are available: ${parts.join(', ')}.`;
}
