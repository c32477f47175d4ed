// Keeps the RBAC authorizer in step with the stored Roles, ClusterRoles and bindings: a store
// watch catches every change (including namespace cleanup), and write hooks apply a request's
// own change before its response is sent, so the next request already sees it. Also runs the
// ClusterRole aggregation controller and the escalation checks of role and binding writes.
import type { RegistryContext, ResourceHooks } from '../registry/context';
import { runInBackground } from '../registry/context';
import { kindKey } from '../registry/kind-spec';
import type { ServedResource } from '../registry/catalog';
import type { Obj } from '../registry/objects';
import { updateObject } from '../registry/store';
import type { StoreEvent, WatchHandle } from '../storage/types';
import { RbacAuthorizer, type RbacKind, type RbacObject } from './rbac';
import { aggregatedRules, rulesEqual } from './rbac/aggregation';
import { RBAC_GROUP, type ClusterRole } from './rbac/types';
import { escalationHooks } from './rbac-escalation-hooks';

const KINDS: Record<string, RbacKind> = {
  roles: 'Role',
  clusterroles: 'ClusterRole',
  rolebindings: 'RoleBinding',
  clusterrolebindings: 'ClusterRoleBinding',
};

function served(ctx: RegistryContext, resource: string): ServedResource {
  const r = ctx.catalog.lookup(RBAC_GROUP, 'v1', resource);
  if (!r) throw new Error(`rbac resource ${resource} is not served`);
  return r;
}

export class RbacStoreSync {
  /** storage key → modRev applied, so a late watch event never undoes a newer hook update. */
  private readonly applied = new Map<string, number>();
  private readonly clusterRoles = new Map<string, ClusterRole>();
  private readonly watches: WatchHandle[] = [];
  private aggregationQueued = false;
  private aggregationDirty = false;

  constructor(
    private readonly ctx: RegistryContext,
    readonly authorizer: RbacAuthorizer,
  ) {}

  /** Loads what is stored, starts the watches and registers the write hooks. */
  async start(): Promise<void> {
    for (const [resource, kind] of Object.entries(KINDS)) {
      const r = served(this.ctx, resource);
      const { kvs, rev } = await this.ctx.mvcc.range(r.keyPrefix);
      for (const kv of kvs) this.apply(kind, kv.key, kv.modRev, JSON.parse(kv.value) as Obj);
      this.watches.push(this.ctx.mvcc.watch(r.keyPrefix, rev, (ev) => this.onEvent(kind, ev)));
      this.ctx.hooks.add(kindKey(RBAC_GROUP, kind), this.hooksFor(kind, r));
    }
    this.queueAggregation();
  }

  stop(): void {
    for (const w of this.watches.splice(0)) w.cancel();
  }

  private hooksFor(kind: RbacKind, r: ServedResource): ResourceHooks {
    const key = (obj: Obj) => `${r.keyPrefix}${obj.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata?.name}`;
    const rev = (obj: Obj) => Number(obj.metadata?.resourceVersion ?? 0);
    return {
      ...escalationHooks(kind),
      afterCreate: (_ctx, _r, obj) => this.apply(kind, key(obj), rev(obj), obj),
      afterUpdate: (_ctx, _r, obj) => this.apply(kind, key(obj), rev(obj), obj),
      afterDelete: (_ctx, _r, obj) => this.forget(kind, key(obj), Number.MAX_SAFE_INTEGER, obj),
    };
  }

  private onEvent(kind: RbacKind, ev: StoreEvent): void {
    if (ev.type === 'put' && ev.value !== undefined) this.apply(kind, ev.key, ev.rev, JSON.parse(ev.value) as Obj);
    else if (ev.type === 'delete' && ev.prevValue !== undefined) this.forget(kind, ev.key, ev.rev, JSON.parse(ev.prevValue) as Obj);
  }

  private apply(kind: RbacKind, key: string, modRev: number, obj: Obj): void {
    if ((this.applied.get(key) ?? -1) > modRev) return;
    this.applied.set(key, modRev);
    this.authorizer.upsert({ ...obj, kind } as RbacObject);
    if (kind === 'ClusterRole') {
      this.clusterRoles.set(obj.metadata.name, obj as ClusterRole);
      this.queueAggregation();
    }
  }

  private forget(kind: RbacKind, key: string, rev: number, obj: Obj): void {
    if ((this.applied.get(key) ?? -1) > rev) return;
    // Keep a tombstone revision so an older put delivered late cannot resurrect the object.
    this.applied.set(key, rev);
    this.authorizer.remove(kind, obj.metadata.name, obj.metadata.namespace ?? '');
    if (kind === 'ClusterRole') {
      this.clusterRoles.delete(obj.metadata.name);
      this.queueAggregation();
    }
  }

  /** Coalesces bursts of ClusterRole changes into one aggregation pass (re-run if more arrive). */
  private queueAggregation(): void {
    this.aggregationDirty = true;
    if (this.aggregationQueued || this.ctx.closed) return;
    this.aggregationQueued = true;
    runInBackground(this.ctx, async () => {
      try {
        while (this.aggregationDirty && !this.ctx.closed) {
          this.aggregationDirty = false;
          await this.aggregateOnce();
        }
      } finally {
        this.aggregationQueued = false;
      }
    });
  }

  /** Writes the aggregated rules into every ClusterRole whose stored rules differ (the controller's job). */
  private async aggregateOnce(): Promise<void> {
    const r = served(this.ctx, 'clusterroles');
    for (const role of [...this.clusterRoles.values()]) {
      const rules = aggregatedRules(role, this.clusterRoles.values());
      if (rules === undefined) continue;
      const current = role.rules ?? [];
      if (rules.length === current.length && rules.every((x, i) => rulesEqual(x, current[i]))) continue;
      await updateObject(this.ctx, r, '', role.metadata.name, (cur) => ({ ...(cur as Obj), rules }), {
        dryRun: false,
        subresource: '',
        allowCreate: false,
        checkName: false,
      }).catch((err: unknown) => {
        // Deleted meanwhile: the delete event re-queues aggregation anyway.
        if (!(err instanceof Error && /not found/.test(err.message))) throw err;
      });
    }
  }
}
