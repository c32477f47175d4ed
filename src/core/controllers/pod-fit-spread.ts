// Two kube-scheduler v1.23 plugins the scheduler adds to its filter and score:
// - PodTopologySpread's filter, for the hard constraints (whenUnsatisfiable: DoNotSchedule):
//   among the nodes that match the pod's node selector and required node affinity and carry the
//   constraint's topologyKey, count the pods its labelSelector matches (same namespace, not
//   terminating) per topology domain; a node is unfit when its domain's count, plus one if the
//   pod matches its own selector, exceeds the smallest domain's count by more than maxSkew.
//   (ScheduleAnyway constraints only score in kube; they are not scored here.)
// - NodeAffinity's score: the summed weights of the preferredDuringScheduling terms a node
//   matches, normalised to 0-100 over the feasible nodes (DefaultNormalizeScore).
import type { Obj } from '../registry/objects';
import { labelSelectorFromObject, matchesLabels } from '../selectors/labels';
import { matchesNodeAffinity, nodeSelectorTermMatches } from './pod-fit';

const MISSING_LABEL = "node(s) didn't match pod topology spread constraints (missing required label)";
const SKEW = "node(s) didn't match pod topology spread constraints";

/** NodeAffinity's score weight in the default profile (kubescheduler.config.k8s.io/v1beta3). */
export const NODE_AFFINITY_WEIGHT = 2;

interface Constraint {
  key: string;
  maxSkew: number;
  selects: (labels: Record<string, string> | undefined) => boolean;
  /** Matching pods per domain (topology value). */
  counts: Map<string, number>;
  min: number;
}

export class TopologySpread {
  private readonly constraints: Constraint[];

  constructor(
    private readonly pod: Obj,
    env: { nodes: readonly Obj[]; podsOnNode: (name: string) => Iterable<Obj> },
  ) {
    const hard = ((pod.spec?.topologySpreadConstraints ?? []) as Obj[]).filter((c) => c.whenUnsatisfiable === 'DoNotSchedule');
    this.constraints = hard.map((c) => {
      const selector = c.labelSelector ? labelSelectorFromObject(c.labelSelector) : undefined;
      // A constraint without a selector matches no pods (kube's nil selector).
      return { key: String(c.topologyKey), maxSkew: Number(c.maxSkew ?? 1), selects: (labels) => !!selector && matchesLabels(selector, labels ?? {}), counts: new Map(), min: 0 };
    });
    if (!this.constraints.length) return;
    const ns = pod.metadata?.namespace;
    for (const node of env.nodes) {
      const labels = (node.metadata?.labels ?? {}) as Record<string, string>;
      if (!matchesNodeAffinity(pod, node) || this.constraints.some((c) => !(c.key in labels))) continue;
      const pods = [...env.podsOnNode(String(node.metadata?.name))].filter((p) => p.metadata?.namespace === ns && !p.metadata?.deletionTimestamp);
      for (const c of this.constraints) {
        const domain = labels[c.key]!;
        c.counts.set(domain, (c.counts.get(domain) ?? 0) + pods.filter((p) => c.selects(p.metadata?.labels)).length);
      }
    }
    for (const c of this.constraints) c.min = c.counts.size ? Math.min(...c.counts.values()) : 0;
  }

  /** Why the pod may not go on `node`, or undefined. */
  unfitReason(node: Obj): string | undefined {
    const labels = (node.metadata?.labels ?? {}) as Record<string, string>;
    for (const c of this.constraints) {
      if (!(c.key in labels)) return MISSING_LABEL;
      const self = c.selects(this.pod.metadata?.labels) ? 1 : 0;
      if ((c.counts.get(labels[c.key]!) ?? 0) + self - c.min > c.maxSkew) return SKEW;
    }
    return undefined;
  }
}

/** NodeAffinity's raw score of a node: the weights of the preferred terms it matches. */
export function preferredAffinityScore(pod: Obj, node: Obj): number {
  const preferred = (pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []) as Obj[];
  return preferred.reduce((sum, t) => sum + (t.preference && nodeSelectorTermMatches(t.preference, node) ? Number(t.weight ?? 0) : 0), 0);
}

/** DefaultNormalizeScore: raw scores to 0-100 against the highest (all 0 when none scored). */
export function normalizedScores(raw: readonly number[]): number[] {
  const max = Math.max(0, ...raw);
  return raw.map((s) => (max === 0 ? 0 : Math.floor((s * 100) / max)));
}
