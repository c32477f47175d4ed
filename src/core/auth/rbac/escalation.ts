// Escalation prevention for writes to roles and bindings (pkg/registry/rbac/*/policybased and
// rbac/validation.ConfirmNoEscalation): nobody may grant permissions they do not hold, unless
// they are system:masters or hold `escalate` (roles) / `bind` (bindings) on the target.
import { ApiError, forbidden } from '../../meta/status';
import { compactRules, compactString, covers, goQuoteList } from './covers';
import type { RbacAuthorizer } from './index';
import { RBAC_GROUP, SYSTEM_MASTERS, type ClusterRole, type PolicyRule, type Role, type RoleBinding, type ClusterRoleBinding, type UserInfo } from './types';

/** `*` on every resource and every path, what an aggregationRule requires. */
const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** The ConfirmNoEscalation error text, or undefined when the user's rules in `namespace` cover `rules`. */
export function confirmNoEscalation(authz: RbacAuthorizer, user: UserInfo, namespace: string, rules: readonly PolicyRule[]): string | undefined {
  const owned = authz.rulesFor(user, namespace);
  const { covered, missing } = covers(owned.rules, rules);
  if (covered) return undefined;
  // Go prints a sorted, de-duplicated set of the compacted missing rules, one per line.
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg = `user ${JSON.stringify(user.username)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  // Go appends the []error holding RulesFor's aggregate: `[msg]` or `[[a, b]]`.
  if (owned.errors.length) {
    const unique = [...new Set(owned.errors)];
    msg += `; resolution errors: [${unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`}]`;
  }
  return msg;
}

function isMaster(user: UserInfo): boolean {
  return user.groups.includes(SYSTEM_MASTERS);
}

/**
 * Checks a create (`old` absent) or update of a Role (`resource: 'roles'`) or ClusterRole
 * (`'clusterroles'`). `requestName` is the name in the URL: empty on create, which is why an
 * `escalate` grant restricted by resourceNames never helps a create. Returns the 403 to send, if any.
 */
export function checkRoleWrite(
  authz: RbacAuthorizer,
  user: UserInfo,
  resource: 'roles' | 'clusterroles',
  role: Role | ClusterRole,
  requestName: string,
  old?: Role | ClusterRole,
): ApiError | undefined {
  const namespace = resource === 'roles' ? role.metadata.namespace ?? '' : '';
  if (isMaster(user)) return undefined;
  const escalate = authz.authorize(user, { kind: 'resource', verb: 'escalate', apiGroup: RBAC_GROUP, resource, namespace, name: requestName });
  if (escalate.allowed) return undefined;
  const err = confirmNoEscalation(authz, user, namespace, role.rules ?? []);
  if (err) return forbidden(RBAC_GROUP, resource, role.metadata.name, err);
  const agg = (role as ClusterRole).aggregationRule;
  const oldAgg = (old as ClusterRole | undefined)?.aggregationRule;
  // An aggregationRule can gather anything, so setting or changing one needs full authority.
  if (resource === 'clusterroles' && agg && (!old || JSON.stringify(agg) !== JSON.stringify(oldAgg ?? null))) {
    if (confirmNoEscalation(authz, user, '', FULL_AUTHORITY)) {
      return forbidden(RBAC_GROUP, resource, role.metadata.name, 'must have cluster-admin privileges to use the aggregationRule');
    }
  }
  return undefined;
}

/**
 * Checks a create or update of a RoleBinding (`'rolebindings'`) or ClusterRoleBinding
 * (`'clusterrolebindings'`): allowed with `bind` on the referenced role, else only when the
 * user already holds all of that role's rules in the binding's namespace.
 */
export function checkBindingWrite(
  authz: RbacAuthorizer,
  user: UserInfo,
  resource: 'rolebindings' | 'clusterrolebindings',
  binding: RoleBinding | ClusterRoleBinding,
): ApiError | undefined {
  if (isMaster(user)) return undefined;
  const namespace = resource === 'rolebindings' ? binding.metadata.namespace ?? '' : '';
  const ref = binding.roleRef;
  const refResource = ref.kind === 'Role' ? 'roles' : 'clusterroles';
  const bind = authz.authorize(user, { kind: 'resource', verb: 'bind', apiGroup: RBAC_GROUP, resource: refResource, namespace, name: ref.name });
  if (bind.allowed) return undefined;
  const errors: string[] = [];
  const rules = authz.roleRefRules(binding, namespace, errors);
  if (!rules) return forbidden(RBAC_GROUP, resource, binding.metadata.name, errors[0]);
  const err = confirmNoEscalation(authz, user, namespace, rules);
  return err ? forbidden(RBAC_GROUP, resource, binding.metadata.name, err) : undefined;
}
