// The review endpoints (virtual resources: POST only, 201, never stored) and the
// serviceaccounts/<name>/token subresource, in JSON and with the protobuf bodies kubectl 1.34
// sends (../shared/kubectl-wire/logs/04). Authorization is off, so every review is allowed and
// the requester is an admin in system:masters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../meta/types';
import { decodeProtobufObject, encodeProtobufObject } from '../codec/protobuf';
import { failure, startTestServer, type TestClient } from '../testing/api-server';

const PB = 'application/vnd.kubernetes.protobuf';
const KUBECTL_ACCEPT = `${PB},application/json`;
const AUTHZ = '/apis/authorization.k8s.io/v1';
const AUTHN = '/apis/authentication.k8s.io/v1';
const SA = '/api/v1/namespaces/default/serviceaccounts';

// kubectl 1.34 request bodies, byte for byte.
const KUBECTL_CAN_I_LIST = '6b3873000a310a17617574686f72697a6174696f6e2e6b38732e696f2f7631121653656c665375626a65637452756c657352657669657712230a100a0012001a0022002a0032003800420012090a0764656661756c741a04180022001a002200';
const KUBECTL_WHOAMI = '6b3873000a2d0a1861757468656e7469636174696f6e2e6b38732e696f2f7631121153656c665375626a656374526576696577121a0a100a0012001a0022002a0032003800420012060a040a0012001a002200';
const KUBECTL_CREATE_TOKEN = '6b3873000a280a1861757468656e7469636174696f6e2e6b38732e696f2f7631120c546f6b656e52657175657374121a0a100a0012001a0022002a0032003800420012001a040a0012001a002200';

function hex(s: string): Uint8Array {
  return Uint8Array.from(s.match(/../g)!.map((b) => parseInt(b, 16)));
}

let c: TestClient;

/** POSTs a protobuf body as kubectl does and decodes the protobuf answer. */
async function pbPost(url: string, body: Uint8Array): Promise<{ status: number; obj: any }> {
  const res: ApiResponse = await c.api.handle({ method: 'POST', url, headers: { 'content-type': PB, accept: KUBECTL_ACCEPT }, body });
  if (!(res.body instanceof Uint8Array)) throw new Error(`expected protobuf bytes, got ${res.status} ${String(res.body)}`);
  expect(res.headers['Content-Type']).toBe(PB);
  return { status: res.status, obj: decodeProtobufObject(res.body).object };
}

