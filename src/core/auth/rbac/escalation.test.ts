import { describe, expect, it } from 'vitest';
import { compactString, covers } from './covers';
import { checkBindingWrite, checkRoleWrite } from './escalation';
import { RbacAuthorizer } from './index';
import type { Role, RoleBinding, UserInfo } from './types';

const G = 'rbac.authorization.k8s.io';
const bob: UserInfo = { username: 'bob', groups: ['system:authenticated', 'devs'] };
const authz = new RbacAuthorizer([
  { kind: 'ClusterRole', metadata: { name: 'pods-rw' }, rules: [{ verbs: ['get', 'list', 'create'], apiGroups: [''], resources: ['pods', '*/status'] }] },
  { kind: 'ClusterRole', metadata: { name: 'secret-admin' }, rules: [{ verbs: ['*'], apiGroups: [''], resources: ['secrets'] }] },
  { kind: 'ClusterRole', metadata: { name: 'escalator' }, rules: [{ verbs: ['escalate'], apiGroups: [G], resources: ['roles'] }] },
  { kind: 'ClusterRole', metadata: { name: 'binder' }, rules: [{ verbs: ['bind'], apiGroups: [G], resources: ['clusterroles'], resourceNames: ['secret-admin'] }] },
  { kind: 'RoleBinding', metadata: { name: 'bob', namespace: 'ns1' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'pods-rw' }, subjects: [{ kind: 'User', name: 'bob' }] },
  { kind: 'RoleBinding', metadata: { name: 'esc', namespace: 'ns2' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'escalator' }, subjects: [{ kind: 'User', name: 'bob' }] },
  { kind: 'RoleBinding', metadata: { name: 'bind', namespace: 'ns1' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'binder' }, subjects: [{ kind: 'Group', name: 'devs' }] },
]);

const role = (ns: string, rules: Role['rules']): Role => ({ metadata: { name: 'r', namespace: ns }, rules });
const binding = (ns: string, kind: string, name: string): RoleBinding => ({ metadata: { name: 'b', namespace: ns }, roleRef: { apiGroup: G, kind, name }, subjects: [{ kind: 'User', name: 'x' }] });

describe('covers', () => {
  it('breaks rules down and reports what is missing', () => {
    const owner = [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', '*/log'] }];
    expect(covers(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['pods', 'pods/log', 'services/log'] }]).covered).toBe(true);
    expect(covers(owner, [{ verbs: ['get', 'watch'], apiGroups: [''], resources: ['pods'] }]).missing).toEqual([{ verbs: ['watch'], apiGroups: [''], resources: ['pods'] }]);
    // A name-restricted owner covers only those names, never the whole resource.
    const named = [{ verbs: ['get'], apiGroups: [''], resources: ['cm'], resourceNames: ['a'] }];
    expect(covers(named, [{ verbs: ['get'], apiGroups: [''], resources: ['cm'], resourceNames: ['a'] }]).covered).toBe(true);
    expect(covers(named, [{ verbs: ['get'], apiGroups: [''], resources: ['cm'] }]).covered).toBe(false);
    expect(covers([{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/apis/apps'] }]).covered).toBe(true);
    expect(covers([{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/api'] }]).covered).toBe(false);
  });
  it('prints rules as Go CompactString', () => {
    expect(compactString({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] })).toBe('{APIGroups:[""], Resources:["pods"], ResourceNames:["a"], Verbs:["get" "list"]}');
    expect(compactString({ verbs: ['get'], nonResourceURLs: ['/x'] })).toBe('{NonResourceURLs:["/x"], Verbs:["get"]}');
  });
});

describe('checkRoleWrite', () => {
  it('allows a role within what the user holds in that namespace', () => {
    expect(checkRoleWrite(authz, bob, 'roles', role('ns1', [{ verbs: ['get'], apiGroups: [''], resources: ['pods', 'pods/status'] }]), '')).toBeUndefined();
  });
  it('refuses more, with kube text listing compacted missing rules sorted', () => {
    const e = checkRoleWrite(authz, bob, 'roles', role('ns1', [{ verbs: ['get', 'delete', 'watch'], apiGroups: ['', 'apps'], resources: ['pods'] }]), '');
    expect(e?.code).toBe(403);
    expect(e?.message).toBe(
      'roles.rbac.authorization.k8s.io "r" is forbidden: user "bob" (groups=["system:authenticated" "devs"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete" "watch"]}\n' +
        '{APIGroups:["apps"], Resources:["pods"], Verbs:["get" "delete" "watch"]}',
    );
    // Permissions held in ns1 do not count in ns3.
    expect(checkRoleWrite(authz, bob, 'roles', role('ns3', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]), '')).toBeDefined();
  });
  it('lets escalate holders and system:masters through', () => {
    expect(checkRoleWrite(authz, bob, 'roles', role('ns2', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]), '')).toBeUndefined();
    expect(checkRoleWrite(authz, { username: 'k', groups: ['system:masters'] }, 'clusterroles', { metadata: { name: 'c' }, rules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }, '')).toBeUndefined();
  });
  it('requires full authority for an aggregationRule', () => {
    const e = checkRoleWrite(authz, bob, 'clusterroles', { metadata: { name: 'agg' }, rules: [], aggregationRule: { clusterRoleSelectors: [] } }, '');
    expect(e?.message).toBe('clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule');
  });
});

describe('checkBindingWrite', () => {
  it('allows binding a role whose rules the user holds', () => {
    const b: RoleBinding = binding('ns1', 'ClusterRole', 'pods-rw');
    expect(checkBindingWrite(authz, bob, 'rolebindings', b)).toBeUndefined();
  });
  it('allows with bind on the named role, refuses without', () => {
    expect(checkBindingWrite(authz, bob, 'rolebindings', binding('ns1', 'ClusterRole', 'secret-admin'))).toBeUndefined();
    const e = checkBindingWrite(authz, bob, 'rolebindings', binding('ns2', 'ClusterRole', 'secret-admin'));
    expect(e?.message).toBe(
      'rolebindings.rbac.authorization.k8s.io "b" is forbidden: user "bob" (groups=["system:authenticated" "devs"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["*"]}',
    );
  });
  it('reports a missing referenced role', () => {
    expect(checkBindingWrite(authz, bob, 'rolebindings', binding('ns1', 'Role', 'nope'))?.message).toBe(
      'rolebindings.rbac.authorization.k8s.io "b" is forbidden: role.rbac.authorization.k8s.io "nope" not found',
    );
  });
});
