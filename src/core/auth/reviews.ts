// Access reviews answered by the RBAC authorizer (pkg/registry/authorization/*): the subject of
// a SubjectAccessReview comes from its spec, that of the Self* reviews is the caller.
import type { Obj } from '../registry/objects';
import type { RbacAuthorizer } from './rbac';
import type { Attributes, PolicyRule, UserInfo } from './rbac/types';
import { badRequest } from '../meta/status';

/** spec.resourceAttributes / spec.nonResourceAttributes → authorizer attributes. */
export function reviewAttributes(spec: Obj): Attributes {
  const ra = spec?.resourceAttributes;
  const nra = spec?.nonResourceAttributes;
  if (ra && nra) throw badRequest('exactly one of nonResourceAttributes or resourceAttributes must be specified');
  if (nra) return { kind: 'nonResource', verb: String(nra.verb ?? ''), path: String(nra.path ?? '') };
  if (!ra) throw badRequest('exactly one of nonResourceAttributes or resourceAttributes must be specified');
  return {
    kind: 'resource',
    verb: String(ra.verb ?? ''),
    apiGroup: String(ra.group ?? ''),
    apiVersion: ra.version,
    resource: String(ra.resource ?? ''),
    subresource: ra.subresource || undefined,
    namespace: ra.namespace || undefined,
    name: ra.name || undefined,
  };
}

/** The user a SubjectAccessReview asks about. */
export function specUser(spec: Obj): UserInfo {
  const user: UserInfo = { username: String(spec?.user ?? ''), groups: Array.isArray(spec?.groups) ? spec.groups.map(String) : [] };
  if (spec?.uid) user.uid = String(spec.uid);
  if (spec?.extra) user.extra = spec.extra;
  return user;
}

/** SubjectAccessReviewStatus: `reason` omitted when empty, as the Go omitempty field is. */
export function accessReviewStatus(authz: RbacAuthorizer, user: UserInfo, attrs: Attributes): Obj {
  const d = authz.authorize(user, attrs);
  return d.reason ? { allowed: d.allowed, reason: d.reason } : { allowed: d.allowed };
}

/** SubjectRulesReviewStatus for `namespace`. */
export function rulesReviewStatus(authz: RbacAuthorizer, user: UserInfo, namespace: string): Obj {
  const { rules, errors } = authz.rulesFor(user, namespace);
  const resourceRules: Obj[] = [];
  const nonResourceRules: Obj[] = [];
  for (const r of rules) {
    if (r.nonResourceURLs?.length) nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs });
    if (r.resources?.length || r.apiGroups?.length) resourceRules.push(resourceRule(r));
  }
  const status: Obj = { resourceRules, nonResourceRules, incomplete: errors.length > 0 };
  if (errors.length) status.evaluationError = errors.length === 1 ? errors[0] : `[${[...new Set(errors)].join(', ')}]`;
  return status;
}

function resourceRule(r: PolicyRule): Obj {
  const out: Obj = { verbs: r.verbs };
  if (r.apiGroups?.length) out.apiGroups = r.apiGroups;
  if (r.resources?.length) out.resources = r.resources;
  if (r.resourceNames?.length) out.resourceNames = r.resourceNames;
  return out;
}
