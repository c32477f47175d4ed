import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestClient } from '../testing/api-server';
import { base64UrlDecode } from './jwt-hs256';
import { SIGNING_KEY_SECRET } from './service-account-tokens';

const ADMIN = { authorization: 'Bearer admin-token' };
const claimsOf = (token: string) => JSON.parse(new TextDecoder().decode(base64UrlDecode(token.split('.')[1])));

describe('service account tokens', () => {
  let c: TestClient;
  beforeEach(async () => {
    c = await startTestServer({ authorization: 'RBAC', authentication: { tokens: [{ token: 'admin-token', user: 'admin', uid: '', groups: ['system:masters'] }] } });
    expect((await c.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'robot' } }, ADMIN)).status).toBe(201);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await c.close();
  });

  const requestToken = async (spec: object = {}) => c.post('/api/v1/namespaces/default/serviceaccounts/robot/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec }, ADMIN);
  const review = async (token: string, audiences?: string[]) =>
    (await c.post('/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, ...(audiences ? { audiences } : {}) } }, ADMIN)).json.status;

  it('keeps the signing key in a kube-system Secret', async () => {
    const r = await c.get(`/api/v1/namespaces/kube-system/secrets/${SIGNING_KEY_SECRET}`, ADMIN);
    expect(r.status).toBe(200);
    expect(atob(r.json.data.key)).toHaveLength(32);
  });

  it('issues an HS256 token with kube claims in kube order', async () => {
    const sa = (await c.get('/api/v1/namespaces/default/serviceaccounts/robot', ADMIN)).json;
    const r = await requestToken({ expirationSeconds: 1200 });
    expect(r.status).toBe(201);
    const token: string = r.json.status.token;
    const claims = claimsOf(token);
    expect(Object.keys(claims)).toEqual(['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
    expect(claims).toMatchObject({ aud: ['https://kubernetes.default.svc.cluster.local'], iss: 'https://kubernetes.default.svc.cluster.local', sub: 'system:serviceaccount:default:robot' });
    expect(claims['kubernetes.io']).toEqual({ namespace: 'default', serviceaccount: { name: 'robot', uid: sa.metadata.uid } });
    expect(claims.exp - claims.iat).toBe(1200);
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.json.spec).toEqual({ audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 1200, boundObjectRef: null });
  });

  it('rejects expirations under ten minutes', async () => {
    const r = await requestToken({ expirationSeconds: 60 });
    expect(r.status).toBe(422);
    expect(r.json.message).toBe('TokenRequest.authentication.k8s.io "robot" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes');
  });

  it('TokenReview authenticates a valid token as the service account', async () => {
    const token = (await requestToken()).json.status.token;
    const sa = (await c.get('/api/v1/namespaces/default/serviceaccounts/robot', ADMIN)).json;
    expect(await review(token)).toEqual({
      authenticated: true,
      user: { username: 'system:serviceaccount:default:robot', uid: sa.metadata.uid, groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] },
      audiences: ['https://kubernetes.default.svc.cluster.local'],
    });
    expect((await review('admin-token')).user.username).toBe('admin');
  });

  it('TokenReview reports tampered, expired, wrong-audience and revoked tokens', async () => {
    const token: string = (await requestToken()).json.status.token;
    const [h, p, s] = token.split('.');
    const flipped = s[0] === 'A' ? `B${s.slice(1)}` : `A${s.slice(1)}`;
    expect(await review(`${h}.${p}.${flipped}`)).toEqual({ authenticated: false, user: {}, error: '[invalid bearer token, square/go-jose: error in cryptographic primitive]' });
    expect(await review('garbage')).toEqual({ authenticated: false, user: {}, error: 'invalid bearer token' });
    expect((await review(token, ['vault'])).error).toBe('[invalid bearer token, token audiences ["https://kubernetes.default.svc.cluster.local"] is invalid for the target audiences ["vault"]]');
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 2 * 3600 * 1000);
    expect((await review(token)).error).toBe('[invalid bearer token, Token has expired.]');
    vi.restoreAllMocks();
    expect((await c.del('/api/v1/namespaces/default/serviceaccounts/robot', undefined, ADMIN)).status).toBe(200);
    expect((await review(token)).error).toBe('[invalid bearer token, Token has been invalidated]');
  });

  it('authenticates bearer requests as the service account, authorized by RBAC', async () => {
    const token: string = (await requestToken()).json.status.token;
    const auth = { authorization: `Bearer ${token}` };
    const denied = await c.get('/api/v1/namespaces/default/pods', auth);
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe('pods is forbidden: User "system:serviceaccount:default:robot" cannot list resource "pods" in API group "" in the namespace "default"');
    const binding = {
      metadata: { name: 'robot-view' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'ServiceAccount', name: 'robot', namespace: 'default' }],
    };
    expect((await c.post('/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', binding, ADMIN)).status).toBe(201);
    expect((await c.get('/api/v1/namespaces/default/pods', auth)).status).toBe(200);
    // Re-creating the account gives it a new uid: the old token no longer authenticates.
    await c.del('/api/v1/namespaces/default/serviceaccounts/robot', undefined, ADMIN);
    await c.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'robot' } }, ADMIN);
    const gone = await c.get('/api/v1/namespaces/default/pods', auth);
    expect(gone.status).toBe(401);
  });
});
