// RBAC authorizer cost per request with 1,000 RoleBindings (target: ≤ 20 µs).
// Run: npx tsx bench/rbac.ts
import { bootstrapClusterRoleBindings, bootstrapClusterRolesAggregated } from '../src/core/auth/rbac/bootstrap';
import { RbacAuthorizer, type RbacObject } from '../src/core/auth/rbac/index';
import type { Attributes, UserInfo } from '../src/core/auth/rbac/types';

const G = 'rbac.authorization.k8s.io';
const authz = new RbacAuthorizer([
  ...bootstrapClusterRolesAggregated().map((o) => ({ ...o, kind: 'ClusterRole' }) as RbacObject),
  ...bootstrapClusterRoleBindings().map((o) => ({ ...o, kind: 'ClusterRoleBinding' }) as RbacObject),
]);

// 1,000 RoleBindings across 50 namespaces, one user each, referencing view/edit/admin.
const refs = ['view', 'edit', 'admin'];
for (let i = 0; i < 1000; i++) {
  authz.upsert({
    kind: 'RoleBinding',
    metadata: { name: `rb-${i}`, namespace: `ns-${i % 50}` },
    roleRef: { apiGroup: G, kind: 'ClusterRole', name: refs[i % 3] },
    subjects: [{ kind: 'User', name: `user-${i}` }, { kind: 'Group', name: `team-${i % 20}` }],
  });
}

const cases: [string, UserInfo, Attributes][] = [
  ['allowed via RoleBinding (edit, last rule)', { username: 'user-1', groups: ['system:authenticated'] }, { kind: 'resource', verb: 'list', apiGroup: 'networking.k8s.io', resource: 'networkpolicies', namespace: 'ns-1' }],
  ['denied, member of a team bound in many namespaces', { username: 'user-x', groups: ['system:authenticated', 'team-3'] }, { kind: 'resource', verb: 'delete', apiGroup: '', resource: 'nodes', namespace: 'ns-3', name: 'n' }],
  ['denied, unbound user', { username: 'nobody', groups: ['system:authenticated'] }, { kind: 'resource', verb: 'get', apiGroup: '', resource: 'secrets', namespace: 'ns-7', name: 's' }],
  ['allowed non-resource (discovery)', { username: 'nobody', groups: ['system:authenticated'] }, { kind: 'nonResource', verb: 'get', path: '/apis/apps/v1' }],
];

for (const [label, user, attrs] of cases) {
  for (let i = 0; i < 2000; i++) authz.authorize(user, attrs); // warm-up
  const n = 50_000;
  const t0 = performance.now();
  let allowed = 0;
  for (let i = 0; i < n; i++) if (authz.authorize(user, attrs).allowed) allowed++;
  const us = ((performance.now() - t0) * 1000) / n;
  console.log(`${label}: ${us.toFixed(2)} µs/request (${allowed === n ? 'allowed' : allowed === 0 ? 'denied' : 'mixed'})`);
}
