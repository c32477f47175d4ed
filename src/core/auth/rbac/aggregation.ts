// ClusterRole aggregation (pkg/controller/clusterroleaggregation): a ClusterRole with an
// aggregationRule gets, for each selector in order, the rules of every matching ClusterRole
// sorted by name (itself excluded), skipping rules already collected (deep-equal).
import { labelSelectorFromObject, matchesLabels } from '../../selectors/labels';
import type { ClusterRole, PolicyRule } from './types';

/** The rules the aggregation controller would write into `role`; undefined when it has no aggregationRule. */
export function aggregatedRules(role: ClusterRole, all: Iterable<ClusterRole>): PolicyRule[] | undefined {
  if (!role.aggregationRule) return undefined;
  const byName = [...all].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
  const out: PolicyRule[] = [];
  for (const selObj of role.aggregationRule.clusterRoleSelectors ?? []) {
    const selector = labelSelectorFromObject(selObj);
    for (const source of byName) {
      if (source.metadata.name === role.metadata.name) continue;
      if (!matchesLabels(selector, source.metadata.labels)) continue;
      for (const rule of source.rules ?? []) {
        if (!out.some((r) => rulesEqual(r, rule))) out.push(rule);
      }
    }
  }
  return out;
}

/**
 * Runs aggregation over a set of ClusterRoles until nothing changes (an aggregated role can
 * itself be selected by another, e.g. view → edit → admin), returning the updated roles by name.
 */
export function aggregateAll(roles: readonly ClusterRole[]): Map<string, ClusterRole> {
  const current = new Map(roles.map((r) => [r.metadata.name, r] as const));
  // Each pass can push rules one level up the chain; the chain is at most the number of roles long.
  for (let pass = 0; pass <= roles.length; pass++) {
    let changed = false;
    for (const role of current.values()) {
      const rules = aggregatedRules(role, current.values());
      if (rules === undefined || sameRuleList(rules, role.rules ?? [])) continue;
      current.set(role.metadata.name, { ...role, rules });
      changed = true;
    }
    if (!changed) break;
  }
  return current;
}

function sameRuleList(a: readonly PolicyRule[], b: readonly PolicyRule[]): boolean {
  return a.length === b.length && a.every((r, i) => rulesEqual(r, b[i]));
}

/** equality.Semantic.DeepEqual on PolicyRule: nil and empty lists are the same. */
export function rulesEqual(a: PolicyRule, b: PolicyRule): boolean {
  return (
    listEqual(a.verbs, b.verbs) &&
    listEqual(a.apiGroups, b.apiGroups) &&
    listEqual(a.resources, b.resources) &&
    listEqual(a.resourceNames, b.resourceNames) &&
    listEqual(a.nonResourceURLs, b.nonResourceURLs)
  );
}

function listEqual(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}
