// API Priority and Fairness as clients see it: the bootstrap configuration (producer), a mirror
// of the stored FlowSchemas and PriorityLevelConfigurations kept by a store watch and by write
// hooks (so the request after a change is classified by it), the Dangling status of every
// FlowSchema (consumer), and the classification behind the X-Kubernetes-PF-* response headers.
// Nothing is queued or rejected: the playground has no concurrency to share out.
import type { RegistryContext, ResourceHooks } from '../registry/context';
import { addAfterHooks, runInBackground } from '../registry/context';
import { kindKey } from '../registry/kind-spec';
import type { ServedResource } from '../registry/catalog';
import type { Obj } from '../registry/objects';
import type { StoreEvent, WatchHandle } from '../storage/types';
import type { UserInfo } from '../auth/rbac/types';
import type { RequestInfo } from '../meta/requestinfo';
import type { ApiResponse } from '../meta/types';
import { ensureFlowControlConfiguration, flowcontrolResource, FLOWCONTROL_GROUP } from '../kinds/flowcontrol-bootstrap';
import { Classifier, type Classification } from './classifier';
import { danglingUpToDate, desiredDangling, writeDangling } from './dangling-status';

/** Go's canonical form of kube's X-Kubernetes-PF-FlowSchema-UID / -PriorityLevel-UID. */
export const FLOW_SCHEMA_UID_HEADER = 'X-Kubernetes-Pf-Flowschema-Uid';
export const PRIORITY_LEVEL_UID_HEADER = 'X-Kubernetes-Pf-Prioritylevel-Uid';

/** Subresources kube-apiserver serves as long-running requests, which APF lets through unclassified. */
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

type Kind = 'schemas' | 'levels';

export class FlowControl {
  private readonly schemas = new Map<string, Obj>();
  private readonly levels = new Map<string, Obj>();
  /** kind/name → modRev applied, so a late watch event never undoes a newer hook update. */
  private readonly applied = new Map<string, number>();
  private readonly classifier = new Classifier(this.schemas, this.levels);
  private readonly watches: WatchHandle[] = [];
  private started = false;
  private reconcileQueued = false;
  private reconcileDirty = false;

  constructor(private readonly ctx: RegistryContext) {}

  /** Creates the bootstrap objects, loads and watches the configuration, writes status. */
  async start(): Promise<void> {
    const fs = flowcontrolResource(this.ctx, 'flowschemas');
    const pl = flowcontrolResource(this.ctx, 'prioritylevelconfigurations');
    if (!fs || !pl) return;
    await ensureFlowControlConfiguration(this.ctx);
    for (const [kind, r] of [['levels', pl], ['schemas', fs]] as [Kind, ServedResource][]) {
      const { kvs, rev } = await this.ctx.mvcc.range(r.keyPrefix);
      for (const kv of kvs) this.apply(kind, kv.modRev, JSON.parse(kv.value) as Obj);
      this.watches.push(this.ctx.mvcc.watch(r.keyPrefix, rev, (ev) => this.onEvent(kind, ev)));
      const key = kindKey(FLOWCONTROL_GROUP, r.info.kind);
      addAfterHooks(this.ctx, key, this.hooksFor(kind));
    }
    this.started = true;
    await this.syncStatus(fs);
  }

  stop(): void {
    for (const w of this.watches.splice(0)) w.cancel();
  }

  /** The FlowSchema and priority level a request is classified into (undefined before start). */
  classify(user: UserInfo, info: RequestInfo): Classification | undefined {
    return this.started ? this.classifier.classify(user, info) : undefined;
  }

  /**
   * Adds the response headers kube's APF filter sets: on every request it classifies, exempt
   * ones included, watches included, but not the other long-running requests (exec, attach,
   * port-forward, proxy, log), which bypass the filter.
   */
  stamp(user: UserInfo | undefined, info: RequestInfo, res: ApiResponse): void {
    if (!user || !this.started) return;
    if (info.verb === 'proxy' || (info.isResourceRequest && LONG_RUNNING_SUBRESOURCES.has(info.subresource))) return;
    const c = this.classifier.classify(user, info);
    if (!c) return;
    res.headers[FLOW_SCHEMA_UID_HEADER] = c.flowSchemaUid;
    res.headers[PRIORITY_LEVEL_UID_HEADER] = c.priorityLevelUid;
  }

  private hooksFor(kind: Kind): ResourceHooks {
    const rev = (obj: Obj) => Number(obj.metadata?.resourceVersion ?? 0);
    return {
      afterCreate: (_ctx, _r, obj) => this.apply(kind, rev(obj), obj),
      afterUpdate: (_ctx, _r, obj) => this.apply(kind, rev(obj), obj),
      afterDelete: (_ctx, _r, obj) => this.forget(kind, Number.MAX_SAFE_INTEGER, obj),
    };
  }

  private onEvent(kind: Kind, ev: StoreEvent): void {
    if (ev.type === 'put' && ev.value !== undefined) this.apply(kind, ev.rev, JSON.parse(ev.value) as Obj);
    else if (ev.type === 'delete' && ev.prevValue !== undefined) this.forget(kind, ev.rev, JSON.parse(ev.prevValue) as Obj);
  }

  private apply(kind: Kind, modRev: number, obj: Obj): void {
    const name = obj.metadata?.name as string;
    const key = `${kind}/${name}`;
    if ((this.applied.get(key) ?? -1) > modRev) return;
    this.applied.set(key, modRev);
    this.mapOf(kind).set(name, obj);
    this.changed();
  }

  private forget(kind: Kind, rev: number, obj: Obj): void {
    const name = obj.metadata?.name as string;
    const key = `${kind}/${name}`;
    if ((this.applied.get(key) ?? -1) > rev) return;
    // A tombstone revision, so an older put delivered late cannot resurrect the object.
    this.applied.set(key, rev);
    this.mapOf(kind).delete(name);
    this.changed();
  }

  private mapOf(kind: Kind): Map<string, Obj> {
    return kind === 'schemas' ? this.schemas : this.levels;
  }

  private changed(): void {
    this.classifier.invalidate();
    if (this.started) this.queueReconcile();
  }

  /** Coalesces bursts of changes into one producer + status pass (re-run while more arrive). */
  private queueReconcile(): void {
    this.reconcileDirty = true;
    if (this.reconcileQueued || this.ctx.closed) return;
    this.reconcileQueued = true;
    runInBackground(this.ctx, async () => {
      try {
        while (this.reconcileDirty && !this.ctx.closed) {
          this.reconcileDirty = false;
          await ensureFlowControlConfiguration(this.ctx);
          const fs = flowcontrolResource(this.ctx, 'flowschemas');
          if (fs) await this.syncStatus(fs);
        }
      } finally {
        this.reconcileQueued = false;
      }
    });
  }

  /** Writes the Dangling condition of every FlowSchema whose stored one is out of date. */
  private async syncStatus(r: ServedResource): Promise<void> {
    const exists = (plName: string) => this.levels.has(plName);
    for (const fs of [...this.schemas.values()]) {
      const plName = String(fs.spec?.priorityLevelConfiguration?.name ?? '');
      if (danglingUpToDate(fs, desiredDangling(plName, exists(plName)))) continue;
      if (this.ctx.closed) return;
      await writeDangling(this.ctx, r, fs.metadata.name, exists);
    }
  }
}
