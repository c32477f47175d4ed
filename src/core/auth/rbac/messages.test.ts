import { describe, expect, it } from 'vitest';
import { forbiddenError, forbiddenReason } from './messages';
import type { UserInfo } from './types';

const bob: UserInfo = { username: 'bob', groups: ['system:authenticated'] };

describe('forbidden messages', () => {
  it('namespaced resource, as kubectl prints it', () => {
    const e = forbiddenError(bob, { kind: 'resource', verb: 'get', apiGroup: '', resource: 'configmaps', namespace: 'default', name: 'x' });
    expect(e.code).toBe(403);
    expect(e.reason).toBe('Forbidden');
    expect(e.message).toBe('configmaps "x" is forbidden: User "bob" cannot get resource "configmaps" in API group "" in the namespace "default"');
    expect(e.details).toEqual({ name: 'x', kind: 'configmaps' });
  });
  it('subresource in a group, unnamed list at cluster scope', () => {
    expect(forbiddenError(bob, { kind: 'resource', verb: 'get', apiGroup: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'ns1', name: 'web' }).message).toBe(
      'deployments.apps "web" is forbidden: User "bob" cannot get resource "deployments/scale" in API group "apps" in the namespace "ns1"',
    );
    const e = forbiddenError(bob, { kind: 'resource', verb: 'list', apiGroup: '', resource: 'nodes' });
    expect(e.message).toBe('nodes is forbidden: User "bob" cannot list resource "nodes" in API group "" at the cluster scope');
  });
  it('non-resource path and an appended reason', () => {
    const e = forbiddenError(bob, { kind: 'nonResource', verb: 'get', path: '/logs' });
    expect(e.message).toBe('forbidden: User "bob" cannot get path "/logs"');
    expect(e.details).toEqual({});
    expect(forbiddenError(bob, { kind: 'nonResource', verb: 'get', path: '/x' }, 'RBAC: clusterrole.rbac.authorization.k8s.io "r" not found').message).toBe(
      'forbidden: User "bob" cannot get path "/x": RBAC: clusterrole.rbac.authorization.k8s.io "r" not found',
    );
    expect(forbiddenReason({ username: 'system:anonymous', groups: [] }, { kind: 'resource', verb: 'watch', apiGroup: '', resource: 'pods', namespace: 'a' })).toBe(
      'User "system:anonymous" cannot watch resource "pods" in API group "" in the namespace "a"',
    );
  });
});
