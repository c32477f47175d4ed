// kube-apiserver's legacy service-account token validator (with --service-account-lookup, the
// default): a token from a token Secret authenticates only while that Secret exists, is not being
// deleted and still holds this very token, and while its ServiceAccount exists with the uid the
// token names. Authentication is synchronous, so the tokens stored in Secrets are mirrored here
// (namespace/name → token); the service accounts are the token service's own mirror.
import { addAfterHooks, type RegistryContext } from '../registry/context';
import { kindKey } from '../registry/kind-spec';
import { objectKey, type ServedResource } from '../registry/catalog';
import type { Obj } from '../registry/objects';
import type { WatchHandle } from '../storage/types';
import type { UserInfo } from './rbac/types';
import { LEGACY_ISSUER, base64ToText, legacyIdentityOf } from './legacy-token-claims';
import type { ServiceAccountTokens } from './service-account-tokens';

interface Mirrored {
  /** The revision this entry reflects; older news (a late watch event) is ignored. */
  rev: number;
  /** The token the Secret holds; undefined once it is deleted (a tombstone against late events). */
  token?: string;
  deleting: boolean;
}

export class LegacyTokenValidator {
  private readonly secrets = new Map<string, Mirrored>();
  private watch: WatchHandle | undefined;

  constructor(
    private readonly ctx: RegistryContext,
    private readonly tokens: ServiceAccountTokens,
  ) {}

  /** Mirrors the Secrets that hold a token, follows them, and joins the token authenticator. */
  async start(): Promise<void> {
    if (this.watch) return;
    const r = this.resource();
    const { kvs, rev } = await this.ctx.mvcc.range(r.keyPrefix);
    for (const kv of kvs) this.put(kv.key, kv.modRev, kv.value);
    this.watch = this.ctx.mvcc.watch(r.keyPrefix, rev, (ev) => {
      if (ev.type === 'put') this.put(ev.key, ev.rev, ev.value ?? '');
      else this.remove(ev.key, ev.rev);
    });
    // The watch lags a little; the hooks make a request's own write count for the next request
    // (a deleted token Secret stops authenticating at once).
    const key = (obj: Obj) => objectKey(r, String(obj.metadata?.namespace), String(obj.metadata?.name));
    const rv = (obj: Obj) => Number(obj.metadata?.resourceVersion ?? 0);
    addAfterHooks(this.ctx, kindKey('', 'Secret'), {
      afterCreate: (_c, _r, obj) => this.putObject(key(obj), rv(obj), obj),
      afterUpdate: (_c, _r, obj) => this.putObject(key(obj), rv(obj), obj),
      // The deleted object carries its last revision; the delete itself came after it.
      afterDelete: (_c, _r, obj) => this.remove(key(obj), rv(obj) + 0.5),
    });
    this.tokens.addIssuer(LEGACY_ISSUER, (claims, token) => this.validate(claims, token));
  }

  stop(): void {
    this.watch?.cancel();
    this.watch = undefined;
  }

  /** The user of a legacy token whose signature and audience already checked out. */
  validate(claims: Record<string, unknown>, token: string): { user: UserInfo } | { error: string } {
    const id = legacyIdentityOf(claims);
    if ('error' in id) return id;
    const { namespace: ns, serviceAccountName: name } = id;
    const secret = this.secrets.get(objectKey(this.resource(), ns, id.secretName));
    if (secret?.token === undefined || secret.deleting) return { error: 'Token has been invalidated' };
    if (secret.token !== token) return { error: "Token does not match server's copy" };
    const uid = this.tokens.accountUid(ns, name);
    if (uid === undefined) return { error: `serviceaccounts "${name}" not found` };
    if (uid !== id.serviceAccountUid) return { error: `ServiceAccount UID (${uid}) does not match claim (${id.serviceAccountUid})` };
    return { user: { username: `system:serviceaccount:${ns}:${name}`, uid, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`] } };
  }

  private put(key: string, rev: number, text: string): void {
    // Most Secrets hold no token: a substring test spares parsing them.
    if (!text.includes('"token"') && !this.secrets.has(key)) return;
    this.putObject(key, rev, JSON.parse(text) as Obj);
  }

  private putObject(key: string, rev: number, obj: Obj): void {
    const cur = this.secrets.get(key);
    if (cur && cur.rev >= rev) return;
    const data = obj.data?.token;
    const token = typeof data === 'string' ? base64ToText(data) : undefined;
    if (token === undefined && !cur) return;
    this.secrets.set(key, { rev, token, deleting: !!obj.metadata?.deletionTimestamp });
  }

  private remove(key: string, rev: number): void {
    const cur = this.secrets.get(key);
    if (cur && cur.rev < rev) this.secrets.set(key, { rev, deleting: false });
  }

  private resource(): ServedResource {
    const r = this.ctx.catalog.lookup('', 'v1', 'secrets');
    if (!r) throw new Error('secrets are not served');
    return r;
  }
}
