// CSRs through the API: create records the requesting (or impersonated) user in the spec, and
// certificatesigningrequests/<name>/approval takes PUT and PATCH of the conditions only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient } from '../testing/api-server';

// A P-256 request for CN=alice (openssl req -new).
const CSR_PEM = `-----BEGIN CERTIFICATE REQUEST-----
MIHKMHICAQAwEDEOMAwGA1UEAwwFYWxpY2UwWTATBgcqhkjOPQIBBggqhkjOPQMB
BwNCAARepoGlDXkJgCqzTHK3jE3EQieJRGeXR9MaqN96eh41nqWFivCTHJcEKKq5
Ns3tqkeNOVjhLRcLuvJc1JNR7R5SoAAwCgYIKoZIzj0EAwIDSAAwRQIhAJXusui2
wHf7oqEdgLC+N7ETDK2EYZaPLn4YZRAb9qo1AiBZHwlYJCTN+5JLUjDZCLd5Ys8r
Sq4MowHS8UmAa/fJjA==
-----END CERTIFICATE REQUEST-----
`;
const REQUEST = btoa(CSR_PEM);
const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

const csr = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name },
  spec: { request: REQUEST, signerName: 'example.com/signer', usages: ['client auth'], ...spec },
  status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Sneaky' }] },
});

describe('create', () => {
  it('fills username and groups from the requester, dropping what the body claimed; status starts empty', async () => {
    const r = await c.post(CSRS, csr('mine', { username: 'root', uid: 'u-1', groups: ['system:masters', 'x'], extra: { a: ['b'] } }));
    expect(r.status).toBe(201);
    expect(r.json.spec.username).toBe('kubernetes-admin');
    expect(r.json.spec.groups).toEqual(['system:masters', 'system:authenticated']);
    expect(r.json.spec.uid).toBeUndefined();
    expect(r.json.spec.extra).toBeUndefined();
    expect(r.json.status).toEqual({});
  });

  it('records the impersonated user with its uid, groups and extra', async () => {
    const r = await c.post(CSRS, csr('bobs'), {
      'impersonate-user': 'bob',
      'impersonate-uid': 'bob-uid',
      'impersonate-group': 'dev',
      'impersonate-extra-scopes': 'view',
    });
    expect(r.status).toBe(201);
    expect(r.json.spec).toMatchObject({ username: 'bob', uid: 'bob-uid', groups: ['dev', 'system:authenticated'], extra: { scopes: ['view'] } });
  });
});

describe('approval subresource', () => {
  it('PUT sets the conditions only, stamping their times; spec and the rest of status stay', async () => {
    const created = (await c.post(CSRS, csr('to-approve'))).json;
    const approved = {
      ...created,
      spec: { ...created.spec, username: 'mallory' },
      status: { certificate: 'Zm9v', conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'This CSR was approved by kubectl certificate approve.' }] },
    };
    const r = await c.put(`${CSRS}/to-approve/approval`, approved);
    expect(r.status).toBe(200);
    expect(r.json.spec.username).toBe('kubernetes-admin');
    expect(r.json.status.certificate).toBeUndefined();
    const [cond] = r.json.status.conditions;
    expect(cond).toMatchObject({ type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'This CSR was approved by kubectl certificate approve.' });
    expect(cond.lastUpdateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(cond.lastTransitionTime).toBe(cond.lastUpdateTime);
    expect(r.json.metadata.managedFields.at(-1)).toMatchObject({ operation: 'Update', subresource: 'approval' });
    const got = await c.get(`${CSRS}/to-approve/approval`);
    expect(got.json.status.conditions).toEqual(r.json.status.conditions);
    // A main-resource update cannot change the conditions.
    const main = await c.put(`${CSRS}/to-approve`, { ...got.json, status: {} });
    expect(main.json.status.conditions).toEqual(r.json.status.conditions);
  });

  it('PATCH adds a Denied condition', async () => {
    await c.post(CSRS, csr('to-deny'));
    const r = await c.patch(`${CSRS}/to-deny/approval`, { status: { conditions: [{ type: 'Denied', status: 'True', reason: 'KubectlDeny', message: 'no' }] } });
    expect(r.status).toBe(200);
    expect(r.json.status.conditions).toMatchObject([{ type: 'Denied', status: 'True', reason: 'KubectlDeny' }]);
  });

  it('server-side apply goes through the approval strategy and records the manager on approval', async () => {
    await c.post(CSRS, csr('applied'));
    const body = { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'applied' }, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Applied', message: 'ok' }] } };
    const r = await c.patch(`${CSRS}/applied/approval?fieldManager=approver`, body, 'application/apply-patch+yaml');
    expect(r.status).toBe(200);
    expect(r.json.status.conditions).toMatchObject([{ type: 'Approved', status: 'True', reason: 'Applied' }]);
    expect(r.json.metadata.managedFields.filter((m: any) => m.manager === 'approver').map((m: any) => m.subresource)).toEqual(['approval']);
  });

  it('both Approved and Denied is invalid (validation of the approval update)', async () => {
    await c.post(CSRS, csr('both'));
    const r = await c.patch(`${CSRS}/both/approval`, { status: { conditions: [{ type: 'Approved', status: 'True' }, { type: 'Denied', status: 'True' }] } });
    expect(r.status).toBe(422);
    expect(r.json.message).toContain('Approved and Denied conditions are mutually exclusive');
  });
});
