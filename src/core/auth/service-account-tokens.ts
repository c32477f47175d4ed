// Service-account tokens signed by this server (kube-apiserver's serviceaccount JWT issuer and
// authenticator). The HS256 key is per cluster and lives in storage (a Secret in kube-system made
// at bootstrap), so tokens survive a restart of a persisted cluster. Authentication is synchronous
// in the access path, so the existing service accounts (namespace/name → uid) are mirrored here.
import { addAfterHooks, type RegistryContext } from '../registry/context';
import { kindKey } from '../registry/kind-spec';
import { objectKey, type ServedResource } from '../registry/catalog';
import { newUid, type Obj } from '../registry/objects';
import { createObject } from '../registry/store';
import type { WatchHandle } from '../storage/types';
import type { StaticToken } from './authn';
import type { UserInfo } from './rbac/types';
import { base64UrlDecode, signHs256, verifyHs256 } from './jwt-hs256';

/** The issuer and default audience, as kube-apiserver's --service-account-issuer in kubeadm clusters. */
export const TOKEN_ISSUER = 'https://kubernetes.default.svc.cluster.local';
export const SIGNING_KEY_SECRET = 'kube-playground-service-account-signing-key';
const KEY_ID = 'kube-playground';

/** An object the token is bound to (TokenRequest spec.boundObjectRef). */
export interface BoundObject {
  kind: 'Pod' | 'Secret';
  name: string;
  uid: string;
}

/** Checks the claims of another issuer's tokens signed with this key (the legacy token Secrets'). */
export type IssuerValidator = (claims: Record<string, any>, token: string) => { user: UserInfo } | { error: string };

export type TokenReviewResult = { authenticated: true; user: UserInfo; audiences: string[] } | { authenticated: false; error?: string };

const SERVICES = Symbol('service account tokens');

/** The token service of this server, reachable from any (per-request) registry context. */
export function serviceAccountTokens(reg: RegistryContext): ServiceAccountTokens | undefined {
  return (reg as RegistryContext & { [SERVICES]?: ServiceAccountTokens })[SERVICES];
}

export class ServiceAccountTokens {
  private key: Uint8Array | undefined;
  private readonly accounts = new Map<string, string>();
  private watch: WatchHandle | undefined;
  private readonly staticUsers = new Map<string, UserInfo>();
  private readonly issuers = new Map<string, IssuerValidator>();

  constructor(
    private readonly ctx: RegistryContext,
    staticTokens: StaticToken[] = [],
  ) {
    (ctx as RegistryContext & { [SERVICES]?: ServiceAccountTokens })[SERVICES] = this;
    for (const t of staticTokens) this.staticUsers.set(t.token, { username: t.user, uid: t.uid || undefined, groups: t.groups });
  }

  /** Loads (or creates) the signing key, mirrors the service accounts and follows their changes. */
  async start(): Promise<void> {
    if (this.watch) return; // a retried bootstrap
    this.key = await this.loadOrCreateKey();
    const sas = this.resource('serviceaccounts');
    const { kvs, rev } = await this.ctx.mvcc.range(sas.keyPrefix);
    for (const kv of kvs) this.remember(JSON.parse(kv.value) as Obj);
    this.watch = this.ctx.mvcc.watch(sas.keyPrefix, rev, (ev) => {
      if (ev.type === 'put' && ev.value !== undefined) this.remember(JSON.parse(ev.value) as Obj);
      else if (ev.type === 'delete' && ev.prevValue !== undefined) this.forget(JSON.parse(ev.prevValue) as Obj);
    });
    // The watch lags a little; the hooks make a request's own create/delete visible to the next one.
    addAfterHooks(this.ctx, kindKey('', 'ServiceAccount'), {
      afterCreate: (_c, _r, obj) => this.remember(obj),
      afterUpdate: (_c, _r, obj) => this.remember(obj),
      afterDelete: (_c, _r, obj) => this.forget(obj),
    });
  }

  stop(): void {
    this.watch?.cancel();
  }

  /** Accepts tokens of another issuer signed with this key; `validate` checks their claims. */
  addIssuer(iss: string, validate: IssuerValidator): void {
    this.issuers.set(iss, validate);
  }

  /** Signs claims with the cluster key (the tokens controller's legacy tokens). */
  sign(claims: Record<string, unknown>): string {
    return signHs256(this.signingKey(), KEY_ID, claims);
  }

  /** The uid of a service account that exists and is not being deleted. */
  accountUid(namespace: string, name: string): string | undefined {
    return this.accounts.get(`${namespace}/${name}`);
  }

  /** A signed token with kube's claims, in kube's claim order. */
  issue(namespace: string, sa: { name: string; uid: string }, audiences: string[], nowMs: number, seconds: number, bound?: BoundObject): string {
    const iat = Math.floor(nowMs / 1000);
    const kube: Record<string, unknown> = { namespace };
    if (bound?.kind === 'Pod') kube.pod = { name: bound.name, uid: bound.uid };
    if (bound?.kind === 'Secret') kube.secret = { name: bound.name, uid: bound.uid };
    kube.serviceaccount = { name: sa.name, uid: sa.uid };
    // jti (as kube 1.29+ adds) keeps two tokens issued in the same second for the same account apart.
    const claims = { aud: audiences, exp: iat + seconds, iat, iss: TOKEN_ISSUER, jti: newUid(), 'kubernetes.io': kube, nbf: iat, sub: `system:serviceaccount:${namespace}:${sa.name}` };
    return signHs256(this.signingKey(), KEY_ID, claims);
  }

