// PolicyRule matching with kube-apiserver's semantics (pkg/apis/rbac/v1/evaluation_helpers.go
// and the RBAC authorizer's RuleAllows). Pure functions; the authorizer index calls these per rule.
import type { Attributes, PolicyRule } from './types';

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === '*' || v === verb);
}

/** "" is the core group and only matches a rule listing "" (or `*`). */
export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === '*' || g === group);
}

/**
 * `combined` is `resource` or `resource/subresource`. A rule entry matches when it is `*`,
 * equal to `combined`, or `*​/<subresource>` for a subresource request. Kube has no
 * `resource/*` form: `pods/*` only matches a request for the literal subresource `*`.
 */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === '*' || r === combined) return true;
    if (subresource && r === `*/${subresource}`) return true;
  }
  return false;
}

/** No resourceNames means every name; otherwise the request must name one of them, so a
 *  create/list/watch/deletecollection (which carry no name) never matches a named rule. */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** `*` matches any path; a trailing `*` is a prefix wildcard (`/apis/*` matches `/apis/apps/v1`). */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === '*' || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

export function ruleAllows(attrs: Attributes, rule: PolicyRule): boolean {
  if (attrs.kind === 'nonResource') return verbMatches(rule, attrs.verb) && nonResourceURLMatches(rule, attrs.path);
  const sub = attrs.subresource ?? '';
  const combined = sub ? `${attrs.resource}/${sub}` : attrs.resource;
  return (
    verbMatches(rule, attrs.verb) &&
    apiGroupMatches(rule, attrs.apiGroup) &&
    resourceMatches(rule, combined, sub) &&
    resourceNameMatches(rule, attrs.name ?? '')
  );
}

export function rulesAllow(attrs: Attributes, rules: readonly PolicyRule[]): boolean {
  return rules.some((r) => ruleAllows(attrs, r));
}
