// Where a DaemonSet's pods belong, as kube's daemon_controller.go and daemon/util decide it: the
// tolerations every daemon pod gets, the node affinity that pins a pod to its node (the
// scheduler then binds it), whether a node should run (or may keep running) the pod, and which
// node a pod is meant for.
import { clone, type Obj } from '../registry/objects';
import { POD_REVISION_LABEL } from './controller-revision';
import { matchesNodeAffinity, tolerates } from './pod-fit';
import { TEMPLATE_GENERATION_ANNOTATION } from '../kinds/daemonset-template-generation';

/** extensions.DaemonSetTemplateGenerationKey: the pod label with the template generation. */
export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';

const tol = (key: string, effect: 'NoExecute' | 'NoSchedule') => ({ key: `node.kubernetes.io/${key}`, operator: 'Exists', effect });

/** AddOrUpdateDaemonPodTolerations, in kube's order; network-unavailable only for host-network pods. */
function daemonTolerations(spec: Obj): Obj[] {
  const list = [tol('not-ready', 'NoExecute'), tol('unreachable', 'NoExecute'), tol('disk-pressure', 'NoSchedule'), tol('memory-pressure', 'NoSchedule'), tol('pid-pressure', 'NoSchedule'), tol('unschedulable', 'NoSchedule')];
  if (spec.hostNetwork) list.push(tol('network-unavailable', 'NoSchedule'));
  return list;
}

/** AddOrUpdateTolerationInPodSpec for each daemon toleration: one with the same key, operator and effect is replaced, else appended. */
function withDaemonTolerations(spec: Obj): void {
  const list = [...((spec.tolerations ?? []) as Obj[])];
  for (const t of daemonTolerations(spec)) {
    const i = list.findIndex((x) => x.key === t.key && (x.operator ?? 'Equal') === t.operator && x.effect === t.effect);
    if (i >= 0) list[i] = t;
    else list.push(t);
  }
  spec.tolerations = list;
}

/** The template generation the DaemonSet carries, when it carries one. */
export function templateGeneration(ds: Obj): string | undefined {
  const v = ds.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  return v === undefined ? undefined : String(v);
}

/** util.CreatePodTemplate: the template with the generation and revision-hash labels and the daemon tolerations. */
export function daemonPodTemplate(ds: Obj, hash: string): Obj {
  const template = clone(ds.spec.template ?? {}) as Obj;
  template.metadata = { ...(template.metadata ?? {}) };
  const labels = { ...(template.metadata.labels ?? {}) } as Record<string, string>;
  const generation = templateGeneration(ds);
  if (generation !== undefined) labels[TEMPLATE_GENERATION_LABEL] = generation;
  if (hash) labels[POD_REVISION_LABEL] = hash;
  template.metadata.labels = labels;
  template.spec = template.spec ?? {};
  withDaemonTolerations(template.spec);
  return template;
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity: the required node affinity becomes one term, matchFields metadata.name In [node]. */
export function pinToNode(spec: Obj, node: string): void {
  const required = { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] };
  spec.affinity = { ...(spec.affinity ?? {}), nodeAffinity: { ...(spec.affinity?.nodeAffinity ?? {}), requiredDuringSchedulingIgnoredDuringExecution: required } };
}

/**
 * NodeShouldRunDaemonPod: a node runs the pod when its name, node selector and affinity match
 * and its taints are tolerated; a node whose NoSchedule taints alone are not tolerated may keep
 * a pod already there.
 */
export function nodeShouldRun(ds: Obj, node: Obj): { shouldRun: boolean; shouldContinueRunning: boolean } {
  const spec = clone(ds.spec?.template?.spec ?? {}) as Obj;
  withDaemonTolerations(spec);
  const name = String(node.metadata?.name);
  if (spec.nodeName && spec.nodeName !== name) return { shouldRun: false, shouldContinueRunning: false };
  const pod = { spec };
  if (!matchesNodeAffinity(pod, node)) return { shouldRun: false, shouldContinueRunning: false };
  const taints = ((node.spec?.taints ?? []) as Obj[]).filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
  const tolerations = (spec.tolerations ?? []) as Obj[];
  const untolerated = taints.filter((t) => !tolerates(tolerations, t));
  if (!untolerated.length) return { shouldRun: true, shouldContinueRunning: true };
  return { shouldRun: false, shouldContinueRunning: !untolerated.some((t) => t.effect === 'NoExecute') };
}

/** GetTargetNodeName: the node the pod is bound to, or the one its matchFields affinity names. */
export function targetNodeName(pod: Obj): string | undefined {
  if (pod.spec?.nodeName) return String(pod.spec.nodeName);
  const terms = (pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) as Obj[];
  for (const term of terms) {
    for (const f of (term.matchFields ?? []) as Obj[]) {
      if (f.key === 'metadata.name' && f.operator === 'In' && Array.isArray(f.values) && f.values.length === 1) return String(f.values[0]);
    }
  }
  return undefined;
}

/** IsPodUpdated: the pod carries the current hash, or the current template generation. */
export function isPodUpdated(pod: Obj, hash: string, generation: string | undefined): boolean {
  const labels = (pod.metadata?.labels ?? {}) as Record<string, string>;
  return (hash !== '' && labels[POD_REVISION_LABEL] === hash) || (generation !== undefined && labels[TEMPLATE_GENERATION_LABEL] === generation);
}

/** podByCreationTimestampAndPhase: bound before unbound, then oldest first, then by name. */
export function byCreationAndPhase(a: Obj, b: Obj): number {
  const unbound = (p: Obj) => (p.spec?.nodeName ? 0 : 1);
  if (unbound(a) !== unbound(b)) return unbound(a) - unbound(b);
  const t = (p: Obj) => Date.parse(String(p.metadata?.creationTimestamp ?? '')) || 0;
  return t(a) - t(b) || String(a.metadata?.name).localeCompare(String(b.metadata?.name));
}
