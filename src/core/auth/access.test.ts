// API-level tests of the access path: authentication (401), RBAC authorization with the
// bootstrap policy (403 wording), bindings taking effect, escalation prevention, aggregation,
// impersonation, and the review endpoints answered by the authorizer.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, failure, startTestServer, type TestClient } from '../testing/api-server';

const ADMIN = { authorization: 'Bearer admin-token' };
const BOB = { authorization: 'Bearer bob-token' };
const RBAC = '/apis/rbac.authorization.k8s.io/v1';

let c: TestClient;
beforeEach(async () => {
  c = await startTestServer({
    authorization: 'RBAC',
    authentication: {
      tokens: [
        { token: 'admin-token', user: 'admin', uid: '1', groups: ['system:masters'] },
        { token: 'bob-token', user: 'bob', uid: '2', groups: [] },
      ],
    },
  });
});
afterEach(() => c.close());

function bindView(ns = 'default') {
  return c.post(`${RBAC}/namespaces/${ns}/rolebindings`, {
    metadata: { name: 'bob-view' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
  }, ADMIN);
}

describe('authentication', () => {
  it('answers 401 without credentials and with an unknown token', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }] as Record<string, string>[]) {
      const r = await c.get('/api/v1/namespaces', headers);
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    }
  });

  it('reports the authenticated user in a SelfSubjectReview', async () => {
    const r = await c.post('/apis/authentication.k8s.io/v1/selfsubjectreviews', {}, ADMIN);
    expect(r.json.status.userInfo).toEqual({ username: 'admin', uid: '1', groups: ['system:masters', 'system:authenticated'] });
    // Served although newer than v1.23, with the rule later releases add to system:basic-user:
    // any authenticated user may ask who they are.
    const bob = await c.post('/apis/authentication.k8s.io/v1/selfsubjectreviews', {}, BOB);
    expect(bob.status).toBe(201);
    expect(bob.json.status.userInfo.username).toBe('bob');
  });
});

