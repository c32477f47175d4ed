// Which webhooks a request calls (k8s.io/apiserver/pkg/admission/plugin/webhook/{rules,
// namespace,object}): rules (operations, groups, versions, resources with `*`, `*/*`,
// `pods/status`, scope), then the namespace and object selectors.
import { matchesLabels, isEverything, type Labels } from '../../selectors/labels';
import type { Webhook, WebhookRule } from './config';

/** The group/version/resource a rule is compared against. */
export interface RuleTarget {
  group: string;
  version: string;
  resource: string;
  subresource: string;
  operation: string;
  /** True for namespaced resources (a Namespace itself counts as cluster-scoped). */
  namespaced: boolean;
}

const allows = (list: string[], value: string) => list.includes('*') || list.includes(value);

function resourceMatches(patterns: string[], resource: string, subresource: string): boolean {
  for (const p of patterns) {
    const slash = p.indexOf('/');
    const res = slash < 0 ? p : p.slice(0, slash);
    const sub = slash < 0 ? '' : p.slice(slash + 1);
    if ((res === '*' || res === resource) && (sub === '*' || sub === subresource)) return true;
  }
  return false;
}

export function ruleMatches(rule: WebhookRule, t: RuleTarget): boolean {
  if (!allows(rule.operations, t.operation)) return false;
  if (!allows(rule.apiGroups, t.group) || !allows(rule.apiVersions, t.version)) return false;
  if (!resourceMatches(rule.resources, t.resource, t.subresource)) return false;
  if (rule.scope === 'Cluster') return !t.namespaced;
  if (rule.scope === 'Namespaced') return t.namespaced;
  return true;
}

export function rulesMatch(hook: Webhook, t: RuleTarget): boolean {
  return hook.rules.some((r) => ruleMatches(r, t));
}

/** An empty selector matches everything without looking at labels (no namespace read needed). */
export function selectsEverything(hook: Webhook, which: 'namespace' | 'object'): boolean {
  return isEverything(which === 'namespace' ? hook.namespaceSelector : hook.objectSelector);
}

export function namespaceSelected(hook: Webhook, namespaceLabels: Labels): boolean {
  return matchesLabels(hook.namespaceSelector, namespaceLabels);
}

/** The object selector matches the new object's labels or the old object's (kube's either/or). */
export function objectSelected(hook: Webhook, newLabels: Labels | undefined, oldLabels: Labels | undefined, hasNew: boolean, hasOld: boolean): boolean {
  if (isEverything(hook.objectSelector)) return true;
  return (hasNew && matchesLabels(hook.objectSelector, newLabels)) || (hasOld && matchesLabels(hook.objectSelector, oldLabels));
}
