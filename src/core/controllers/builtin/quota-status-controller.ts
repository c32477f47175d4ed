// kube-controller-manager's resourcequota controller: keeps status.hard and status.used of every
// quota current. Any write of a counted resource or of a quota queues its namespace; a queued
// namespace gets each quota's usage recounted from the stored objects (as the ResourceQuota
// admission plug-in counts it) and written when it differs.
import type { RegistryContext } from '../../registry/context';
import { NamespaceQueue } from '../../registry/namespace-queue';
import { deepEqual, type Obj } from '../../registry/objects';
import { updateObject } from '../../registry/store';
import type { StoreEvent, WatchHandle } from '../../storage/types';
import { formatQuantity } from '../../validation/quantity';
import { COUNTED } from '../../admission/quota-usage';
import { listNs, namespaceUsage, served } from '../../admission/resource-quota';
import type { Controller, ControllerContext } from '../controller';

export class QuotaStatusController implements Controller {
  readonly name = 'resourcequota';
  private readonly watches: WatchHandle[] = [];
  // The server's store, given at the first start.
  private ctx!: RegistryContext;
  private namespaces?: NamespaceQueue;

  async start(context: ControllerContext): Promise<void> {
    this.ctx = context.server.registry;
    const namespaces = (this.namespaces ??= new NamespaceQueue(this.ctx, (ns) => this.sync(ns)));
    const quotas = served(this.ctx, '/resourcequotas');
    if (!quotas || this.watches.length) return;
    const { kvs, rev } = await this.ctx.mvcc.range(quotas.keyPrefix);
    for (const kv of kvs) namespaces.push((JSON.parse(kv.value) as Obj).metadata?.namespace);
    for (const key of Object.keys(COUNTED)) {
      const r = served(this.ctx, key);
      if (!r) continue;
      // Most namespaces have no quota, which the key index says without queueing a pass; a quota
      // created later queues its namespace through its own event and counts everything then.
      this.watches.push(
        this.ctx.mvcc.watch(r.keyPrefix, rev, (ev: StoreEvent) => {
          const ns = ev.key.slice(r.keyPrefix.length, ev.key.indexOf('/', r.keyPrefix.length));
          if (r.keyPrefix === quotas.keyPrefix || this.ctx.mvcc.count(`${quotas.keyPrefix}${ns}/`) > 0) namespaces.push(ns);
        }),
      );
    }
  }

  stop(): void {
    for (const w of this.watches.splice(0)) w.cancel();
  }

  async sync(ns: string): Promise<void> {
    const quotas = served(this.ctx, '/resourcequotas');
    if (!quotas) return;
    // Every counted write lands here; most namespaces have no quota, which the index says without a read.
    if (this.ctx.mvcc.count(`${quotas.keyPrefix}${ns}/`) === 0) return;
    for (const quota of await listNs(this.ctx, quotas, ns)) {
      if (quota.metadata?.deletionTimestamp) continue;
      const hard: Record<string, unknown> = quota.spec?.hard ?? {};
      const used = await namespaceUsage(this.ctx, ns, new Set(Object.keys(hard)));
      const status = { hard: { ...hard }, used: Object.fromEntries([...used].map(([k, q]) => [k, formatQuantity(q)])) };
      if (deepEqual(status, quota.status ?? {})) continue;
      try {
        await updateObject(this.ctx, quotas, ns, quota.metadata.name, (cur) => ({ ...cur, status }), { dryRun: false, subresource: 'status', allowCreate: false, checkName: false });
      } catch {
        // Deleted meanwhile or closing: the next event tries again.
      }
    }
  }
}
