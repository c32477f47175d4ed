// kube-controller-manager's root-ca-cert-publisher (v1.23): every namespace gets a ConfigMap
// `kube-root-ca.crt` holding the cluster's CA certificate, which pods read (projected
// service-account volumes) to trust the API server. Like kube's controller it reacts to
// namespace adds, updates of Active namespaces, and updates or deletes of that ConfigMap, and
// writes only when `data` differs or the description annotation is missing: an edited ConfigMap
// is put back, a deleted one comes back. In a Terminating namespace the create is refused by
// NamespaceLifecycle and the publisher lets it be, so namespace deletion still finishes.
import { objectKey, type ServedResource } from '../../registry/catalog';
import { addAfterHooks, type RegistryContext } from '../../registry/context';
import { kindKey } from '../../registry/kind-spec';
import { WorkQueue } from '../../registry/work-queue';
import { createObject, updateObject } from '../../registry/store';
import { deepEqual, type Obj } from '../../registry/objects';
import type { FieldOwner } from '../../registry/managed-fields';
import type { StoreEvent, WatchHandle } from '../../storage/types';
import { ApiError } from '../../meta/status';
import { clusterCaPem } from '../../auth/cluster-ca';
import type { Controller, ControllerContext } from '../controller';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
/** The controller's Description constant in v1.23 (publisher.go), word for word. */
export const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';
/** kube-controller-manager writes with its own client: managedFields say so (operation Update). */
const OWNER: FieldOwner = { manager: 'kube-controller-manager' };
/** A create that lost to another writer (409) is tried again this many times, as kube's rate-limited requeue would. */
const MAX_ATTEMPTS = 5;

export class RootCaPublisher implements Controller {
  readonly name = 'root-ca-cert-publisher';
  private readonly watches: WatchHandle[] = [];
  // The server's store, given at the first start.
  private ctx!: RegistryContext;
  private work?: WorkQueue<string>;
  private pem = '';

  /** Loads the CA, publishes it in every namespace there is, then follows changes. */
  async start(context: ControllerContext): Promise<void> {
    if (this.watches.length) return; // already running
    this.ctx = context.server.registry;
    this.work ??= new WorkQueue(this.ctx, async (ns) => ((await this.sync(ns)) ? 'done' : 'retry'), MAX_ATTEMPTS, 'root CA publisher');
    this.pem = await clusterCaPem(this.ctx);
    const nsr = this.resource('namespaces');
    const cmr = this.resource('configmaps');
    const { kvs, rev } = await this.ctx.mvcc.range(nsr.keyPrefix);
    // The informers' initial list: every namespace is an add.
    for (const kv of kvs) await this.sync((JSON.parse(kv.value) as Obj).metadata?.name);
    this.watches.push(this.ctx.mvcc.watch(nsr.keyPrefix, rev, (ev) => this.onNamespace(ev)));
    this.watches.push(this.ctx.mvcc.watch(cmr.keyPrefix, rev, (ev) => this.onConfigMap(ev, cmr)));
    // A new namespace has its ConfigMap by the time its create is answered (like its `default`
    // ServiceAccount), so `kubectl create ns x && kubectl get cm -n x` and an import that creates
    // a namespace and then skips the objects that exist see it without a race.
    addAfterHooks(this.ctx, kindKey('', 'Namespace'), {
      afterCreate: async (_c, _r, obj) => {
        if (this.watches.length) await this.sync(obj.metadata?.name);
      },
    });
  }

  stop(): void {
    for (const w of this.watches.splice(0)) w.cancel();
    this.work?.clear();
  }

  private onNamespace(ev: StoreEvent): void {
    if (ev.type !== 'put' || ev.value === undefined) return;
    const ns = JSON.parse(ev.value) as Obj;
    // kube: every add; an update only while the namespace is Active.
    if (ev.prevValue === undefined || (ns.status?.phase === 'Active' && !ns.metadata?.deletionTimestamp)) this.enqueue(ns.metadata?.name);
  }

  private onConfigMap(ev: StoreEvent, cmr: ServedResource): void {
    // kube's handlers take updates and deletes of this one name (a create is the publisher's own).
    if (!ev.key.endsWith(`/${ROOT_CA_CONFIGMAP}`) || ev.prevValue === undefined) return;
    const ns = ev.key.slice(cmr.keyPrefix.length, -(ROOT_CA_CONFIGMAP.length + 1));
    if (!ns.includes('/')) this.enqueue(ns);
  }

  private enqueue(ns: unknown): void {
    if (typeof ns !== 'string' || !ns || !this.watches.length) return;
    this.work?.add(ns, ns);
  }

  /** kube's syncNamespace. False when a write lost a race and should be tried again. */
  private async sync(ns: unknown): Promise<boolean> {
    if (typeof ns !== 'string' || !ns || this.ctx.closed) return true;
    const cmr = this.resource('configmaps');
    const data = { 'ca.crt': this.pem };
    try {
      const kv = await this.ctx.mvcc.get(objectKey(cmr, ns, ROOT_CA_CONFIGMAP));
      if (!kv) {
        const cm = { metadata: { name: ROOT_CA_CONFIGMAP, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } }, data };
        await createObject(this.ctx, cmr, ns, cm, false, OWNER);
        return true;
      }
      if (this.current(JSON.parse(kv.value) as Obj, data)) return true;
      await updateObject(
        this.ctx,
        cmr,
        ns,
        ROOT_CA_CONFIGMAP,
        (cur) => {
          // Only data and the one annotation are set; other labels, annotations and binaryData stay.
          cur.data = { ...data };
          cur.metadata = { ...(cur.metadata ?? {}), annotations: { ...(cur.metadata?.annotations ?? {}), [DESCRIPTION_ANNOTATION]: DESCRIPTION } };
          return cur;
        },
        { dryRun: false, subresource: '', allowCreate: false, checkName: false, owner: OWNER },
      );
      return true;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // 404: the namespace (or the ConfigMap, mid-update) is gone; 403: the namespace is
      // terminating — kube does not retry either. 409: another writer won; look again.
      return err.code !== 409;
    }
  }

  /** kube compares data exactly and only asks that the annotation be non-empty. */
  private current(cm: Obj, data: Record<string, string>): boolean {
    return deepEqual(cm.data ?? {}, data) && !!cm.metadata?.annotations?.[DESCRIPTION_ANNOTATION];
  }

  private resource(name: string): ServedResource {
    const r = this.ctx.catalog.lookup('', 'v1', name);
    if (!r) throw new Error(`${name} are not served`);
    return r;
  }
}