describe('RBAC authorization', () => {
  it('denies a user without bindings with kube-apiserver wording', async () => {
    const r = await c.get('/api/v1/namespaces/default/configmaps/x', BOB);
    expect(failure(r)).toEqual({
      code: 403,
      reason: 'Forbidden',
      message: 'configmaps "x" is forbidden: User "bob" cannot get resource "configmaps" in API group "" in the namespace "default"',
    });
    expect(r.json.details).toEqual({ name: 'x', kind: 'configmaps' });
    const list = await c.get('/apis/apps/v1/deployments', BOB);
    expect(failure(list).message).toBe('deployments.apps is forbidden: User "bob" cannot list resource "deployments" in API group "apps" at the cluster scope');
  });

  it('lets discovery and public-info paths through for authenticated users', async () => {
    expect((await c.get('/api', BOB)).status).toBe(200);
    expect((await c.get('/version', BOB)).status).toBe(200);
    expect((await c.get('/openapi/v3', BOB)).status).toBe(200);
    expect(failure(await c.get('/logs', BOB)).message).toBe('forbidden: User "bob" cannot get path "/logs"');
  });

  it('reconciles the bootstrap policy with admin/edit/view aggregated', async () => {
    const view = await c.get(`${RBAC}/clusterroles/view`, ADMIN);
    expect(view.status).toBe(200);
    expect(view.json.rules.some((r: any) => r.resources?.includes('configmaps') && r.verbs.includes('list'))).toBe(true);
    const crb = await c.get(`${RBAC}/clusterrolebindings/cluster-admin`, ADMIN);
    expect(crb.json.subjects).toEqual([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' }]);
  });

  it('a RoleBinding to view allows list but not create, dry-run included, in that namespace only', async () => {
    expect((await bindView()).status).toBe(201);
    expect((await c.get('/api/v1/namespaces/default/configmaps', BOB)).status).toBe(200);
    expect((await c.get('/api/v1/namespaces/kube-system/configmaps', BOB)).status).toBe(403);
    const cm = { metadata: { name: 'c1' }, data: { a: '1' } };
    const denied = 'configmaps is forbidden: User "bob" cannot create resource "configmaps" in API group "" in the namespace "default"';
    expect(failure(await c.post('/api/v1/namespaces/default/configmaps', cm, BOB)).message).toBe(denied);
    expect(failure(await c.post('/api/v1/namespaces/default/configmaps?dryRun=All', cm, BOB)).message).toBe(denied);
    // Subresources are authorized separately: view grants pods but not pods/exec-like writes.
    const r = await c.post('/api/v1/namespaces/default/pods/p/eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p' } }, BOB);
    expect(failure(r).message).toBe('pods "p" is forbidden: User "bob" cannot create resource "pods/eviction" in API group "" in the namespace "default"');
  });

  it('removing the binding takes the permission away', async () => {
    await bindView();
    expect((await c.del(`${RBAC}/namespaces/default/rolebindings/bob-view`, undefined, ADMIN)).status).toBe(200);
    expect((await c.get('/api/v1/namespaces/default/configmaps', BOB)).status).toBe(403);
  });

  it('prevents escalation through bindings and roles', async () => {
    // bob may manage roles and bindings in default (admin), but cannot grant cluster-admin.
    await c.post(`${RBAC}/namespaces/default/rolebindings`, {
      metadata: { name: 'bob-admin' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
    }, ADMIN);
    const rb = await c.post(`${RBAC}/namespaces/default/rolebindings`, {
      metadata: { name: 'steal' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
    }, BOB);
    expect(rb.status).toBe(403);
    expect(rb.json.message).toMatch(/^rolebindings\.rbac\.authorization\.k8s\.io "steal" is forbidden: user "bob" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n/);
    // A Role within what admin grants is fine; one granting more is refused.
    const ok = await c.post(`${RBAC}/namespaces/default/roles`, { metadata: { name: 'cm' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }] }, BOB);
    expect(ok.status).toBe(201);
    const role = await c.post(`${RBAC}/namespaces/default/roles`, { metadata: { name: 'nodes' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['nodes'] }] }, BOB);
    expect(role.json.message).toBe(
      'roles.rbac.authorization.k8s.io "nodes" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["nodes"], Verbs:["get"]}',
    );
  });

  it('keeps aggregated ClusterRoles up to date', async () => {
    await c.post(`${RBAC}/clusterroles`, {
      metadata: { name: 'widgets-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      rules: [{ verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] }],
    }, ADMIN);
    await eventually(async () => {
      const view = await c.get(`${RBAC}/clusterroles/view`, ADMIN);
      return view.json.rules.some((r: any) => r.resources?.includes('widgets')) ? true : undefined;
    });
    await bindView();
    const ssar = await c.post('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { spec: { resourceAttributes: { namespace: 'default', verb: 'get', group: 'example.com', resource: 'widgets' } } }, BOB);
    expect(ssar.json.status).toEqual({ allowed: true, reason: 'RBAC: allowed by RoleBinding "bob-view/default" of ClusterRole "view" to User "bob"' });
  });
});

describe('impersonation', () => {
  it('needs the impersonate verb', async () => {
    const r = await c.get('/api/v1/namespaces', { ...BOB, 'impersonate-user': 'alice' });
    expect(failure(r).message).toBe('users "alice" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  it('makes an admin act as another user', async () => {
    const r = await c.get('/api/v1/namespaces/default/secrets', { ...ADMIN, 'impersonate-user': 'bob' });
    expect(failure(r).message).toBe('secrets is forbidden: User "bob" cannot list resource "secrets" in API group "" in the namespace "default"');
    const who = await c.post('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { spec: { resourceAttributes: { verb: 'list', resource: 'secrets', namespace: 'default' } } }, { ...ADMIN, 'impersonate-user': 'bob', 'impersonate-group': 'system:masters' });
    expect(who.json.status.allowed).toBe(true);
  });

  it('is audited with the requester as user and the impersonated user, also when forbidden', async () => {
    await c.get('/api/v1/namespaces/default/secrets', { ...ADMIN, 'impersonate-user': 'bob' });
    await c.get('/api/v1/namespaces/default/secrets', ADMIN);
    const events = (c.api.audit?.events() ?? []).filter((e) => e.requestURI === '/api/v1/namespaces/default/secrets');
    expect(events).toHaveLength(2);
    const [impersonated, plain] = events;
    expect(impersonated.user).toEqual({ username: 'admin', uid: '1', groups: ['system:masters', 'system:authenticated'] });
    expect(impersonated.impersonatedUser).toEqual({ username: 'bob', groups: ['system:authenticated'] });
    expect(impersonated.responseStatus?.code).toBe(403);
    expect(Object.keys(impersonated).indexOf('impersonatedUser')).toBe(Object.keys(impersonated).indexOf('user') + 1);
    expect(plain.user.username).toBe('admin');
    expect(plain.impersonatedUser).toBeUndefined();
  });
});

describe('review endpoints', () => {
  it('SubjectAccessReview and LocalSubjectAccessReview ask about the spec user', async () => {
    await bindView();
    const spec = { user: 'bob', resourceAttributes: { namespace: 'default', verb: 'list', resource: 'pods' } };
    const sar = await c.post('/apis/authorization.k8s.io/v1/subjectaccessreviews', { spec }, ADMIN);
    expect(sar.status).toBe(201);
    expect(sar.json.status.allowed).toBe(true);
    const denied = await c.post('/apis/authorization.k8s.io/v1/subjectaccessreviews', { spec: { ...spec, resourceAttributes: { ...spec.resourceAttributes, verb: 'delete' } } }, ADMIN);
    expect(denied.json.status).toEqual({ allowed: false });
    const local = await c.post('/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews', { spec }, ADMIN);
    expect(local.json.status.allowed).toBe(true);
    const mismatch = await c.post('/apis/authorization.k8s.io/v1/namespaces/kube-system/localsubjectaccessreviews', { spec }, ADMIN);
    expect(mismatch.status).toBe(400);
  });

  it('SelfSubjectRulesReview lists what the caller holds', async () => {
    await bindView();
    const r = await c.post('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { spec: { namespace: 'default' } }, BOB);
    expect(r.status).toBe(201);
    expect(r.json.status.incomplete).toBe(false);
    expect(r.json.status.resourceRules).toContainEqual({ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] });
    expect(r.json.status.resourceRules.some((x: any) => x.resources?.includes('configmaps') && x.verbs.includes('list'))).toBe(true);
    expect(r.json.status.nonResourceRules).toContainEqual({ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] });
  });
});

describe('defaults', () => {
  it('without options every request is the admin and no policy is stored', async () => {
    const plain = await startTestServer();
    try {
      expect((await plain.get('/api/v1/namespaces/default/configmaps')).status).toBe(200);
      const who = await plain.post('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { spec: { resourceAttributes: { verb: 'delete', resource: 'nodes' } } });
      expect(who.json.status.allowed).toBe(true);
    } finally {
      await plain.close();
    }
  });
});
