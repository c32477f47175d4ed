// Keeps the `default/kubernetes` Service, Endpoints and EndpointSlice there after start, as
// kube-apiserver's bootstrap controller and endpoint reconciler do (every 10 s in kube): a
// `kubectl delete all --all` in `default` deletes the Service, and the API server puts it back.
// Here it is put back as soon as the change is seen; the writes happen only when something
// differs, so the keeper's own writes end the loop.
import { objectKey } from '../../registry/catalog';
import type { RegistryContext } from '../../registry/context';
import { WorkQueue } from '../../registry/work-queue';
import type { StoreEvent, WatchHandle } from '../../storage/types';
import { ApiError } from '../../meta/status';
import { ensureKubernetesService } from '../../kinds/services';
import { bootstrapKubernetesEndpoints } from '../../kinds/kubernetes-endpoints';

export class KubernetesServiceKeeper {
  private readonly watches: WatchHandle[] = [];
  /** One key: the events of a burst collapse into one pass. */
  private readonly work: WorkQueue<void>;

  constructor(
    private readonly ctx: RegistryContext,
    private readonly serverAddress: string | undefined,
  ) {
    this.work = new WorkQueue(ctx, () => this.reconcile(), 5, 'kubernetes service keeper');
  }

  start(): void {
    if (this.watches.length) return;
    const keys = [
      ['', 'v1', 'services'],
      ['', 'v1', 'endpoints'],
      ['discovery.k8s.io', 'v1', 'endpointslices'],
    ].flatMap(([group, version, resource]) => {
      const r = this.ctx.catalog.lookup(group!, version!, resource!);
      return r ? [objectKey(r, 'default', 'kubernetes')] : [];
    });
    const rev = this.ctx.mvcc.revision;
    for (const key of keys) {
      // A prefix watch: `kubernetes-foo` shares the prefix, so the key is checked exactly.
      this.watches.push(this.ctx.mvcc.watch(key, rev, (ev: StoreEvent) => ev.key === key && this.work.add('kubernetes', undefined)));
    }
  }

  stop(): void {
    for (const w of this.watches.splice(0)) w.cancel();
  }

  private async reconcile(): Promise<'done' | 'retry'> {
    try {
      await ensureKubernetesService(this.ctx);
      await bootstrapKubernetesEndpoints(this.ctx, this.serverAddress);
      return 'done';
    } catch (err) {
      // Lost a race with a client's write: tried again.
      if (err instanceof ApiError && (err.code === 409 || err.code === 404)) return 'retry';
      throw err;
    }
  }
}
