// The RBAC authorizer (plugin/pkg/auth/authorizer/rbac semantics) over an in-memory,
// incrementally-updated view of Roles, ClusterRoles and their bindings. Bindings are indexed
// by subject so a request only visits bindings naming the caller, its groups or its service
// account: cost is independent of how many bindings name other people.
import { rulesAllow } from './rules';
import { describeSubject, subjectKey, userKeys } from './subjects';
import {
  SYSTEM_MASTERS,
  type Attributes,
  type ClusterRole,
  type ClusterRoleBinding,
  type Decision,
  type PolicyRule,
  type Role,
  type RoleBinding,
  type Subject,
  type UserInfo,
} from './types';

export type RbacObject =
  | (Role & { kind: 'Role' })
  | (ClusterRole & { kind: 'ClusterRole' })
  | (RoleBinding & { kind: 'RoleBinding' })
  | (ClusterRoleBinding & { kind: 'ClusterRoleBinding' });

export type RbacKind = RbacObject['kind'];

/** Rules a user holds, plus the lookup errors met (a binding to a missing role), as RulesFor returns. */
export interface RulesForResult {
  rules: PolicyRule[];
  errors: string[];
}

type AnyBinding = RoleBinding | ClusterRoleBinding;
/** Bindings naming one subject key, by binding name (RoleBinding index is also keyed by namespace). */
type BindingBucket = Map<string, AnyBinding>;

const nsName = (ns: string, name: string) => `${ns}/${name}`;

export class RbacAuthorizer {
  private readonly roles = new Map<string, Role>();
  private readonly clusterRoles = new Map<string, ClusterRole>();
  private readonly roleBindings = new Map<string, RoleBinding>();
  private readonly clusterRoleBindings = new Map<string, ClusterRoleBinding>();
  /** subject key → ClusterRoleBindings naming it. */
  private readonly crbIndex = new Map<string, BindingBucket>();
  /** `namespace\0subject key` → RoleBindings in that namespace naming it. */
  private readonly rbIndex = new Map<string, BindingBucket>();

  constructor(objects: Iterable<RbacObject> = []) {
    for (const o of objects) this.upsert(o);
  }

  /** Adds or replaces one object (the watch ADDED/MODIFIED path). */
  upsert(obj: RbacObject): void {
    const name = obj.metadata.name;
    const ns = obj.metadata.namespace ?? '';
    switch (obj.kind) {
      case 'Role':
        this.roles.set(nsName(ns, name), obj);
        return;
      case 'ClusterRole':
        this.clusterRoles.set(name, obj);
        return;
      case 'RoleBinding':
        this.remove('RoleBinding', name, ns);
        this.roleBindings.set(nsName(ns, name), obj);
        this.indexBinding(obj, ns, (k) => `${ns}\0${k}`, this.rbIndex);
        return;
      case 'ClusterRoleBinding':
        this.remove('ClusterRoleBinding', name);
        this.clusterRoleBindings.set(name, obj);
        this.indexBinding(obj, '', (k) => k, this.crbIndex);
        return;
    }
  }

  /** Removes one object by identity (the watch DELETED path); unknown objects are ignored. */
  remove(kind: RbacKind, name: string, namespace = ''): void {
    switch (kind) {
      case 'Role':
        this.roles.delete(nsName(namespace, name));
        return;
      case 'ClusterRole':
        this.clusterRoles.delete(name);
        return;
      case 'RoleBinding': {
        const old = this.roleBindings.get(nsName(namespace, name));
        if (!old) return;
        this.roleBindings.delete(nsName(namespace, name));
        this.unindexBinding(old, namespace, (k) => `${namespace}\0${k}`, this.rbIndex);
        return;
      }
      case 'ClusterRoleBinding': {
        const old = this.clusterRoleBindings.get(name);
        if (!old) return;
        this.clusterRoleBindings.delete(name);
        this.unindexBinding(old, '', (k) => k, this.crbIndex);
        return;
      }
    }
  }

  getClusterRole(name: string): ClusterRole | undefined {
    return this.clusterRoles.get(name);
  }

  getRole(namespace: string, name: string): Role | undefined {
    return this.roles.get(nsName(namespace, name));
  }

