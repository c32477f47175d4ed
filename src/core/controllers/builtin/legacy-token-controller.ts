// kube-controller-manager's tokens controller as v1.23 runs it (LegacyServiceAccountTokenNoAutoGeneration
// is off): every ServiceAccount gets a `<name>-token-xxxxx` Secret holding a legacy token, listed
// in its `secrets`; a deleted ServiceAccount takes its token Secrets along; a deleted token Secret
// is dropped from its ServiceAccount (which then gets a new one); a token Secret made by hand is
// filled in (token, namespace, ca.crt, uid annotation), or deleted when its ServiceAccount is
// missing. Like kube's, it creates the Secret first and then references it, deleting the Secret
// again when the reference cannot be added. No ownerReferences: the controller itself cleans up.
import type { RegistryContext } from '../../registry/context';
import { WorkQueue, type Outcome } from '../../registry/work-queue';
import { objectKey, type ServedResource } from '../../registry/catalog';
import { clone, randomSuffix, type Obj } from '../../registry/objects';
import { createObject, deleteObject, updateObject } from '../../registry/store';
import type { FieldOwner } from '../../registry/managed-fields';
import { ApiError } from '../../meta/status';
import type { StoreEvent, WatchHandle } from '../../storage/types';
import type { ServiceAccountTokens } from '../../auth/service-account-tokens';
import { clusterCaPem } from '../../auth/cluster-ca';
import type { Controller, ControllerContext } from '../controller';
import { SA_NAME_ANNOTATION, SA_UID_ANNOTATION, SERVICE_ACCOUNT_TOKEN_TYPE, legacyClaims, textToBase64 } from '../../auth/legacy-token-claims';

/** Its writes are kube-controller-manager's (an Update in managedFields). */
const OWNER: FieldOwner = { manager: 'kube-controller-manager' };
const UPDATE = { dryRun: false, subresource: '', allowCreate: false, checkName: false, owner: OWNER };
/** kube retries a key up to 10 times; here a retry is immediate, so fewer do. */
const MAX_ATTEMPTS = 5;
/** client-go's DefaultRetry (adding a reference) and RemoveTokenBackoff (removing one): steps on conflict. */
const ADD_REFERENCE_TRIES = 5;
const REMOVE_REFERENCE_TRIES = 10;
/** names.SimpleNameGenerator: the prefix is cut so that prefix + 5 characters fit in 63. */
const MAX_GENERATED_PREFIX = 58;

type Task = { kind: 'sa'; ns: string; name: string; uid: string } | { kind: 'secret'; ns: string; name: string; uid: string; saName: string; saUid: string };

/** A retryable failure (kube's `retry = true`). */
class Retry extends Error {}

export class LegacyTokenController implements Controller {
  readonly name = 'serviceaccount-token';
  private readonly watches: WatchHandle[] = [];
  // The server's store and token issuer, given at the first start.
  private ctx!: RegistryContext;
  private tokens!: ServiceAccountTokens;
  private work?: WorkQueue<Task>;

  /** Checks every ServiceAccount and token Secret, then follows both. */
  async start(context: ControllerContext): Promise<void> {
    if (this.watches.length) return;
    this.ctx = context.server.registry;
    this.tokens = context.server.serviceAccountTokens;
    const work = (this.work ??= new WorkQueue(this.ctx, (task) => this.process(task), MAX_ATTEMPTS, 'tokens controller'));
    for (const r of [this.resource('serviceaccounts'), this.resource('secrets')]) {
      const { kvs, rev } = await this.ctx.mvcc.range(r.keyPrefix);
      for (const kv of kvs) this.observe(r, kv.value);
      this.watches.push(this.ctx.mvcc.watch(r.keyPrefix, rev, (ev) => this.onEvent(r, ev)));
    }
    // The first pass finishes before start-up does, so what a fresh cluster writes is settled.
    await work.idle();
  }

  stop(): void {
    for (const w of this.watches.splice(0)) w.cancel();
    this.work?.clear();
  }

  /** The cluster CA published as `ca.crt` (none when empty); asked on every sync, so a new CA reaches the Secrets. */
  private caPem(): Promise<string> {
    return clusterCaPem(this.ctx);
  }

  private onEvent(r: ServedResource, ev: StoreEvent): void {
    const text = ev.type === 'put' ? ev.value : ev.prevValue;
    if (text !== undefined) this.observe(r, text);
  }

