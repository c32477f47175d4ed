import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, startTestServer, type TestClient } from '../testing/api-server';

const ADMIN = { authorization: 'Bearer admin-token' };
const SA = '/api/v1/namespaces/default/serviceaccounts';
const SECRETS = '/api/v1/namespaces/default/secrets';
const ISSUER = 'https://kubernetes.default.svc.cluster.local';

describe('legacy token authentication', () => {
  let c: TestClient;
  let token: string;
  let secretName: string;
  let uid: string;
  beforeEach(async () => {
    c = await startTestServer({ authentication: { tokens: [{ token: 'admin-token', user: 'admin', uid: '', groups: ['system:masters'] }] } });
    expect((await c.post(SA, { metadata: { name: 'robot' } }, ADMIN)).status).toBe(201);
    const sa = await eventually(async () => {
      const s = (await c.get(`${SA}/robot`, ADMIN)).json;
      return s.secrets?.length ? s : undefined;
    });
    uid = sa.metadata.uid;
    secretName = sa.secrets[0].name;
    token = atob((await c.get(`${SECRETS}/${secretName}`, ADMIN)).json.data.token);
  });
  afterEach(async () => {
    await c.close();
  });

  const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
  const review = async (t: string, audiences?: string[]) =>
    (await c.post('/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: t, ...(audiences ? { audiences } : {}) } }, ADMIN)).json.status;

  it('authenticates requests as the service account', async () => {
    expect((await c.get('/api/v1/namespaces/default/configmaps', bearer(token))).status).toBe(200);
    expect(await review(token)).toEqual({
      authenticated: true,
      user: { username: 'system:serviceaccount:default:robot', uid, groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] },
      audiences: [ISSUER],
    });
  });

  it('is only for the API server’s audience', async () => {
    expect(await review(token, ['vault'])).toEqual({ authenticated: false, user: {}, error: `[invalid bearer token, token audiences ["${ISSUER}"] is invalid for the target audiences ["vault"]]` });
  });

  it('stops authenticating once its Secret is deleted', async () => {
    expect((await c.del(`${SECRETS}/${secretName}`, undefined, ADMIN)).status).toBe(200);
    const r = await c.get('/api/v1/namespaces/default/configmaps', bearer(token));
    expect(r.status).toBe(401);
    expect(r.json.message).toBe('Unauthorized');
    expect(await review(token)).toEqual({ authenticated: false, user: {}, error: '[invalid bearer token, Token has been invalidated]' });
  });

  it('stops authenticating when the Secret holds another token', async () => {
    const put = await c.patch(`${SECRETS}/${secretName}`, { data: { token: btoa(`${token}x`) } }, undefined, ADMIN);
    expect(put.status).toBe(200);
    expect((await c.get('/api/v1/namespaces/default/configmaps', bearer(token))).status).toBe(401);
    expect((await review(token)).error).toBe("[invalid bearer token, Token does not match server's copy]");
  });

  it('stops authenticating once the account is deleted', async () => {
    expect((await c.del(`${SA}/robot`, undefined, ADMIN)).status).toBe(200);
    expect((await c.get('/api/v1/namespaces/default/configmaps', bearer(token))).status).toBe(401);
  });

  it('refuses a token whose signature does not verify', async () => {
    const [h, p] = token.split('.');
    const forged = `${h}.${p}.${'A'.repeat(43)}`;
    expect((await c.get('/api/v1/namespaces/default/configmaps', bearer(forged))).status).toBe(401);
  });
});
