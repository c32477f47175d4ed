// client-go's informer, in small: a list, then a watch from the list's resourceVersion, keeping
// a cache of the objects by namespace/name and telling handlers what changed. A watch that ends
// (timeout, 410 Gone, shutdown) is followed by a fresh list and watch, and the handlers hear
// the difference. Everything arrives through the API, as for any client.
import type { Obj } from '../registry/objects';
import { ApiClient, type WatchEvent } from './client';
import type { Clock } from './clock';
import { decodeWatchLine, decodesWithoutManagedFields } from './informer-decode';
import { InformerIndexes, type IndexFunc } from './informer-index';
import { stripManagedFields, withCachedSpec } from './informer-transform';

export interface InformerHandlers {
  onAdd?(obj: Obj): void;
  onUpdate?(obj: Obj, old: Obj): void;
  onDelete?(obj: Obj): void;
}

/** namespace/name (or name for cluster-scoped objects), as client-go's MetaNamespaceKeyFunc. */
export function keyOf(obj: Obj): string {
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${obj.metadata.name}` : String(obj.metadata?.name);
}

export class Informer {
  private readonly cache = new Map<string, Obj>();
  private readonly handlers: InformerHandlers[] = [];
  private readonly indexes = new InformerIndexes();
  private stopWatch?: () => void;
  private stopped = false;
  private cancelRetry?: () => void;
  /** The first list has been applied to the cache. */
  synced = false;
  /** A list or watch request is being set up (tests wait for none). */
  starting = false;

  constructor(
    private readonly client: ApiClient,
    /** Collection path, e.g. `/api/v1/pods` (all namespaces). */
    readonly path: string,
    private readonly clock: Clock,
  ) {}

  addHandlers(h: InformerHandlers): void {
    this.handlers.push(h);
    for (const obj of this.cache.values()) h.onAdd?.(obj);
  }

  get(key: string): Obj | undefined {
    return this.cache.get(key);
  }

  list(): Obj[] {
    return [...this.cache.values()];
  }

  /** Adds a named index (client-go's AddIndexers); controllers sharing the informer share it, so the first to ask defines it. */
  addIndex(name: string, fn: IndexFunc): void {
    if (!this.indexes.has(name)) this.indexes.add(name, fn, this.cache);
  }

  /** The cached objects whose index `name` holds `value` (client-go's ByIndex). */
  byIndex(name: string, value: string): Obj[] {
    return this.indexes.get(name, value);
  }

  /** Sets or (obj undefined) deletes a cached object, keeping the indexes in step. */
  private store(key: string, old: Obj | undefined, obj: Obj | undefined): void {
    if (obj) this.cache.set(key, obj);
    else this.cache.delete(key);
    this.indexes.update(key, old, obj);
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.listAndWatch();
  }

  stop(): void {
    this.stopped = true;
    this.cancelRetry?.();
    this.stopWatch?.();
    this.stopWatch = undefined;
  }

  private async listAndWatch(): Promise<void> {
    if (this.stopped) return;
    this.starting = true;
    try {
      const list = await this.client.list(this.path);
      if (this.stopped) return;
      this.replace((list.items ?? []) as Obj[]);
      this.synced = true;
      let watching = true;
      const stop = await this.client.watch(
        this.path,
        String(list.metadata?.resourceVersion ?? ''),
        (e) => this.apply(e),
        () => {
          // The stream ended (its timeout, a 410): a new list and watch pick up whatever was
          // missed, at once — waiting on the cluster clock would stall a paused or virtual one.
          if (!watching) return;
          watching = false;
          if (!this.stopped) void Promise.resolve().then(() => this.listAndWatch());
        },
        decodesWithoutManagedFields(this.path) ? decodeWatchLine : undefined,
      );
      if (this.stopped) stop();
      else this.stopWatch = () => ((watching = false), stop());
    } catch (err) {
      if (this.stopped) return;
      console.error(`informer ${this.path}:`, err instanceof Error ? err.message : err);
      this.retrySoon(1000);
    } finally {
      this.starting = false;
    }
  }

  private retrySoon(ms: number): void {
    this.cancelRetry = this.clock.after(ms, () => void this.listAndWatch());
  }

  private apply(e: WatchEvent): void {
    if (e.type === 'BOOKMARK') return;
    if (e.type === 'ERROR') {
      // 410 Gone and the like: the stream ends next; the relist then catches up.
      return;
    }
    const stripped = stripManagedFields(e.object);
    const key = keyOf(stripped);
    const old = this.cache.get(key);
    const obj = e.type === 'DELETED' ? stripped : withCachedSpec(stripped, old);
    if (e.type === 'DELETED') {
      this.store(key, old, undefined);
      for (const h of this.handlers) h.onDelete?.(obj);
      return;
    }
    this.store(key, old, obj);
    for (const h of this.handlers) {
      if (old) h.onUpdate?.(obj, old);
      else h.onAdd?.(obj);
    }
  }

  /** A relist: objects gone since the last view are deleted, the rest added or updated. */
  private replace(items: Obj[]): void {
    const seen = new Set<string>();
    for (const item of items) {
      const stripped = stripManagedFields(item);
      const key = keyOf(stripped);
      seen.add(key);
      const old = this.cache.get(key);
      const obj = withCachedSpec(stripped, old);
      this.store(key, old, obj);
      if (old && old.metadata?.resourceVersion === obj.metadata?.resourceVersion) continue;
      for (const h of this.handlers) {
        if (old) h.onUpdate?.(obj, old);
        else h.onAdd?.(obj);
      }
    }
    for (const [key, old] of [...this.cache]) {
      if (seen.has(key)) continue;
      this.store(key, old, undefined);
      for (const h of this.handlers) h.onDelete?.(old);
    }
  }
}