  /** Queues the object's key, as kube's informer handlers do (Secrets: token Secrets only). */
  private observe(r: ServedResource, text: string): void {
    const isSecret = r.info.resource === 'secrets';
    if (isSecret && !text.includes(SERVICE_ACCOUNT_TOKEN_TYPE)) return;
    const obj = JSON.parse(text) as Obj;
    const m = obj.metadata ?? {};
    const [ns, name, uid] = [String(m.namespace ?? ''), String(m.name ?? ''), String(m.uid ?? '')];
    if (!isSecret) {
      if (ns && name && uid) this.enqueue({ kind: 'sa', ns, name, uid });
      return;
    }
    if (obj.type !== SERVICE_ACCOUNT_TOKEN_TYPE) return;
    const saName = String(m.annotations?.[SA_NAME_ANNOTATION] ?? '');
    if (ns && name && uid && saName) this.enqueue({ kind: 'secret', ns, name, uid, saName, saUid: String(m.annotations?.[SA_UID_ANNOTATION] ?? '') });
  }

  private enqueue(task: Task): void {
    this.work?.add(JSON.stringify(task), task);
  }

  /** One key; a failed write or a lost race is retried (one key's failure never stops the others). */
  private async process(task: Task): Promise<Outcome> {
    try {
      if (task.kind === 'sa') await this.syncServiceAccount(task);
      else await this.syncSecret(task);
      return 'done';
    } catch (err) {
      if (err instanceof Retry || err instanceof ApiError) return 'retry';
      throw err;
    }
  }

  private async syncServiceAccount(t: Extract<Task, { kind: 'sa' }>): Promise<void> {
    const sa = await this.read('serviceaccounts', t.ns, t.name);
    if (sa && sa.metadata?.uid === t.uid) await this.ensureReferencedToken(sa);
    else await this.deleteTokens(t.ns, t.name, t.uid);
  }

  private async syncSecret(t: Extract<Task, { kind: 'secret' }>): Promise<void> {
    const stored = await this.read('secrets', t.ns, t.name);
    const secret = stored?.metadata?.uid === t.uid ? stored : undefined;
    const sa = await this.read('serviceaccounts', t.ns, t.saName);
    const account = sa && (!t.saUid || sa.metadata?.uid === t.saUid) ? sa : undefined;
    if (!secret) {
      // Gone: its service account must stop naming it.
      if (account) await this.removeSecretReference(t.ns, t.saName, t.saUid, t.name);
    } else if (!account) {
      await this.deleteToken(t.ns, t.name, t.uid);
    } else {
      await this.populateToken(account, secret);
    }
  }

  /** kube's IsServiceAccountToken: a token Secret naming the account, with its uid or none. */
  private async tokenSecrets(ns: string, saName: string, saUid: string): Promise<Obj[]> {
    const { kvs } = await this.ctx.mvcc.range(`${this.resource('secrets').keyPrefix}${ns}/`);
    const out: Obj[] = [];
    for (const kv of kvs) {
      if (!kv.value.includes(SERVICE_ACCOUNT_TOKEN_TYPE)) continue;
      const s = JSON.parse(kv.value) as Obj;
      const a = s.metadata?.annotations ?? {};
      if (s.type === SERVICE_ACCOUNT_TOKEN_TYPE && a[SA_NAME_ANNOTATION] === saName && (!a[SA_UID_ANNOTATION] || a[SA_UID_ANNOTATION] === saUid)) out.push(s);
    }
    return out;
  }

  private async hasReferencedToken(sa: Obj): Promise<boolean> {
    const refs = new Set((Array.isArray(sa.secrets) ? sa.secrets : []).map((s: Obj) => s?.name));
    if (!refs.size) return false;
    return (await this.tokenSecrets(sa.metadata.namespace, sa.metadata.name, sa.metadata.uid)).some((s) => refs.has(s.metadata?.name));
  }

  private async deleteTokens(ns: string, saName: string, saUid: string): Promise<void> {
    for (const s of await this.tokenSecrets(ns, saName, saUid)) await this.deleteToken(ns, s.metadata.name, s.metadata.uid);
  }

  /** Deletes with a uid precondition: gone already, or replaced by another object, needs nothing more. */
  private async deleteToken(ns: string, name: string, uid: string): Promise<void> {
    try {
      await deleteObject(this.ctx, this.resource('secrets'), ns, name, { dryRun: false, preconditions: uid ? { uid } : undefined });
    } catch (err) {
      if (err instanceof ApiError && (err.code === 404 || err.code === 409)) return;
      throw err;
    }
  }