beforeAll(async () => {
  c = await startTestServer();
  expect((await c.post(SA, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder' } })).status).toBe(201);
});
afterAll(async () => {
  await c?.close();
});

describe('access reviews (authorization.k8s.io/v1)', () => {
  it('selfsubjectaccessreviews: `kubectl auth can-i get pods` is allowed, spec echoed', async () => {
    const review = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' } },
    };
    const { status, obj } = await pbPost(`${AUTHZ}/selfsubjectaccessreviews`, encodeProtobufObject(review));
    expect(status).toBe(201);
    expect(obj).toMatchObject({ ...review, status: { allowed: true } });
    expect(obj.status.denied ?? false).toBe(false);
  });

  it('selfsubjectaccessreviews in JSON, for a non-resource URL', async () => {
    const r = await c.post(`${AUTHZ}/selfsubjectaccessreviews`, {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { nonResourceAttributes: { path: '/logs', verb: 'get' } },
    });
    expect(r.status).toBe(201);
    expect(r.headers['Content-Type']).toBe('application/json');
    expect(r.json).toMatchObject({
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { nonResourceAttributes: { path: '/logs', verb: 'get' } },
      status: { allowed: true },
    });
  });

  it('selfsubjectrulesreviews: `kubectl auth can-i --list` gets every verb on everything', async () => {
    const { status, obj } = await pbPost(`${AUTHZ}/selfsubjectrulesreviews`, hex(KUBECTL_CAN_I_LIST));
    expect(status).toBe(201);
    expect(obj.kind).toBe('SelfSubjectRulesReview');
    expect(obj.apiVersion).toBe('authorization.k8s.io/v1');
    expect(obj.spec).toEqual({ namespace: 'default' });
    expect(obj.status.resourceRules).toContainEqual(expect.objectContaining({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }));
    expect(obj.status.nonResourceRules).toContainEqual(expect.objectContaining({ verbs: ['*'], nonResourceURLs: ['*'] }));
    expect(obj.status.incomplete ?? false).toBe(false);
  });

  it('subjectaccessreviews: another user\'s access is allowed too', async () => {
    const spec = { user: 'bob', groups: ['dev'], resourceAttributes: { namespace: 'default', verb: 'delete', group: 'apps', resource: 'deployments' } };
    const r = await c.post(`${AUTHZ}/subjectaccessreviews`, { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ kind: 'SubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', spec });
    // kube's AlwaysAllow authorizer gives no reason: the status is `allowed` alone.
    expect(r.json.status).toEqual({ allowed: true });
  });

  it('localsubjectaccessreviews: namespaced, answers in the request namespace', async () => {
    const spec = { user: 'bob', resourceAttributes: { namespace: 'default', verb: 'list', resource: 'secrets' } };
    const r = await c.post(`${AUTHZ}/namespaces/default/localsubjectaccessreviews`, { apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', spec });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ kind: 'LocalSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: { namespace: 'default' }, spec, status: { allowed: true } });
  });

  it('localsubjectaccessreviews: an object namespace other than the path\'s is a 400', async () => {
    const r = await c.post(`${AUTHZ}/namespaces/default/localsubjectaccessreviews`, {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'LocalSubjectAccessReview',
      metadata: { namespace: 'other' },
      spec: { user: 'bob', resourceAttributes: { namespace: 'other', verb: 'get', resource: 'pods' } },
    });
    expect(failure(r)).toEqual({ code: 400, reason: 'BadRequest', message: 'the namespace of the provided object does not match the namespace sent on the request' });
  });

  it('a review of the wrong kind is a 400', async () => {
    const r = await c.post(`${AUTHZ}/selfsubjectaccessreviews`, { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: {} });
    expect(r.status).toBe(400);
    expect(failure(r).reason).toBe('BadRequest');
  });
});

describe('authentication.k8s.io/v1', () => {
  it('selfsubjectreviews: `kubectl auth whoami` is the admin in system:masters', async () => {
    const { status, obj } = await pbPost(`${AUTHN}/selfsubjectreviews`, hex(KUBECTL_WHOAMI));
    expect(status).toBe(201);
    expect(obj.kind).toBe('SelfSubjectReview');
    expect(obj.apiVersion).toBe('authentication.k8s.io/v1');
    expect(obj.status.userInfo.username).toBe('kubernetes-admin');
    expect(obj.status.userInfo.groups).toEqual(expect.arrayContaining(['system:masters', 'system:authenticated']));
  });

  it('tokenreviews answers a TokenReview with a status', async () => {
    const r = await c.post(`${AUTHN}/tokenreviews`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'abc.def' } });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ kind: 'TokenReview', apiVersion: 'authentication.k8s.io/v1', spec: { token: 'abc.def' } });
    expect(typeof r.json.status).toBe('object');
    expect(typeof r.json.status.authenticated).toBe('boolean');
  });
});

