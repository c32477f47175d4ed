// Authentication of a request (k8s.io/apiserver/pkg/authentication): a verified TLS client
// certificate, else a bearer token from the static token file or a service-account token, else
// anonymous when allowed, else 401 — the order of kube-apiserver's union authenticator.
// Without any authenticator configured the server behaves like the old insecure port: every
// caller is the admin (system:masters), which is what the playground wants by default.
import type { ApiRequest, ClientCertificate } from '../meta/types';
import type { UserInfo } from './rbac/types';
import { ADMIN_USER } from './request-user';
import { ApiError } from '../meta/status';

/** One line of a `--token-auth-file`: token,user,uid,"group1,group2". */
export interface StaticToken {
  token: string;
  user: string;
  uid: string;
  groups: string[];
}

export interface AuthenticationOptions {
  /** Static bearer tokens. */
  tokens?: StaticToken[];
  /** Other bearer-token authenticators (service-account JWTs), tried after the static tokens. */
  tokenAuthenticators?: ((token: string) => UserInfo | undefined)[];
  /** Requests without credentials become system:anonymous instead of getting 401. */
  anonymous?: boolean;
}

export const ANONYMOUS_USER: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

/** The body kube-apiserver sends for any failed authentication (it never says why). */
export function unauthorized(): ApiError {
  return new ApiError(401, 'Unauthorized', 'Unauthorized');
}

/** Parses a token file: CSV lines, the groups column optionally quoted; blank lines skipped. */
export function parseTokenFile(text: string): StaticToken[] {
  const out: StaticToken[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    const cols = splitCsvLine(line);
    if (cols.length < 3) throw new Error(`token file line ${i + 1}: want token,user,uid[,"groups"]`);
    const [token, user, uid, groups = ''] = cols;
    if (!token || !user) throw new Error(`token file line ${i + 1}: token and user must not be empty`);
    out.push({ token, user, uid, groups: groups ? groups.split(',').map((g) => g.trim()).filter(Boolean) : [] });
  });
  return out;
}

function splitCsvLine(line: string): string[] {
  const cols: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      cols.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  cols.push(cur.trim());
  return cols;
}

/** Adds system:authenticated as kube's authenticator union does for every authenticated user. */
function authenticatedUser(u: UserInfo): UserInfo {
  return u.groups.includes('system:authenticated') ? u : { ...u, groups: [...u.groups, 'system:authenticated'] };
}

/** A function from request to user, or undefined when authentication is off (everyone is the admin). */
export function createAuthenticator(opts: AuthenticationOptions | undefined): (req: ApiRequest) => UserInfo {
  if (!opts) return () => ADMIN_USER;
  const byToken = new Map<string, UserInfo>();
  for (const t of opts.tokens ?? []) byToken.set(t.token, authenticatedUser({ username: t.user, uid: t.uid || undefined, groups: t.groups }));
  return (req) => {
    const cert = x509User(req.clientCertificate);
    if (cert.user) return authenticatedUser(cert.user);
    const header = req.headers['authorization'];
    if (header !== undefined) {
      const m = /^bearer\s+(\S+)\s*$/i.exec(header);
      // kube ignores other schemes (basic auth is gone) and treats the request as credential-less.
      if (m) {
        const token = m[1];
        const user = byToken.get(token) ?? firstMatch(opts.tokenAuthenticators ?? [], token);
        if (!user) throw unauthorized();
        return authenticatedUser(user);
      }
    }
    // The union's error (a certificate that does not verify) fails the request even when
    // anonymous is allowed: kube wraps the union and the anonymous authenticator fail-on-error.
    if (cert.failed) throw unauthorized();
    if (opts.anonymous) return ANONYMOUS_USER;
    throw unauthorized();
  };
}

/**
 * kube's x509 authenticator with CommonNameUserConversion: a verified certificate with a CN is a
 * user; an unverified one is an error the union remembers while it tries bearer tokens; a
 * verified one without CN (or no certificate) simply does not authenticate.
 */
export function x509User(cert: ClientCertificate | undefined): { user?: UserInfo; failed: boolean } {
  if (!cert) return { failed: false };
  if (!cert.verified) return { failed: true };
  if (!cert.commonName) return { failed: false };
  return { user: { username: cert.commonName, groups: [...cert.organizations] }, failed: false };
}

function firstMatch(authenticators: ((token: string) => UserInfo | undefined)[], token: string): UserInfo | undefined {
  for (const a of authenticators) {
    const u = a(token);
    if (u) return u;
  }
  return undefined;
}
