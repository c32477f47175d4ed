import { describe, expect, it } from 'vitest';
import { ANONYMOUS_USER, createAuthenticator, parseTokenFile, x509User } from './authn';
import { impersonate } from './authn-impersonation';
import { ApiError } from '../meta/status';

const req = (headers: Record<string, string>) => ({ method: 'GET', url: '/api', headers });

describe('parseTokenFile', () => {
  it('reads token,user,uid,"groups" lines', () => {
    expect(parseTokenFile('t1,alice,u1,"dev,ops"\n\nt2,bob,u2\n')).toEqual([
      { token: 't1', user: 'alice', uid: 'u1', groups: ['dev', 'ops'] },
      { token: 't2', user: 'bob', uid: 'u2', groups: [] },
    ]);
  });
  it('rejects short lines', () => {
    expect(() => parseTokenFile('t1,alice')).toThrow(/line 1/);
  });
});

describe('createAuthenticator', () => {
  const authn = createAuthenticator({ tokens: [{ token: 't1', user: 'alice', uid: 'u1', groups: ['dev'] }] });
  it('maps a known bearer token to its user plus system:authenticated', () => {
    expect(authn(req({ authorization: 'Bearer t1' }))).toEqual({ username: 'alice', uid: 'u1', groups: ['dev', 'system:authenticated'] });
  });
  it('throws 401 for unknown tokens and missing credentials', () => {
    for (const h of [{ authorization: 'Bearer t2' }, {}] as Record<string, string>[]) {
      try {
        authn(req(h));
        throw new Error('not thrown');
      } catch (err) {
        expect(err).toBeInstanceOf(ApiError);
        expect((err as ApiError).toStatus()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
      }
    }
  });
  it('lets credential-less requests in as system:anonymous when enabled', () => {
    expect(createAuthenticator({ anonymous: true })(req({}))).toEqual(ANONYMOUS_USER);
  });
  it('without options everyone is the admin', () => {
    expect(createAuthenticator(undefined)(req({})).groups).toContain('system:masters');
  });
});

describe('impersonate', () => {
  const admin = { username: 'root', groups: ['system:masters'] };
  const seen: string[] = [];
  const allowAll = (_u: unknown, a: any) => {
    seen.push(`${a.resource}${a.subresource ? '/' + a.subresource : ''}:${a.name}:${a.namespace ?? ''}`);
    return { allowed: true, reason: '' };
  };
  it('checks every impersonated part and builds the user', () => {
    seen.length = 0;
    const u = impersonate(req({ 'impersonate-user': 'alice', 'impersonate-group': 'dev, ops', 'impersonate-uid': 'x1', 'impersonate-extra-scopes': 'a' }), admin, allowAll);
    expect(u).toEqual({ username: 'alice', uid: 'x1', groups: ['dev', 'ops', 'system:authenticated'], extra: { scopes: ['a'] } });
    expect(seen).toEqual(['users:alice:', 'groups:dev:', 'groups:ops:', 'uids:x1:', 'userextras/scopes:a:']);
  });
  it('gives an impersonated service account its groups', () => {
    seen.length = 0;
    const u = impersonate(req({ 'impersonate-user': 'system:serviceaccount:ns1:sa' }), admin, allowAll);
    expect(u.groups).toEqual(['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated']);
    expect(seen).toEqual(['serviceaccounts:sa:ns1']);
  });
  it('refuses with the Forbidden wording', () => {
    expect(() => impersonate(req({ 'impersonate-user': 'alice', 'impersonate-group': 'g' }), admin, (_u, a: any) => ({ allowed: a.resource === 'users', reason: '' }))).toThrow(
      'groups "g" is forbidden: User "root" cannot impersonate resource "groups" in API group "" at the cluster scope',
    );
  });
  it('returns the requester when nothing is impersonated', () => {
    expect(impersonate(req({}), admin, allowAll)).toBe(admin);
  });
});

describe('x509 client certificates', () => {
  const authn = createAuthenticator({ tokens: [{ token: 't1', user: 'alice', uid: 'u1', groups: [] }] });
  const withCert = (verified: boolean, commonName: string, organizations: string[], headers: Record<string, string> = {}) => ({ ...req(headers), clientCertificate: { verified, commonName, organizations } });
  const status401 = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };
  const statusOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return (err as ApiError).toStatus();
    }
    throw new Error('not thrown');
  };

  it('maps CN to the user and each O to a group, plus system:authenticated', () => {
    expect(authn(withCert(true, 'carol', ['devs', 'ops']))).toEqual({ username: 'carol', groups: ['devs', 'ops', 'system:authenticated'] });
  });
  it('is tried before bearer tokens', () => {
    expect(authn(withCert(true, 'carol', [], { authorization: 'Bearer t1' })).username).toBe('carol');
  });
  it('a certificate that does not verify is 401 unless a bearer token authenticates', () => {
    expect(statusOf(() => authn(withCert(false, 'carol', ['system:masters'])))).toEqual(status401);
    expect(authn(withCert(false, 'carol', [], { authorization: 'Bearer t1' })).username).toBe('alice');
  });
  it('a certificate that does not verify is 401 even when anonymous requests are allowed', () => {
    const anon = createAuthenticator({ anonymous: true });
    expect(statusOf(() => anon(withCert(false, 'carol', [])))).toEqual(status401);
  });
  it('a verified certificate without CN does not authenticate: the next authenticator decides', () => {
    expect(createAuthenticator({ anonymous: true })(withCert(true, '', ['devs']))).toEqual(ANONYMOUS_USER);
    expect(statusOf(() => authn(withCert(true, '', ['devs'])))).toEqual(status401);
  });
  it('x509User reports failure only for unverified certificates', () => {
    expect(x509User(undefined)).toEqual({ failed: false });
    expect(x509User({ verified: false, commonName: 'x', organizations: [] })).toEqual({ failed: true });
    expect(x509User({ verified: true, commonName: 'x', organizations: ['o'] })).toEqual({ user: { username: 'x', groups: ['o'] }, failed: false });
  });
});
