// kube-aggregator's available-condition controller: keeps the Available condition of every
// APIService current. A write of an APIService, or of the Service or Endpoints one names,
// queues that APIService; its verdict (apiservice-conditions.ts) is written to status only when
// it differs from the stored one, so a settled cluster costs no writes. Local APIServices get
// their condition on create already (the APIService strategy's PrepareForCreate), so they only
// come back here when a client rewrites their status.
import { NamespaceQueue } from '../../registry/namespace-queue';
import type { RegistryContext } from '../../registry/context';
import type { Obj } from '../../registry/objects';
import { updateObject } from '../../registry/store';
import type { StoreEvent, WatchHandle } from '../../storage/types';
import { apiServiceResource } from '../../kinds/apiservice-resource';
import { LOCAL_AVAILABLE, availabilityOf, sameVerdict, withAvailable, type ServedInProcess } from '../../kinds/apiservice-conditions';


function serviceKey(obj: Obj): string | undefined {
  const ref = obj.spec?.service;
  return ref ? `${ref.namespace ?? ''}/${ref.name ?? ''}` : undefined;
}

export class ApiServiceAvailability {
  private readonly watches: WatchHandle[] = [];
  /** The queue collapses a burst of events per APIService name into one check. */
  private readonly queue: NamespaceQueue;
  /** `namespace/name` of a Service → the APIServices naming it (kube keeps the same index). */
  private readonly byService = new Map<string, Set<string>>();
  /** APIService name → the Service it names, to update the index on change. */
  private readonly serviceOf = new Map<string, string>();
  /** `group/version` of each APIService last judged available (kube-aggregator's openapi controller follows these). */
  private readonly availableNow = new Map<string, string>();
  /** Bumped whenever that set changes, so what depends on it (`/openapi/v2`) knows to rebuild. */
  generation = 0;

  constructor(
    private readonly ctx: RegistryContext,
    /** Group/versions the simulated cluster's own backends serve (metrics-server's). */
    private readonly servedInProcess?: ServedInProcess,
  ) {
    this.queue = new NamespaceQueue(ctx, (name) => this.sync(name));
  }

  async start(): Promise<void> {
    const r = apiServiceResource(this.ctx);
    if (!r || this.watches.length) return;
    const { kvs, rev } = await this.ctx.mvcc.range(r.keyPrefix);
    for (const kv of kvs) this.observe(JSON.parse(kv.value) as Obj);
    this.watches.push(
      this.ctx.mvcc.watch(r.keyPrefix, rev, (ev) => {
        if (ev.type === 'put' && ev.value !== undefined) this.observe(JSON.parse(ev.value) as Obj);
        else {
          this.forget(ev.key.slice(r.keyPrefix.length));
          this.judged(ev.key.slice(r.keyPrefix.length), undefined);
        }
      }),
    );
    for (const resource of ['services', 'endpoints']) {
      const dep = this.ctx.catalog.versionsOf('', resource)[0];
      if (!dep) continue;
      this.watches.push(this.ctx.mvcc.watch(dep.keyPrefix, rev, (ev: StoreEvent) => this.touched(ev.key.slice(dep.keyPrefix.length))));
    }
  }

  stop(): void {
    for (const w of this.watches.splice(0)) w.cancel();
  }

  /** Indexes an APIService and queues it unless it is local and already says so. */
  private observe(obj: Obj): void {
    const name = String(obj.metadata?.name ?? '');
    this.forget(name);
    const key = serviceKey(obj);
    if (key) {
      this.serviceOf.set(name, key);
      const names = this.byService.get(key) ?? new Set<string>();
      names.add(name);
      this.byService.set(key, names);
    }
    if (key || !sameVerdict(obj.status, LOCAL_AVAILABLE)) this.queue.push(name);
  }

  private forget(name: string): void {
    const key = this.serviceOf.get(name);
    if (key === undefined) return;
    this.serviceOf.delete(name);
    const names = this.byService.get(key);
    names?.delete(name);
    if (names && names.size === 0) this.byService.delete(key);
  }

  /** Whether an APIService for `group/version` was last judged available. */
  isAvailable(group: string, version: string): boolean {
    for (const gv of this.availableNow.values()) if (gv === `${group}/${version}`) return true;
    return false;
  }

  private judged(name: string, availableAs: string | undefined): void {
    if (this.availableNow.get(name) === availableAs) return;
    if (availableAs === undefined) this.availableNow.delete(name);
    else this.availableNow.set(name, availableAs);
    this.generation++;
  }

  /** A Service or Endpoints object changed: check the APIServices that name it. */
  private touched(nsName: string): void {
    for (const name of this.byService.get(nsName) ?? []) this.queue.push(name);
  }

  /** Recomputes one APIService's verdict and writes it when it differs. */
  async sync(name: string): Promise<void> {
    const r = apiServiceResource(this.ctx);
    const kv = r && (await this.ctx.mvcc.get(`${r.keyPrefix}${name}`));
    if (!r || !kv) return this.judged(name, undefined);
    const obj = JSON.parse(kv.value) as Obj;
    const verdict = await availabilityOf(this.ctx, obj, this.servedInProcess);
    this.judged(name, verdict.status === 'True' ? `${obj.spec?.group ?? ''}/${obj.spec?.version ?? ''}` : undefined);
    try {
      await updateObject(
        this.ctx,
        r,
        '',
        name,
        (cur) => (sameVerdict(cur.status, verdict) ? cur : { ...cur, status: withAvailable(cur.status, verdict, this.ctx.now()) }),
        { dryRun: false, subresource: 'status', allowCreate: false, checkName: false },
      );
    } catch {
      // Deleted meanwhile, or the store is closing: the next event checks again.
    }
  }
}
