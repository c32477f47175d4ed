// kube-scheduler v1.23's InterPodAffinity filter: required pod affinity and anti-affinity, of the
// incoming pod and of the pods already placed (anti-affinity is symmetric). As in kube, the
// counts per topology pair (a node label key and value) are worked out once per scheduling
// attempt (PreFilter), then each node is checked against them (Filter). Preferred terms only
// weigh in kube's scoring, which this scheduler leaves out (decision 0035).
import type { Obj } from '../registry/objects';
import { labelSelectorFromObject, matchesLabels, type LabelSelector, type Labels } from '../selectors/labels';

export const AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules";
export const ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules";
export const EXISTING_ANTI_AFFINITY_NOT_MATCH = "node(s) didn't satisfy existing pods anti-affinity rules";

/** framework.AffinityTerm: a PodAffinityTerm with its namespaces and selectors resolved. */
interface AffinityTerm {
  namespaces: Set<string>;
  selector: LabelSelector;
  namespaceSelector: LabelSelector;
  topologyKey: string;
}

/** What the filter needs of the cluster: nodes with their pods, and namespaces' labels (for namespaceSelector). */
export interface ClusterView {
  nodes: readonly Obj[];
  podsOnNode(node: string): Iterable<Obj>;
  /** The node's pods with required anti-affinity terms (NodeInfo's PodsWithRequiredAntiAffinity). */
  podsWithRequiredAntiAffinityOnNode(node: string): Iterable<Obj>;
  namespaceLabels(ns: string): Labels;
}

function selectorOf(sel: unknown): LabelSelector {
  try {
    return labelSelectorFromObject(sel);
  } catch {
    // Validation refuses bad operators; a stored oddity matches nothing rather than failing the cycle.
    return { requirements: [], nothing: true };
  }
}

/** getAffinityTerms: no namespaces and no namespaceSelector mean the pod's own namespace. */
function termsOf(pod: Obj, terms: unknown): AffinityTerm[] {
  if (!Array.isArray(terms)) return [];
  return (terms as Obj[]).map((t) => {
    const namespaces = new Set<string>((t.namespaces ?? []) as string[]);
    if (namespaces.size === 0 && (t.namespaceSelector === undefined || t.namespaceSelector === null)) namespaces.add(String(pod.metadata?.namespace ?? ''));
    return { namespaces, selector: selectorOf(t.labelSelector), namespaceSelector: selectorOf(t.namespaceSelector), topologyKey: String(t.topologyKey ?? '') };
  });
}

function requiredAffinityTerms(pod: Obj): AffinityTerm[] {
  return termsOf(pod, pod.spec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution);
}

function requiredAntiAffinityTerms(pod: Obj): AffinityTerm[] {
  return termsOf(pod, pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution);
}

function termMatches(term: AffinityTerm, pod: Obj, nsLabels: Labels): boolean {
  const inNamespace = term.namespaces.has(String(pod.metadata?.namespace ?? '')) || matchesLabels(term.namespaceSelector, nsLabels);
  return inNamespace && matchesLabels(term.selector, pod.metadata?.labels ?? {});
}

function nodeLabels(node: Obj): Record<string, string> {
  return (node.metadata?.labels ?? {}) as Record<string, string>;
}

const pairKey = (key: string, value: string) => `${key}\u0000${value}`;

class PairCounts {
  readonly counts = new Map<string, number>();
  /** Counts the node's value of `topologyKey`, if the node has that label. */
  add(node: Obj, topologyKey: string): void {
    const value = nodeLabels(node)[topologyKey];
    if (value === undefined) return;
    const k = pairKey(topologyKey, value);
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
  }
  has(key: string, value: string): boolean {
    return (this.counts.get(pairKey(key, value)) ?? 0) > 0;
  }
  get size(): number {
    return this.counts.size;
  }
}

/** The PreFilter state for one pod: which topology pairs hold matching pods. */
export class InterPodAffinity {
  private readonly affinityTerms: AffinityTerm[];
  private readonly antiAffinityTerms: AffinityTerm[];
  private readonly affinityCounts = new PairCounts();
  private readonly antiAffinityCounts = new PairCounts();
  private readonly existingAntiAffinityCounts = new PairCounts();
  private readonly selfMatchesAllTerms: boolean;

  constructor(pod: Obj, view: ClusterView) {
    this.affinityTerms = requiredAffinityTerms(pod);
    this.antiAffinityTerms = requiredAntiAffinityTerms(pod);
    const ownNsLabels = view.namespaceLabels(String(pod.metadata?.namespace ?? ''));
    this.selfMatchesAllTerms = this.affinityTerms.every((t) => termMatches(t, pod, ownNsLabels));
    // Without terms of its own, only the placed pods' anti-affinity can refuse the pod: kube's
    // PreFilter walks just those (HavePodsWithRequiredAntiAffinityList), and so do we.
    const ownTerms = this.affinityTerms.length > 0 || this.antiAffinityTerms.length > 0;
    for (const node of view.nodes) {
      const name = String(node.metadata?.name);
      for (const existing of ownTerms ? view.podsOnNode(name) : view.podsWithRequiredAntiAffinityOnNode(name)) {
        // Existing pods' anti-affinity that the incoming pod would break (symmetry).
        for (const term of requiredAntiAffinityTerms(existing)) if (termMatches(term, pod, ownNsLabels)) this.existingAntiAffinityCounts.add(node, term.topologyKey);
        if (!this.affinityTerms.length && !this.antiAffinityTerms.length) continue;
        const nsLabels = view.namespaceLabels(String(existing.metadata?.namespace ?? ''));
        // An existing pod counts for affinity only when it matches every term (updateWithAffinityTerms).
        if (this.affinityTerms.length && this.affinityTerms.every((t) => termMatches(t, existing, nsLabels))) for (const t of this.affinityTerms) this.affinityCounts.add(node, t.topologyKey);
        for (const t of this.antiAffinityTerms) if (termMatches(t, existing, nsLabels)) this.antiAffinityCounts.add(node, t.topologyKey);
      }
    }
  }

  /** The Filter: why the pod cannot go on `node`, or undefined. */
  unfitReason(node: Obj): string | undefined {
    if (!this.satisfiesAffinity(node)) return AFFINITY_RULES_NOT_MATCH;
    if (!this.satisfiesAntiAffinity(node)) return ANTI_AFFINITY_RULES_NOT_MATCH;
    if (!this.satisfiesExistingAntiAffinity(node)) return EXISTING_ANTI_AFFINITY_NOT_MATCH;
    return undefined;
  }

  private satisfiesAffinity(node: Obj): boolean {
    const labels = nodeLabels(node);
    let podsExist = true;
    for (const term of this.affinityTerms) {
      const value = labels[term.topologyKey];
      // Every topology key must be a label of the node.
      if (value === undefined) return false;
      if (!this.affinityCounts.has(term.topologyKey, value)) podsExist = false;
    }
    // The first pod of a group with affinity to itself may go anywhere, or it would wait forever.
    return podsExist || (this.affinityCounts.size === 0 && this.selfMatchesAllTerms);
  }

  private satisfiesAntiAffinity(node: Obj): boolean {
    const labels = nodeLabels(node);
    return !this.antiAffinityTerms.some((t) => labels[t.topologyKey] !== undefined && this.antiAffinityCounts.has(t.topologyKey, labels[t.topologyKey]));
  }

  private satisfiesExistingAntiAffinity(node: Obj): boolean {
    if (this.existingAntiAffinityCounts.size === 0) return true;
    return !Object.entries(nodeLabels(node)).some(([k, v]) => this.existingAntiAffinityCounts.has(k, v));
  }
}
