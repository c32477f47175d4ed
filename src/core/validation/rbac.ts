// rbac.authorization.k8s.io/v1 rules (rbac/v1 defaults and pkg/apis/rbac/validation, v1.23).
import { type FieldError, index, invalid, notSupported, required } from './errors';
import type { KindRules } from './kind-rules';
import { validateLabelSelector } from './meta';
import { isDNS1123Subdomain, isValidPathSegmentName } from './names';

type Obj = Record<string, any>;
const GROUP = 'rbac.authorization.k8s.io';

function len(v: unknown): number {
  return Array.isArray(v) ? v.length : 0;
}

function validatePolicyRule(rule: Obj, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (len(rule.verbs) === 0) errs.push(required(`${path}.verbs`, 'verbs must contain at least one value'));
  if (len(rule.nonResourceURLs) > 0) {
    if (namespaced) errs.push(invalid(`${path}.nonResourceURLs`, rule.nonResourceURLs, 'namespaced rules cannot apply to non-resource URLs'));
    if (len(rule.apiGroups) > 0 || len(rule.resources) > 0 || len(rule.resourceNames) > 0) {
      errs.push(invalid(`${path}.nonResourceURLs`, rule.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (len(rule.apiGroups) === 0) errs.push(required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (len(rule.resources) === 0) errs.push(required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return errs;
}

function validateRules(role: Obj, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  (Array.isArray(role.rules) ? role.rules : []).forEach((r: Obj, i: number) => errs.push(...validatePolicyRule(r ?? {}, namespaced, index('rules', i))));
  return errs;
}

function validateClusterRole(role: Obj): FieldError[] {
  const errs = validateRules(role, false);
  if (role.aggregationRule) {
    const sels: Obj[] = Array.isArray(role.aggregationRule.clusterRoleSelectors) ? role.aggregationRule.clusterRoleSelectors : [];
    if (sels.length === 0) errs.push(required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    sels.forEach((s, i) => errs.push(...validateLabelSelector(s, index('aggregationRule.clusterRoleSelectors', i))));
  }
  return errs;
}

function subjectDefaults(binding: Obj): void {
  if (binding.roleRef && typeof binding.roleRef === 'object' && !binding.roleRef.apiGroup) binding.roleRef.apiGroup = GROUP;
  for (const s of Array.isArray(binding.subjects) ? binding.subjects : []) {
    if (!s || typeof s !== 'object' || s.apiGroup) continue;
    // ServiceAccount subjects keep an empty apiGroup, which Go omits from JSON.
    if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = GROUP;
  }
}

function validateSubject(s: Obj, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.name) errs.push(required(`${path}.name`));
  switch (s.kind) {
    case 'ServiceAccount':
      if (s.name) for (const m of isDNS1123Subdomain(String(s.name))) errs.push(invalid(`${path}.name`, s.name, m));
      if (s.apiGroup) errs.push(notSupported(`${path}.apiGroup`, s.apiGroup, ['']));
      if (!namespaced && !s.namespace) errs.push(required(`${path}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (s.apiGroup !== GROUP) errs.push(notSupported(`${path}.apiGroup`, s.apiGroup ?? '', [GROUP]));
      break;
    default:
      errs.push(notSupported(`${path}.kind`, s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateBinding(b: Obj, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref: Obj = b.roleRef ?? {};
  if (ref.apiGroup !== GROUP) errs.push(notSupported('roleRef.apiGroup', ref.apiGroup ?? '', [GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind)) errs.push(notSupported('roleRef.kind', ref.kind ?? '', kinds));
  if (!ref.name) errs.push(required('roleRef.name'));
  else for (const m of isValidPathSegmentName(String(ref.name))) errs.push(invalid('roleRef.name', ref.name, m));
  (Array.isArray(b.subjects) ? b.subjects : []).forEach((s: Obj, i: number) => errs.push(...validateSubject(s ?? {}, namespaced, index('subjects', i))));
  return errs;
}

function roleRefUnchanged(b: Obj, old: Obj): FieldError[] {
  const a: Obj = b.roleRef ?? {};
  const o: Obj = old?.roleRef ?? {};
  if ((a.apiGroup ?? '') === (o.apiGroup ?? '') && (a.kind ?? '') === (o.kind ?? '') && (a.name ?? '') === (o.name ?? '')) return [];
  const text = `rbac.RoleRef{APIGroup:${JSON.stringify(a.apiGroup ?? '')}, Kind:${JSON.stringify(a.kind ?? '')}, Name:${JSON.stringify(a.name ?? '')}}`;
  return [invalid('roleRef', a, 'cannot change roleRef', text)];
}

export const roleRules: KindRules = {
  validateCreate: (r) => validateRules(r, true),
  validateUpdate: (r) => validateRules(r, true),
};

export const clusterRoleRules: KindRules = { validateCreate: validateClusterRole, validateUpdate: validateClusterRole };

export const roleBindingRules: KindRules = {
  defaults: subjectDefaults,
  validateCreate: (b) => validateBinding(b, true),
  validateUpdate: (b, old) => [...validateBinding(b, true), ...roleRefUnchanged(b, old)],
};

export const clusterRoleBindingRules: KindRules = {
  defaults: subjectDefaults,
  validateCreate: (b) => validateBinding(b, false),
  validateUpdate: (b, old) => [...validateBinding(b, false), ...roleRefUnchanged(b, old)],
};