describe('serviceaccounts/<name>/token (TokenRequest)', () => {
  it('`kubectl create token builder` gets a token that expires in an hour', async () => {
    const before = Date.now();
    const { status, obj } = await pbPost(`${SA}/builder/token`, hex(KUBECTL_CREATE_TOKEN));
    expect(status).toBe(201);
    expect(obj).toMatchObject({ kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', metadata: { name: 'builder', namespace: 'default' } });
    expect(obj.spec.expirationSeconds).toBe(3600);
    expect(obj.spec.audiences.length).toBeGreaterThan(0);
    expect(obj.status.token).toMatch(/^[A-Za-z0-9._-]{20,}$/);
    const expires = Date.parse(obj.status.expirationTimestamp);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3599_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3601_000);
  });

  it('expirationSeconds and audiences from the request are honoured (JSON body)', async () => {
    const r = await c.post(`${SA}/builder/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 600, audiences: ['vault'] } });
    expect(r.status).toBe(201);
    expect(r.json.spec).toMatchObject({ expirationSeconds: 600, audiences: ['vault'] });
    const left = Date.parse(r.json.status.expirationTimestamp) - Date.now();
    expect(left).toBeGreaterThan(590_000);
    expect(left).toBeLessThanOrEqual(601_000);
  });

  it('two requests get different tokens', async () => {
    const a = (await pbPost(`${SA}/builder/token`, hex(KUBECTL_CREATE_TOKEN))).obj.status.token;
    const b = (await pbPost(`${SA}/builder/token`, hex(KUBECTL_CREATE_TOKEN))).obj.status.token;
    expect(a).not.toBe(b);
  });

  it('a missing service account is a 404 (a protobuf Status for kubectl)', async () => {
    const { status, obj } = await pbPost(`${SA}/nobody/token`, hex(KUBECTL_CREATE_TOKEN));
    expect(status).toBe(404);
    expect(obj).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404, message: 'serviceaccounts "nobody" not found' });
  });
});

describe('reviews are POST-only and never stored', () => {
  const notAllowed = { code: 405, reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' };
  const collections = [
    `${AUTHZ}/selfsubjectaccessreviews`,
    `${AUTHZ}/selfsubjectrulesreviews`,
    `${AUTHZ}/subjectaccessreviews`,
    `${AUTHZ}/namespaces/default/localsubjectaccessreviews`,
    `${AUTHN}/selfsubjectreviews`,
    `${AUTHN}/tokenreviews`,
  ];

  it.each(collections)('GET %s → 405', async (url) => {
    expect(failure(await c.get(url))).toEqual(notAllowed);
  });

  it('GET of a named review → 405', async () => {
    expect(failure(await c.get(`${AUTHZ}/selfsubjectaccessreviews/anything`))).toEqual(notAllowed);
  });

  it('GET on serviceaccounts/<name>/token → 405', async () => {
    expect(failure(await c.get(`${SA}/builder/token`))).toEqual(notAllowed);
  });

  it('DELETE on a review collection → 405', async () => {
    expect(failure(await c.del(`${AUTHN}/tokenreviews`))).toEqual(notAllowed);
  });

  it('a review with a name is answered, not stored: the same name can be posted again', async () => {
    const body = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', metadata: { name: 'same' }, spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } };
    expect((await c.post(`${AUTHZ}/selfsubjectaccessreviews`, body)).status).toBe(201);
    const again = await c.post(`${AUTHZ}/selfsubjectaccessreviews`, body);
    expect(again.status).toBe(201);
    expect(again.json.metadata.resourceVersion).toBeUndefined();
    expect(again.json.metadata.uid).toBeUndefined();
  });

  it('discovery lists the reviews with the create verb only', async () => {
    const authz = (await c.get(AUTHZ)).json.resources;
    const authn = (await c.get(AUTHN)).json.resources;
    const verbs = (list: any[], name: string) => list.find((r) => r.name === name)?.verbs;
    for (const name of ['selfsubjectaccessreviews', 'selfsubjectrulesreviews', 'subjectaccessreviews', 'localsubjectaccessreviews']) expect(verbs(authz, name)).toEqual(['create']);
    for (const name of ['selfsubjectreviews', 'tokenreviews']) expect(verbs(authn, name)).toEqual(['create']);
    expect(authz.find((r: any) => r.name === 'localsubjectaccessreviews').namespaced).toBe(true);
  });
});
