import { describe, expect, it } from 'vitest';
import { RbacAuthorizer, type RbacObject } from './index';
import { serviceAccountUser } from './subjects';
import type { Attributes, UserInfo } from './types';

const G = 'rbac.authorization.k8s.io';
const bob: UserInfo = { username: 'bob', groups: ['system:authenticated'] };
const alice: UserInfo = { username: 'alice', groups: ['devs', 'system:authenticated'] };
const sa = serviceAccountUser('ns1', 'builder');

const objects: RbacObject[] = [
  { kind: 'ClusterRole', metadata: { name: 'pod-reader' }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }] },
  { kind: 'ClusterRole', metadata: { name: 'node-reader' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['nodes'] }, { verbs: ['get'], nonResourceURLs: ['/logs', '/metrics*'] }] },
  { kind: 'Role', metadata: { name: 'cm-editor', namespace: 'ns1' }, rules: [{ verbs: ['update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['app'] }] },
  // Same role name in ns2 with other rules: Role rules never leak across namespaces.
  { kind: 'Role', metadata: { name: 'cm-editor', namespace: 'ns2' }, rules: [{ verbs: ['delete'], apiGroups: [''], resources: ['configmaps'] }] },
  { kind: 'ClusterRoleBinding', metadata: { name: 'bob-nodes' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'node-reader' }, subjects: [{ kind: 'User', name: 'bob', apiGroup: G }] },
  { kind: 'RoleBinding', metadata: { name: 'bob-pods', namespace: 'ns1' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'pod-reader' }, subjects: [{ kind: 'User', name: 'bob', apiGroup: G }] },
  { kind: 'RoleBinding', metadata: { name: 'devs-cm', namespace: 'ns1' }, roleRef: { apiGroup: G, kind: 'Role', name: 'cm-editor' }, subjects: [{ kind: 'Group', name: 'devs', apiGroup: G }] },
  // A ServiceAccount subject without namespace means the binding's namespace.
  { kind: 'RoleBinding', metadata: { name: 'sa-pods', namespace: 'ns1' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'pod-reader' }, subjects: [{ kind: 'ServiceAccount', name: 'builder' }] },
  { kind: 'RoleBinding', metadata: { name: 'all-sa-ns2', namespace: 'ns2' }, roleRef: { apiGroup: G, kind: 'Role', name: 'cm-editor' }, subjects: [{ kind: 'Group', name: 'system:serviceaccounts:ns1', apiGroup: G }] },
  { kind: 'RoleBinding', metadata: { name: 'dangling', namespace: 'ns3' }, roleRef: { apiGroup: G, kind: 'Role', name: 'gone' }, subjects: [{ kind: 'User', name: 'alice', apiGroup: G }] },
];

const r = (verb: string, resource: string, namespace?: string, name?: string, apiGroup = ''): Attributes => ({ kind: 'resource', verb, apiGroup, resource, namespace, name });

const table: [string, UserInfo, Attributes, boolean][] = [
  ['CRB gives cluster-scoped read', bob, r('get', 'nodes', undefined, 'n1'), true],
  ['CRB applies in every namespace too', bob, r('get', 'nodes', 'ns9', 'n1'), true],
  ['CRB non-resource path', bob, { kind: 'nonResource', verb: 'get', path: '/metrics/slis' }, true],
  ['RB to ClusterRole applies in its namespace', bob, r('list', 'pods', 'ns1'), true],
  ['RB to ClusterRole not in another namespace', bob, r('list', 'pods', 'ns2'), false],
  ['RB to ClusterRole not cluster-wide', bob, r('list', 'pods'), false],
  ['group-bound Role with resourceName', alice, r('update', 'configmaps', 'ns1', 'app'), true],
  ['resourceName miss', alice, r('update', 'configmaps', 'ns1', 'other'), false],
  ['ns1 Role does not grant ns2 rules', alice, r('delete', 'configmaps', 'ns1', 'app'), false],
  ['unbound user', { username: 'carol', groups: ['system:authenticated'] }, r('get', 'pods', 'ns1', 'p'), false],
  ['SA subject defaulted to binding namespace', sa, r('get', 'pods', 'ns1', 'p'), true],
  ['SA of another namespace', serviceAccountUser('ns2', 'builder'), r('get', 'pods', 'ns1', 'p'), false],
  ['SA matched through system:serviceaccounts:<ns>', sa, r('delete', 'configmaps', 'ns2', 'x'), true],
  ['system:masters always allowed', { username: 'root', groups: ['system:masters'] }, r('delete', 'anything', 'x', 'y', 'z.io'), true],
];

describe('RbacAuthorizer.authorize', () => {
  const authz = new RbacAuthorizer(objects);
  it.each(table)('%s', (_n, user, attrs, want) => {
    expect(authz.authorize(user, attrs).allowed).toBe(want);
  });

  it('explains allows as kube does', () => {
    expect(authz.authorize(bob, r('get', 'nodes')).reason).toBe('RBAC: allowed by ClusterRoleBinding "bob-nodes" of ClusterRole "node-reader" to User "bob"');
    expect(authz.authorize(bob, r('get', 'pods', 'ns1')).reason).toBe('RBAC: allowed by RoleBinding "bob-pods/ns1" of ClusterRole "pod-reader" to User "bob"');
    expect(authz.authorize(sa, r('get', 'pods', 'ns1')).reason).toBe('RBAC: allowed by RoleBinding "sa-pods/ns1" of ClusterRole "pod-reader" to ServiceAccount "builder/ns1"');
    expect(authz.authorize(alice, r('update', 'configmaps', 'ns1', 'app')).reason).toBe('RBAC: allowed by RoleBinding "devs-cm/ns1" of Role "cm-editor" to Group "devs"');
  });

  it('denies with an empty reason, or the role lookup errors', () => {
    expect(authz.authorize(bob, r('get', 'secrets', 'ns1'))).toEqual({ allowed: false, reason: '' });
    expect(authz.authorize(alice, r('get', 'pods', 'ns3'))).toEqual({ allowed: false, reason: 'RBAC: role.rbac.authorization.k8s.io "gone" not found' });
  });
});

describe('RbacAuthorizer incremental updates', () => {
  it('adds, replaces and removes bindings and roles', () => {
    const authz = new RbacAuthorizer(objects);
    const eve: UserInfo = { username: 'eve', groups: [] };
    const attrs = r('get', 'pods', 'ns1', 'p');
    expect(authz.authorize(eve, attrs).allowed).toBe(false);
    authz.upsert({ kind: 'RoleBinding', metadata: { name: 'eve', namespace: 'ns1' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'pod-reader' }, subjects: [{ kind: 'User', name: 'eve' }] });
    expect(authz.authorize(eve, attrs).allowed).toBe(true);
    // Replacing the binding with another subject drops eve from the index.
    authz.upsert({ kind: 'RoleBinding', metadata: { name: 'eve', namespace: 'ns1' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'pod-reader' }, subjects: [{ kind: 'User', name: 'mallory' }] });
    expect(authz.authorize(eve, attrs).allowed).toBe(false);
    expect(authz.authorize({ username: 'mallory', groups: [] }, attrs).allowed).toBe(true);
    authz.remove('RoleBinding', 'eve', 'ns1');
    expect(authz.authorize({ username: 'mallory', groups: [] }, attrs).allowed).toBe(false);
    // Role changes are seen at once because bindings resolve roles per request.
    authz.upsert({ kind: 'ClusterRole', metadata: { name: 'pod-reader' }, rules: [] });
    expect(authz.authorize(bob, attrs).allowed).toBe(false);
    authz.remove('ClusterRole', 'pod-reader');
    expect(authz.authorize(bob, attrs).reason).toBe('RBAC: clusterrole.rbac.authorization.k8s.io "pod-reader" not found');
    authz.remove('ClusterRoleBinding', 'bob-nodes');
    expect(authz.authorize(bob, r('get', 'nodes')).allowed).toBe(false);
  });
});

describe('RbacAuthorizer.rulesFor', () => {
  const authz = new RbacAuthorizer(objects);
  it('lists cluster-wide rules, then the namespace ones', () => {
    expect(authz.rulesFor(bob, '').rules).toEqual(objects[1].kind === 'ClusterRole' ? objects[1].rules : []);
    expect(authz.rulesFor(bob, 'ns1').rules.map((x) => x.resources ?? x.nonResourceURLs)).toEqual([['nodes'], ['/logs', '/metrics*'], ['pods']]);
    expect(authz.rulesFor(alice, 'ns3')).toEqual({ rules: [], errors: ['role.rbac.authorization.k8s.io "gone" not found'] });
  });
});