  /** The bearer-token authenticator: the user of a valid token, else undefined (→ 401). */
  readonly authenticate = (token: string): UserInfo | undefined => {
    const r = this.verify(token, [TOKEN_ISSUER], this.ctx.now());
    return r && 'user' in r ? r.user : undefined;
  };

  /** What TokenReview reports: static tokens and service-account tokens, as kube's authenticator union. */
  review(token: string, audiences: string[] | undefined, nowMs: number): TokenReviewResult {
    const wanted = audiences?.length ? audiences : [TOKEN_ISSUER];
    const fixed = this.staticUsers.get(token);
    if (fixed) return { authenticated: true, user: withAuthenticated(fixed), audiences: wanted };
    const r = this.verify(token, wanted, nowMs);
    if (!r) return { authenticated: false, error: 'invalid bearer token' };
    if ('error' in r) return { authenticated: false, error: `[invalid bearer token, ${r.error}]` };
    return { authenticated: true, user: withAuthenticated(r.user), audiences: r.audiences };
  }

  private verify(token: string, wanted: string[], nowMs: number): { user: UserInfo; audiences: string[] } | { error: string } | undefined {
    const v = verifyHs256(this.signingKey(), token);
    if (!v || 'error' in v) return v;
    const c = v.claims as Record<string, any>;
    const other = c.iss === TOKEN_ISSUER ? undefined : this.issuers.get(c.iss);
    if (c.iss !== TOKEN_ISSUER && !other) return undefined;
    const now = Math.floor(nowMs / 1000);
    if (typeof c.exp === 'number' && now > c.exp) return { error: 'Token has expired.' };
    if (typeof c.nbf === 'number' && now < c.nbf) return { error: 'Token is not valid yet.' };
    const claimed: string[] = Array.isArray(c.aud) ? c.aud : typeof c.aud === 'string' ? [c.aud] : [];
    // kube's implicit audiences: a token without any (a legacy one) is for the API server only.
    const tokenAud = claimed.length ? claimed : [TOKEN_ISSUER];
    const audiences = wanted.filter((a) => tokenAud.includes(a));
    if (!audiences.length) return { error: `token audiences ${goQuoted(tokenAud)} is invalid for the target audiences ${goQuoted(wanted)}` };
    if (other) {
      const r = other(c, token);
      return 'error' in r ? r : { user: r.user, audiences };
    }
    const kube = c['kubernetes.io'] ?? {};
    const ns = String(kube.namespace ?? '');
    const sa = kube.serviceaccount ?? {};
    // A deleted (or deleted and re-created) service account invalidates its tokens.
    if (!ns || !sa.name || this.accounts.get(`${ns}/${sa.name}`) !== sa.uid) return { error: 'Token has been invalidated' };
    const user: UserInfo = { username: `system:serviceaccount:${ns}:${sa.name}`, uid: String(sa.uid), groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`] };
    if (kube.pod?.name) user.extra = { 'authentication.kubernetes.io/pod-name': [String(kube.pod.name)], 'authentication.kubernetes.io/pod-uid': [String(kube.pod.uid ?? '')] };
    return { user, audiences };
  }

  private signingKey(): Uint8Array {
    if (!this.key) throw new Error('service account tokens are not ready: the signing key is not loaded yet');
    return this.key;
  }

  private remember(sa: Obj): void {
    const m = sa.metadata ?? {};
    if (m.deletionTimestamp) this.accounts.delete(`${m.namespace}/${m.name}`);
    else this.accounts.set(`${m.namespace}/${m.name}`, String(m.uid ?? ''));
  }

  private forget(sa: Obj): void {
    const m = sa.metadata ?? {};
    if (this.accounts.get(`${m.namespace}/${m.name}`) === m.uid) this.accounts.delete(`${m.namespace}/${m.name}`);
  }

  private resource(name: string): ServedResource {
    const r = this.ctx.catalog.lookup('', 'v1', name);
    if (!r) throw new Error(`${name} are not served`);
    return r;
  }

  /** Reads the key Secret, or makes one with 32 random bytes. */
  private async loadOrCreateKey(): Promise<Uint8Array> {
    const secrets = this.resource('secrets');
    const read = async () => {
      const kv = await this.ctx.mvcc.get(objectKey(secrets, 'kube-system', SIGNING_KEY_SECRET));
      const data = kv ? (JSON.parse(kv.value) as Obj).data?.key : undefined;
      return typeof data === 'string' ? base64ToBytes(data) : undefined;
    };
    const have = await read();
    if (have?.length) return have;
    const key = crypto.getRandomValues(new Uint8Array(32));
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: SIGNING_KEY_SECRET, namespace: 'kube-system' },
      type: 'Opaque',
      data: { key: bytesToBase64(key) },
    };
    await createObject(this.ctx, secrets, 'kube-system', secret, false);
    return key;
  }
}

function withAuthenticated(u: UserInfo): UserInfo {
  return u.groups.includes('system:authenticated') ? u : { ...u, groups: [...u.groups, 'system:authenticated'] };
}

/** Go's %q of a []string: ["a" "b"]. */
function goQuoted(list: string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

function bytesToBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function base64ToBytes(text: string): Uint8Array | undefined {
  return base64UrlDecode(text.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'));
}