  private async ensureReferencedToken(sa: Obj): Promise<void> {
    if (await this.hasReferencedToken(sa)) return;
    const { namespace: ns, name, uid } = sa.metadata;
    const secretName = `${`${name}-token-`.slice(0, MAX_GENERATED_PREFIX)}${randomSuffix()}`;
    const token = this.tokens.sign(legacyClaims({ namespace: ns, secretName, serviceAccountName: name, serviceAccountUid: uid }));
    const ca = await this.caPem();
    // Go writes map keys sorted; so are these.
    const data: Record<string, string> = {};
    if (ca) data['ca.crt'] = textToBase64(ca);
    data.namespace = textToBase64(ns);
    data.token = textToBase64(token);
    const secret = { metadata: { name: secretName, namespace: ns, annotations: { [SA_NAME_ANNOTATION]: name, [SA_UID_ANNOTATION]: uid } }, type: SERVICE_ACCOUNT_TOKEN_TYPE, data };
    let created: Obj;
    try {
      created = (await createObject(this.ctx, this.resource('secrets'), ns, secret, false, OWNER)).obj;
    } catch (err) {
      // A terminating (or vanished) namespace refuses every create: nothing to retry.
      if (err instanceof ApiError && (err.code === 404 || (err.code === 403 && err.message.includes('because it is being terminated')))) return;
      throw err;
    }
    let added = false;
    for (let i = 0; i < ADD_REFERENCE_TRIES && !added; i++) {
      const live = await this.read('serviceaccounts', ns, name);
      // Deleted, or replaced by another account of that name, or referencing a token by now.
      if (!live || live.metadata?.uid !== uid || (await this.hasReferencedToken(live))) break;
      const next = clone(live);
      next.secrets = [...(Array.isArray(live.secrets) ? live.secrets : []), { name: secretName }];
      try {
        await updateObject(this.ctx, this.resource('serviceaccounts'), ns, name, () => next, UPDATE);
        added = true;
      } catch (err) {
        if (err instanceof ApiError && err.code === 409) continue;
        if (err instanceof ApiError && err.code === 404) break;
        await this.deleteToken(ns, secretName, created.metadata.uid);
        throw err;
      }
    }
    if (!added) await this.deleteToken(ns, secretName, created.metadata.uid);
  }

  /** A token Secret missing its token, namespace or current CA gets them (and both annotations). */
  private async populateToken(sa: Obj, secret: Obj): Promise<void> {
    const ca = await this.caPem();
    const data: Record<string, string> = secret.data ?? {};
    const caData = ca ? textToBase64(ca) : '';
    const needsCa = !!ca && data['ca.crt'] !== caData;
    const needsNamespace = !data.namespace;
    const needsToken = !data.token;
    if (!needsCa && !needsNamespace && !needsToken) return;
    const { namespace: ns, name } = secret.metadata;
    const next = clone(secret);
    const nextData: Record<string, string> = { ...data };
    if (needsCa) nextData['ca.crt'] = caData;
    if (needsNamespace) nextData.namespace = textToBase64(ns);
    if (needsToken) nextData.token = textToBase64(this.tokens.sign(legacyClaims({ namespace: ns, secretName: name, serviceAccountName: sa.metadata.name, serviceAccountUid: sa.metadata.uid })));
    next.data = Object.fromEntries(Object.entries(nextData).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    next.metadata.annotations = { ...(secret.metadata.annotations ?? {}), [SA_NAME_ANNOTATION]: sa.metadata.name, [SA_UID_ANNOTATION]: sa.metadata.uid };
    try {
      // The read's resourceVersion rides along: a concurrent change wins, and its event brings us back.
      await updateObject(this.ctx, this.resource('secrets'), ns, name, () => next, UPDATE);
    } catch (err) {
      if (err instanceof ApiError && (err.code === 404 || err.code === 409)) return;
      throw err;
    }
  }

  private async removeSecretReference(ns: string, saName: string, saUid: string, secretName: string): Promise<void> {
    for (let i = 0; i < REMOVE_REFERENCE_TRIES; i++) {
      const sa = await this.read('serviceaccounts', ns, saName);
      if (!sa || (saUid && sa.metadata?.uid !== saUid)) return;
      const refs: Obj[] = Array.isArray(sa.secrets) ? sa.secrets : [];
      if (!refs.some((s) => s?.name === secretName)) return;
      const next = clone(sa);
      next.secrets = refs.filter((s) => s?.name !== secretName);
      // An empty list is left out, as Go's omitempty does.
      if (!next.secrets.length) delete next.secrets;
      try {
        await updateObject(this.ctx, this.resource('serviceaccounts'), ns, saName, () => next, UPDATE);
        return;
      } catch (err) {
        if (err instanceof ApiError && err.code === 404) return;
        if (!(err instanceof ApiError && err.code === 409)) throw err;
      }
    }
    throw new Retry(`could not remove the reference to secret ${ns}/${secretName} from service account ${saName}`);
  }

  private async read(resource: string, ns: string, name: string): Promise<Obj | undefined> {
    const kv = await this.ctx.mvcc.get(objectKey(this.resource(resource), ns, name));
    return kv ? (JSON.parse(kv.value) as Obj) : undefined;
  }

  private resource(name: string): ServedResource {
    const r = this.ctx.catalog.lookup('', 'v1', name);
    if (!r) throw new Error(`${name} are not served`);
    return r;
  }
}
