// Keeps PodDisruptionBudget status current (kube's disruption controller): any change to a pod
// or a budget queues its namespace, and each queued namespace gets every budget's status
// recomputed and written when it differs. Eviction does not depend on this (it recomputes inside
// its own write); this is what `kubectl get pdb` shows.
import { NamespaceQueue } from '../../registry/namespace-queue';
import type { RegistryContext } from '../../registry/context';
import type { Obj } from '../../registry/objects';
import { updateObject } from '../../registry/store';
import type { StoreEvent, WatchHandle } from '../../storage/types';
import { deepEqual } from '../../registry/objects';
import { computePdbStatus } from '../../kinds/pdb-status';
import { namespaceObjects, pdbResource } from '../../kinds/pdb-eviction';
import type { Controller, ControllerContext } from '../controller';

export class PdbStatusController implements Controller {
  readonly name = 'disruption';
  private readonly watches: WatchHandle[] = [];
  // The server's store, given at the first start.
  private ctx!: RegistryContext;
  private namespaces?: NamespaceQueue;

  async start(context: ControllerContext): Promise<void> {
    this.ctx = context.server.registry;
    const namespaces = (this.namespaces ??= new NamespaceQueue(this.ctx, (ns) => this.sync(ns)));
    const pdbs = pdbResource(this.ctx);
    const pods = this.ctx.catalog.lookup('', 'v1', 'pods');
    if (!pdbs || !pods || this.watches.length) return;
    const { kvs, rev } = await this.ctx.mvcc.range(pdbs.keyPrefix);
    for (const kv of kvs) namespaces.push((JSON.parse(kv.value) as Obj).metadata?.namespace);
    const onEvent = (prefix: string) => (ev: StoreEvent) => namespaces.push(ev.key.slice(prefix.length, ev.key.indexOf('/', prefix.length)));
    this.watches.push(this.ctx.mvcc.watch(pdbs.keyPrefix, rev, onEvent(pdbs.keyPrefix)));
    // A pod change matters only to a namespace with a budget (kube's disruption controller syncs
    // the budgets selecting the pod); the key index says whether there is one without a read. A
    // budget created later queues its namespace through its own event, and sees every pod then.
    this.watches.push(
      this.ctx.mvcc.watch(pods.keyPrefix, rev, (ev) => {
        const ns = ev.key.slice(pods.keyPrefix.length, ev.key.indexOf('/', pods.keyPrefix.length));
        if (this.ctx.mvcc.count(`${pdbs.keyPrefix}${ns}/`) > 0) namespaces.push(ns);
      }),
    );
  }

  stop(): void {
    for (const w of this.watches.splice(0)) w.cancel();
  }


  /** Writes the recomputed status of every budget in the namespace that changed. */
  async sync(ns: string): Promise<void> {
    const pdbs = pdbResource(this.ctx);
    const podsR = this.ctx.catalog.lookup('', 'v1', 'pods');
    if (!pdbs || !podsR) return;
    if (this.ctx.mvcc.count(`${pdbs.keyPrefix}${ns}/`) === 0) return;
    const budgets = await namespaceObjects(this.ctx, pdbs, ns);
    if (!budgets.length) return;
    const pods = await namespaceObjects(this.ctx, podsR, ns);
    for (const pdb of budgets) {
      if (pdb.metadata?.deletionTimestamp) continue;
      const status = computePdbStatus(pdb, pods, this.ctx.now());
      if (deepEqual(status, pdb.status ?? {})) continue;
      try {
        await updateObject(this.ctx, pdbs, ns, pdb.metadata.name, (cur) => ({ ...cur, status: computePdbStatus(cur, pods, this.ctx.now()) }), {
          dryRun: false,
          subresource: 'status',
          allowCreate: false,
          checkName: false,
        });
      } catch {
        // Deleted meanwhile, or the store is closing: the next event tries again.
      }
    }
  }
}