  authorize(user: UserInfo, attrs: Attributes): Decision {
    // kube runs a privileged-group authorizer ahead of RBAC: system:masters may do anything.
    if (user.groups.includes(SYSTEM_MASTERS)) return { allowed: true, reason: '' };
    const errors: string[] = [];
    const namespace = attrs.kind === 'resource' ? attrs.namespace ?? '' : '';
    for (const [binding, bindingNs] of this.applicableBindings(user, namespace)) {
      const rules = this.roleRefRules(binding, bindingNs, errors);
      if (rules && rulesAllow(attrs, rules)) return { allowed: true, reason: `RBAC: allowed by ${this.describe(binding, bindingNs, user)}` };
    }
    return { allowed: false, reason: errors.length ? `RBAC: ${aggregateErrors(errors)}` : '' };
  }

  /** Every rule the user holds in `namespace` (cluster-wide ones first); `''` gives cluster-wide only. */
  rulesFor(user: UserInfo, namespace: string): RulesForResult {
    const errors: string[] = [];
    const rules: PolicyRule[] = [];
    for (const [binding, bindingNs] of this.applicableBindings(user, namespace)) {
      const r = this.roleRefRules(binding, bindingNs, errors);
      if (r) rules.push(...r);
    }
    return { rules, errors };
  }

  /** Rules of the role a binding refers to, as GetRoleReferenceRules; errors get the kube NotFound text. */
  roleRefRules(binding: { roleRef: { kind: string; name: string } }, bindingNs: string, errors?: string[]): PolicyRule[] | undefined {
    const { kind, name } = binding.roleRef;
    if (kind === 'ClusterRole') {
      const cr = this.clusterRoles.get(name);
      if (cr) return cr.rules ?? [];
      errors?.push(`clusterrole.rbac.authorization.k8s.io ${JSON.stringify(name)} not found`);
      return undefined;
    }
    if (kind === 'Role' && bindingNs) {
      const r = this.roles.get(nsName(bindingNs, name));
      if (r) return r.rules ?? [];
      errors?.push(`role.rbac.authorization.k8s.io ${JSON.stringify(name)} not found`);
      return undefined;
    }
    errors?.push(`unsupported role reference kind: ${JSON.stringify(kind)}`);
    return undefined;
  }

  /** ClusterRoleBindings first, then RoleBindings of `namespace`, each once, as kube visits them. */
  private *applicableBindings(user: UserInfo, namespace: string): Generator<[AnyBinding, string]> {
    const keys = userKeys(user);
    const seen = new Set<AnyBinding>();
    for (const k of keys) {
      for (const b of this.crbIndex.get(k)?.values() ?? []) {
        if (seen.has(b)) continue;
        seen.add(b);
        yield [b, ''];
      }
    }
    if (!namespace) return;
    for (const k of keys) {
      for (const b of this.rbIndex.get(`${namespace}\0${k}`)?.values() ?? []) {
        if (seen.has(b)) continue;
        seen.add(b);
        yield [b, namespace];
      }
    }
  }

  /** `ClusterRoleBinding "x" of ClusterRole "y" to Group "z"`, naming the binding's first subject that applies. */
  private describe(binding: AnyBinding, bindingNs: string, user: UserInfo): string {
    const keys = new Set(userKeys(user));
    const subject = (binding.subjects ?? []).find((s) => {
      const k = subjectKey(s, bindingNs);
      return k !== undefined && keys.has(k);
    }) as Subject;
    const ref = `${binding.roleRef.kind} ${JSON.stringify(binding.roleRef.name)}`;
    const who = describeSubject(subject, bindingNs);
    if (bindingNs) return `RoleBinding ${JSON.stringify(`${binding.metadata.name}/${bindingNs}`)} of ${ref} to ${who}`;
    return `ClusterRoleBinding ${JSON.stringify(binding.metadata.name)} of ${ref} to ${who}`;
  }

  private indexBinding(b: AnyBinding, ns: string, key: (k: string) => string, index: Map<string, BindingBucket>): void {
    for (const s of b.subjects ?? []) {
      const k = subjectKey(s, ns);
      if (k === undefined) continue;
      let bucket = index.get(key(k));
      if (!bucket) index.set(key(k), (bucket = new Map()));
      bucket.set(b.metadata.name, b);
    }
  }

  private unindexBinding(b: AnyBinding, ns: string, key: (k: string) => string, index: Map<string, BindingBucket>): void {
    for (const s of b.subjects ?? []) {
      const k = subjectKey(s, ns);
      if (k === undefined) continue;
      const bucket = index.get(key(k));
      bucket?.delete(b.metadata.name);
      if (bucket && bucket.size === 0) index.delete(key(k));
    }
  }
}

/** utilerrors.NewAggregate(...).Error(): one message alone, several deduplicated inside `[a, b]`. */
function aggregateErrors(errors: string[]): string {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}
