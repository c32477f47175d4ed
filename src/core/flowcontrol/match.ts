// Which FlowSchema a request belongs to, by the rules of a v1.23 kube-apiserver's APF filter
// (k8s.io/apiserver/pkg/util/flowcontrol): schemas in increasing matchingPrecedence, ties by
// name; a schema matches when one of its rules has a subject that is the user and a resource
// rule (resource requests) or non-resource rule (everything else) that covers the request.
import type { UserInfo } from '../auth/rbac/types';
import type { RequestInfo } from '../meta/requestinfo';
import type { Obj } from '../registry/objects';

const SA_PREFIX = 'system:serviceaccount:';

/** One `spec.rules` entry of a FlowSchema. */
export interface PolicyRule {
  subjects?: Obj[];
  resourceRules?: Obj[];
  nonResourceRules?: Obj[];
}

const list = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : []);
const has = (values: unknown, want: string, wildcard: string): boolean => {
  const l = list(values);
  return l.includes(want) || l.includes(wildcard);
};

function matchesSubject(user: UserInfo, subject: Obj): boolean {
  switch (subject?.kind) {
    case 'User': {
      const name = subject.user?.name;
      return typeof name === 'string' && (name === '*' || name === user.username);
    }
    case 'Group': {
      const name = subject.group?.name;
      return typeof name === 'string' && (name === '*' || user.groups.includes(name));
    }
    case 'ServiceAccount': {
      const sa = subject.serviceAccount;
      if (!sa || typeof sa.namespace !== 'string' || typeof sa.name !== 'string') return false;
      if (!user.username.startsWith(SA_PREFIX)) return false;
      const rest = user.username.slice(SA_PREFIX.length);
      // Name "*" is every account of the namespace; otherwise the exact account.
      if (sa.name === '*') return rest.startsWith(`${sa.namespace}:`);
      return rest === `${sa.namespace}:${sa.name}`;
    }
    default:
      return false;
  }
}

export function matchesSubjects(user: UserInfo, rule: PolicyRule): boolean {
  return Array.isArray(rule.subjects) && rule.subjects.some((s) => matchesSubject(user, s));
}

function matchesResourceRule(info: RequestInfo, rule: Obj): boolean {
  if (!has(rule.verbs, info.verb, '*')) return false;
  const resource = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
  if (!has(rule.resources, resource, '*')) return false;
  if (!has(rule.apiGroups, info.group, '*')) return false;
  // A request without a namespace is cluster-scoped; namespaced ones need the namespace listed.
  if (!info.namespace) return rule.clusterScope === true;
  return has(rule.namespaces, info.namespace, '*');
}

function matchesNonResourceRule(info: RequestInfo, rule: Obj): boolean {
  if (!has(rule.verbs, info.verb, '*')) return false;
  for (const url of list(rule.nonResourceURLs)) {
    if (url === '*' || url === info.path) return true;
    // "/apis/*" covers everything under /apis/.
    if (url.endsWith('*') && info.path.startsWith(url.slice(0, -1))) return true;
  }
  return false;
}

/** The request part of a rule: resource rules for resource requests, non-resource rules otherwise. */
export function matchesRequest(info: RequestInfo, rule: PolicyRule): boolean {
  if (info.isResourceRequest) return Array.isArray(rule.resourceRules) && rule.resourceRules.some((r) => matchesResourceRule(info, r));
  return Array.isArray(rule.nonResourceRules) && rule.nonResourceRules.some((r) => matchesNonResourceRule(info, r));
}

/** A rule that covers every request whatever its verb, resource, namespace or path. */
export function coversEverything(rule: PolicyRule): boolean {
  const resources = Array.isArray(rule.resourceRules) && rule.resourceRules.some((r) => list(r.verbs).includes('*') && list(r.apiGroups).includes('*') && list(r.resources).includes('*') && list(r.namespaces).includes('*') && r.clusterScope === true);
  const paths = Array.isArray(rule.nonResourceRules) && rule.nonResourceRules.some((r) => list(r.verbs).includes('*') && list(r.nonResourceURLs).includes('*'));
  return resources && paths;
}

/** FlowSchemaSequence order: increasing matchingPrecedence, then name. */
export function compareFlowSchemas(a: Obj, b: Obj): number {
  const pa = Number(a.spec?.matchingPrecedence ?? 0);
  const pb = Number(b.spec?.matchingPrecedence ?? 0);
  if (pa !== pb) return pa - pb;
  const na = String(a.metadata?.name ?? '');
  const nb = String(b.metadata?.name ?? '');
  return na < nb ? -1 : na > nb ? 1 : 0;
}
