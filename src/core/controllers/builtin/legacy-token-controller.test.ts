import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, startTestServer, type TestClient } from '../../testing/api-server';
import { base64UrlDecode } from '../../auth/jwt-hs256';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';
const SA = '/api/v1/namespaces/default/serviceaccounts';
const SECRETS = '/api/v1/namespaces/default/secrets';
const claimsOf = (token: string) => JSON.parse(new TextDecoder().decode(base64UrlDecode(token.split('.')[1])));

describe('tokens controller (legacy token Secrets)', () => {
  let c: TestClient;
  beforeEach(async () => {
    c = await startTestServer({ clusterCaCert: PEM });
  });
  afterEach(async () => {
    await c.close();
  });

  /** The account once it references a token Secret. */
  const referenced = (name: string, ns = 'default') =>
    eventually(async () => {
      const sa = (await c.get(`/api/v1/namespaces/${ns}/serviceaccounts/${name}`)).json;
      return sa?.secrets?.length ? sa : undefined;
    });

  it('gives the initial namespaces’ default accounts a token Secret', async () => {
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      const sa = await referenced('default', ns);
      expect(sa.secrets).toHaveLength(1);
      expect(sa.secrets[0].name).toMatch(/^default-token-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    }
  });

  it('creates a Secret of kube’s shape and references it from the account', async () => {
    const created = await c.post(SA, { metadata: { name: 'robot' } });
    expect(created.status).toBe(201);
    const sa = await referenced('robot');
    const name: string = sa.secrets[0].name;
    expect(sa.secrets).toEqual([{ name }]);
    expect(name).toMatch(/^robot-token-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    const secret = (await c.get(`${SECRETS}/${name}`)).json;
    expect(secret.type).toBe('kubernetes.io/service-account-token');
    expect(secret.metadata.annotations).toEqual({ 'kubernetes.io/service-account.name': 'robot', 'kubernetes.io/service-account.uid': sa.metadata.uid });
    expect(secret.metadata.ownerReferences).toBeUndefined();
    expect(Object.keys(secret.data)).toEqual(['ca.crt', 'namespace', 'token']);
    expect(atob(secret.data['ca.crt'])).toBe(PEM);
    expect(atob(secret.data.namespace)).toBe('default');
    const token = atob(secret.data.token);
    expect(JSON.parse(atob(token.split('.')[0].replace(/-/g, '+').replace(/_/g, '/')))).toMatchObject({ alg: 'HS256' });
    const claims = claimsOf(token);
    expect(Object.keys(claims)).toEqual([
      'iss',
      'kubernetes.io/serviceaccount/namespace',
      'kubernetes.io/serviceaccount/secret.name',
      'kubernetes.io/serviceaccount/service-account.name',
      'kubernetes.io/serviceaccount/service-account.uid',
      'sub',
    ]);
    expect(claims).toEqual({
      iss: 'kubernetes/serviceaccount',
      'kubernetes.io/serviceaccount/namespace': 'default',
      'kubernetes.io/serviceaccount/secret.name': name,
      'kubernetes.io/serviceaccount/service-account.name': 'robot',
      'kubernetes.io/serviceaccount/service-account.uid': sa.metadata.uid,
      sub: 'system:serviceaccount:default:robot',
    });
    // Both writes are kube-controller-manager's. The account was created owning nothing (a name
    // only), so as in kube (skipNonAppliedManager) the controller's update of it is not tracked.
    expect(secret.metadata.managedFields.map((m: { manager: string; operation: string }) => [m.manager, m.operation])).toEqual([['kube-controller-manager', 'Update']]);
    expect(sa.metadata.managedFields).toBeUndefined();
  });

  it('cuts a long account name so the Secret name stays within 63 characters', async () => {
    const long = 'a'.repeat(70);
    expect((await c.post(SA, { metadata: { name: long } })).status).toBe(201);
    const sa = await referenced(long);
    expect(sa.secrets[0].name).toMatch(new RegExp(`^${'a'.repeat(58)}[bcdfghjklmnpqrstvwxz2456789]{5}$`));
  });

  it('deletes the token Secrets of a deleted account', async () => {
    await c.post(SA, { metadata: { name: 'robot' } });
    const name = (await referenced('robot')).secrets[0].name;
    expect((await c.del(`${SA}/robot`)).status).toBe(200);
    await eventually(async () => ((await c.get(`${SECRETS}/${name}`)).status === 404 ? true : undefined));
  });

  it('replaces a deleted token Secret and drops the old reference', async () => {
    await c.post(SA, { metadata: { name: 'robot' } });
    const old = (await referenced('robot')).secrets[0].name;
    expect((await c.del(`${SECRETS}/${old}`)).status).toBe(200);
    const sa = await eventually(async () => {
      const s = (await c.get(`${SA}/robot`)).json;
      return s.secrets?.length === 1 && s.secrets[0].name !== old ? s : undefined;
    });
    expect((await c.get(`${SECRETS}/${sa.secrets[0].name}`)).status).toBe(200);
    const tokens = (await c.get(`${SECRETS}?fieldSelector=type%3Dkubernetes.io%2Fservice-account-token`)).json.items.filter((s: any) => s.metadata.annotations['kubernetes.io/service-account.name'] === 'robot');
    expect(tokens.map((s: any) => s.metadata.name)).toEqual([sa.secrets[0].name]);
  });

  it('fills in a token Secret created by hand, without referencing it', async () => {
    await c.post(SA, { metadata: { name: 'robot' } });
    const sa = await referenced('robot');
    const r = await c.post(SECRETS, { metadata: { name: 'mine', annotations: { 'kubernetes.io/service-account.name': 'robot' } }, type: 'kubernetes.io/service-account-token', data: { extra: btoa('x') } });
    expect(r.status).toBe(201);
    const secret = await eventually(async () => {
      const s = (await c.get(`${SECRETS}/mine`)).json;
      return s.data?.token ? s : undefined;
    });
    expect(Object.keys(secret.data)).toEqual(['ca.crt', 'extra', 'namespace', 'token']);
    expect(secret.metadata.annotations['kubernetes.io/service-account.uid']).toBe(sa.metadata.uid);
    expect(claimsOf(atob(secret.data.token))['kubernetes.io/serviceaccount/secret.name']).toBe('mine');
    expect((await c.get(`${SA}/robot`)).json.secrets).toEqual(sa.secrets);
  });

  it('deletes a token Secret that names a missing account', async () => {
    const r = await c.post(SECRETS, { metadata: { name: 'orphan', annotations: { 'kubernetes.io/service-account.name': 'nobody' } }, type: 'kubernetes.io/service-account-token' });
    expect(r.status).toBe(201);
    await eventually(async () => ((await c.get(`${SECRETS}/orphan`)).status === 404 ? true : undefined));
  });

  it('lets a namespace with token Secrets finish terminating', async () => {
    expect((await c.post('/api/v1/namespaces', { metadata: { name: 'doomed' } })).status).toBe(201);
    await referenced('default', 'doomed');
    expect((await c.del('/api/v1/namespaces/doomed')).status).toBe(200);
    await eventually(async () => ((await c.get('/api/v1/namespaces/doomed')).status === 404 ? true : undefined));
  });
});

describe('tokens controller and the cluster CA', () => {
  it('ca.crt is the cluster CA, the one kube-root-ca.crt publishes', async () => {
    const c = await startTestServer();
    try {
      const sa = await eventually(async () => {
        const s = (await c.get(SA + '/default')).json;
        return s?.secrets?.length ? s : undefined;
      });
      const secret = (await c.get(`${SECRETS}/${sa.secrets[0].name}`)).json;
      expect(Object.keys(secret.data)).toEqual(['ca.crt', 'namespace', 'token']);
      const published = (await c.get('/api/v1/namespaces/default/configmaps/kube-root-ca.crt')).json.data['ca.crt'];
      expect(atob(secret.data['ca.crt'])).toBe(published);
      expect(published).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
    } finally {
      await c.close();
    }
  });
});
