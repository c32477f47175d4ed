import { describe, expect, it } from 'vitest';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles, bootstrapClusterRolesAggregated } from './bootstrap';
import { RbacAuthorizer, type RbacObject } from './index';
import type { Attributes, UserInfo } from './types';

const authz = new RbacAuthorizer([
  ...bootstrapClusterRolesAggregated().map((o) => ({ ...o, kind: 'ClusterRole' }) as RbacObject),
  ...bootstrapClusterRoleBindings().map((o) => ({ ...o, kind: 'ClusterRoleBinding' }) as RbacObject),
  { kind: 'RoleBinding', metadata: { name: 'v', namespace: 'team' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'viewer' }] },
  { kind: 'RoleBinding', metadata: { name: 'e', namespace: 'team' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' }, subjects: [{ kind: 'User', name: 'editor' }] },
  { kind: 'RoleBinding', metadata: { name: 'a', namespace: 'team' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' }, subjects: [{ kind: 'User', name: 'admin' }] },
]);

const user = (name: string): UserInfo => ({ username: name, groups: ['system:authenticated'] });
const anon: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
const r = (verb: string, apiGroup: string, resource: string, subresource?: string): Attributes => ({ kind: 'resource', verb, apiGroup, resource, subresource, namespace: 'team', name: 'x' });
const p = (path: string): Attributes => ({ kind: 'nonResource', verb: 'get', path });

const table: [string, UserInfo, Attributes, boolean][] = [
  ['view reads pods', user('viewer'), r('get', '', 'pods'), true],
  ['view reads logs', user('viewer'), r('get', '', 'pods', 'log'), true],
  ['view does not read secrets', user('viewer'), r('get', '', 'secrets'), false],
  ['view does not write', user('viewer'), r('update', 'apps', 'deployments'), false],
  ['edit writes deployments/scale', user('editor'), r('patch', 'apps', 'deployments', 'scale'), true],
  ['edit reads secrets', user('editor'), r('get', '', 'secrets'), true],
  ['edit inherits view', user('editor'), r('list', 'batch', 'jobs'), true],
  ['edit cannot touch roles', user('editor'), r('create', 'rbac.authorization.k8s.io', 'roles'), false],
  ['admin manages rolebindings', user('admin'), r('create', 'rbac.authorization.k8s.io', 'rolebindings'), true],
  ['admin inherits edit', user('admin'), r('create', '', 'pods', 'exec'), true],
  ['admin is not cluster-wide', user('admin'), { kind: 'resource', verb: 'list', apiGroup: '', resource: 'nodes' }, false],
  ['authenticated discovery', user('nobody'), p('/apis/apps/v1'), true],
  ['authenticated self review', user('nobody'), { kind: 'resource', verb: 'create', apiGroup: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' }, true],
  ['anonymous health/version', anon, p('/version'), true],
  ['anonymous no discovery', anon, p('/api'), false],
  ['masters via binding too', { username: 'k', groups: ['system:masters'] }, p('/anything'), true],
];

describe('bootstrap policy', () => {
  it.each(table)('%s', (_n, u, a, want) => expect(authz.authorize(u, a).allowed).toBe(want));

  it('carries the bootstrap labels and autoupdate annotation', () => {
    for (const o of [...bootstrapClusterRoles(), ...bootstrapClusterRoleBindings()]) {
      expect(o.metadata.labels?.['kubernetes.io/bootstrapping']).toBe('rbac-defaults');
      expect(o.metadata.annotations).toEqual({ 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
    }
    const edit = bootstrapClusterRoles().find((c) => c.metadata.name === 'edit')!;
    expect(edit.metadata.labels).toEqual({ 'kubernetes.io/bootstrapping': 'rbac-defaults', 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' });
    expect(edit.aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } }] });
  });

  it('aggregates admin as edit rules (edit, then view) followed by aggregate-to-admin', () => {
    const roles = new Map(bootstrapClusterRolesAggregated().map((c) => [c.metadata.name, c]));
    const admin = roles.get('admin')!.rules!;
    expect(admin[0].resources).toEqual(['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy']);
    expect(admin.at(-1)).toEqual({ verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings', 'roles'] });
    expect(admin).toHaveLength(13 + 10 + 2);
    expect(roles.get('view')!.rules).toHaveLength(10);
  });

  it('binds public-info-viewer to both authenticated and unauthenticated', () => {
    const b = bootstrapClusterRoleBindings().find((x) => x.metadata.name === 'system:public-info-viewer')!;
    expect(b.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:public-info-viewer' });
    expect(b.subjects?.map((s) => s.name)).toEqual(['system:authenticated', 'system:unauthenticated']);
  });
});
