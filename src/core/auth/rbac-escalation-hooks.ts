// Escalation prevention wired into the store: creating or updating a Role/ClusterRole needs the
// granted rules (or `escalate`), a binding needs the role's rules (or `bind`). Runs only with
// RBAC on, as the caller of the request whose registry context the store passes in.
import type { ResourceHooks } from '../registry/context';
import type { Obj } from '../registry/objects';
import type { RbacKind } from './rbac';
import { checkBindingWrite, checkRoleWrite } from './rbac/escalation';
import { deepEqualJson } from '../meta/json-equal';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from './rbac/types';
import { requestAuthorizer, requestUser } from './request-user';

export function escalationHooks(kind: RbacKind): Pick<ResourceHooks, 'beforeCreate' | 'beforeUpdate'> {
  if (kind === 'Role' || kind === 'ClusterRole') {
    const resource = kind === 'Role' ? 'roles' : 'clusterroles';
    return {
      beforeCreate(ctx, _r, obj) {
        const authz = requestAuthorizer(ctx);
        if (!authz) return;
        const err = checkRoleWrite(authz, requestUser(ctx), resource, obj as Role | ClusterRole, '');
        if (err) throw err;
      },
      beforeUpdate(ctx, _r, next, old) {
        const authz = requestAuthorizer(ctx);
        if (!authz) return;
        // An update that grants nothing new (same rules and aggregationRule) needs no check, as upstream.
        if (deepEqualJson(next.rules ?? [], old.rules ?? []) && deepEqualJson(next.aggregationRule ?? null, old.aggregationRule ?? null)) return;
        const err = checkRoleWrite(authz, requestUser(ctx), resource, next as Role | ClusterRole, String((old as Obj).metadata?.name ?? ''), old as Role | ClusterRole);
        if (err) throw err;
      },
    };
  }
  const resource = kind === 'RoleBinding' ? 'rolebindings' : 'clusterrolebindings';
  return {
    beforeCreate(ctx, _r, obj) {
      const authz = requestAuthorizer(ctx);
      if (!authz) return;
      const err = checkBindingWrite(authz, requestUser(ctx), resource, obj as RoleBinding | ClusterRoleBinding);
      if (err) throw err;
    },
    beforeUpdate(ctx, _r, next, old) {
      const authz = requestAuthorizer(ctx);
      if (!authz) return;
      // Changing only the subjects of a binding to a role is checked like a new binding; an
      // unchanged roleRef and subjects list is let through (metadata-only edits).
      if (deepEqualJson(next.roleRef, old.roleRef) && deepEqualJson(next.subjects ?? [], old.subjects ?? [])) return;
      const err = checkBindingWrite(authz, requestUser(ctx), resource, next as RoleBinding | ClusterRoleBinding);
      if (err) throw err;
    },
  };
}
