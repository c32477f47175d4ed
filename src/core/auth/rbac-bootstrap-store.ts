// Auto-reconciliation of the bootstrap policy at start (kube-apiserver's rbac/bootstrap-roles
// post-start hook): missing bootstrap ClusterRoles and ClusterRoleBindings are created; existing
// ones annotated `rbac.authorization.kubernetes.io/autoupdate: "true"` get back any bootstrap
// rule or subject they lost. Objects annotated otherwise are left as the user made them.
import type { RegistryContext } from '../registry/context';
import { objectKey } from '../registry/catalog';
import type { Obj } from '../registry/objects';
import { createObject, updateObject } from '../registry/store';
import { rulesEqual } from './rbac/aggregation';
import { bootstrapClusterRoleBindings, bootstrapClusterRolesAggregated } from './rbac/bootstrap';
import { RBAC_GROUP, type PolicyRule, type Subject } from './rbac/types';
import { deepEqualJson } from '../meta/json-equal';

const AUTOUPDATE = 'rbac.authorization.kubernetes.io/autoupdate';
const UPDATE = { dryRun: false, subresource: '', allowCreate: false, checkName: false } as const;

/** Whether rbac.authorization.k8s.io/v1 is served (`--runtime-config` can switch it off). */
export function servesRbac(ctx: RegistryContext): boolean {
  return ctx.catalog.lookup(RBAC_GROUP, 'v1', 'clusterroles') !== undefined && ctx.catalog.lookup(RBAC_GROUP, 'v1', 'clusterrolebindings') !== undefined;
}

export async function reconcileBootstrapPolicy(ctx: RegistryContext): Promise<void> {
  const roles = ctx.catalog.lookup(RBAC_GROUP, 'v1', 'clusterroles');
  const bindings = ctx.catalog.lookup(RBAC_GROUP, 'v1', 'clusterrolebindings');
  if (!roles || !bindings) throw new Error('rbac resources are not served');
  for (const want of bootstrapClusterRolesAggregated()) {
    const kv = await ctx.mvcc.get(objectKey(roles, '', want.metadata.name));
    if (!kv) {
      await createObject(ctx, roles, '', JSON.parse(JSON.stringify(want)), false);
      continue;
    }
    const have = JSON.parse(kv.value) as Obj;
    if (have.metadata?.annotations?.[AUTOUPDATE] !== 'true') continue;
    const rules: PolicyRule[] = have.rules ?? [];
    const missing = (want.rules ?? []).filter((w) => !rules.some((h) => rulesEqual(h, w)));
    if (missing.length) await updateObject(ctx, roles, '', want.metadata.name, (cur) => ({ ...(cur as Obj), rules: [...rules, ...missing] }), UPDATE);
  }
  for (const want of bootstrapClusterRoleBindings()) {
    const kv = await ctx.mvcc.get(objectKey(bindings, '', want.metadata.name));
    if (!kv) {
      await createObject(ctx, bindings, '', JSON.parse(JSON.stringify(want)), false);
      continue;
    }
    const have = JSON.parse(kv.value) as Obj;
    if (have.metadata?.annotations?.[AUTOUPDATE] !== 'true') continue;
    const subjects: Subject[] = have.subjects ?? [];
    const missing = (want.subjects ?? []).filter((w) => !subjects.some((s) => deepEqualJson(s, w)));
    if (missing.length) await updateObject(ctx, bindings, '', want.metadata.name, (cur) => ({ ...(cur as Obj), subjects: [...subjects, ...missing] }), UPDATE);
  }
}
