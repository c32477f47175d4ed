// kube-controller-manager's namespace controller, in process: a namespace event is handled
// after namespaceDeletionGracePeriod (5 s in v1.23), not inside the DELETE that made the
// namespace Terminating. Until then its content stays, so `kubectl delete -f` of a manifest that
// lists the Namespace first still finds (and deletes) the objects after it; creates are refused
// meanwhile by NamespaceLifecycle (store-common.ts). A pass deletes the content, writes the
// deletion conditions to status, and once nothing is left removes the `kubernetes` finalizer
// through the finalize subresource (the store then removes the namespace).
import { objectKey, type ServedResource } from '../../registry/catalog';
import { runInBackground, type RegistryContext } from '../../registry/context';
import { rfc3339, type Obj } from '../../registry/objects';
import { updateObject } from '../../registry/store';
import { ApiError } from '../../meta/status';
import { deleteAllContent, deletionConditions } from './namespace-deleter';

/** kube's namespaceDeletionGracePeriod. */
export const NAMESPACE_DELETION_GRACE_MS = 5000;
/**
 * Content held by finalizers is looked at again after this long. kube waits half its 15 s
 * finalizer estimate plus one second; a playground user removing a finalizer by hand should not
 * wait that long (a deliberate difference).
 */
const RETRY_MS = 500;
/** client-go's user agent of kube-controller-manager gives its writes this manager name. */
const MANAGER = { manager: 'kube-controller-manager' };

type Outcome = 'done' | 'retry';

export class NamespaceController {
  /** Namespaces waiting for their grace period (or a retry), by name. */
  private readonly timers = new Map<string, { timer: ReturnType<typeof setTimeout>; retry: boolean }>();
  private readonly running = new Set<string>();
  private chain: Promise<void> = Promise.resolve();
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly ctx: RegistryContext,
    private readonly graceMs = NAMESPACE_DELETION_GRACE_MS,
    /** Off with `--controllers=*,-namespace`: deleted namespaces stay Terminating, as in kube. */
    private readonly enabled = true,
  ) {}

  /** A namespace changed: a Terminating one gets a pass after the grace period. */
  enqueue(name: string, delayMs = this.graceMs, retry = false): void {
    if (!this.enabled || this.ctx.closed || this.running.has(name)) return;
    const waiting = this.timers.get(name);
    // A waiting namespace keeps its earlier time, unless only a retry was waiting.
    if (waiting && !(waiting.retry && !retry)) return;
    if (waiting) clearTimeout(waiting.timer);
    const timer = setTimeout(() => {
      this.timers.delete(name);
      this.run(name);
    }, delayMs);
    (timer as { unref?: () => void }).unref?.();
    this.timers.set(name, { timer, retry });
  }

  /**
   * Resolves once no namespace waits for its grace period or is being processed. A namespace
   * whose content is held by finalizers only waits for a retry and does not count.
   */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stop(): void {
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.notifyIdle();
  }

  private isIdle(): boolean {
    if (this.running.size) return false;
    for (const w of this.timers.values()) if (!w.retry) return false;
    return true;
  }

  private notifyIdle(): void {
    if (this.isIdle()) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** One namespace at a time, in the order they came due (one worker, as kube's default). */
  private run(name: string): void {
    this.running.add(name);
    const next = this.chain.then(async () => {
      let outcome: Outcome = 'done';
      try {
        outcome = await this.sync(name);
      } catch (err) {
        if (!this.ctx.closed) console.error('namespace controller:', err);
        outcome = 'retry';
      } finally {
        this.running.delete(name);
      }
      if (outcome === 'retry') this.enqueue(name, RETRY_MS, true);
      this.notifyIdle();
    });
    this.chain = next;
    runInBackground(this.ctx, () => next);
  }

  private async sync(name: string): Promise<Outcome> {
    const nsr = namespacesResource(this.ctx);
    const kv = await this.ctx.mvcc.get(objectKey(nsr, '', name));
    if (!kv) return 'done';
    const ns = JSON.parse(kv.value) as Obj;
    if (!ns.metadata?.deletionTimestamp) return 'done';
    const finalizers: unknown[] = Array.isArray(ns.spec?.finalizers) ? ns.spec.finalizers : [];
    if (!finalizers.includes('kubernetes')) return 'done';
    const pass = await deleteAllContent(this.ctx, name);
    await this.writeConditions(nsr, name, pass);
    if (pass.errors.length || pass.remaining.size) return 'retry';
    await this.finalize(nsr, name);
    return 'done';
  }

  private async writeConditions(nsr: ServedResource, name: string, pass: Parameters<typeof deletionConditions>[1]): Promise<void> {
    const now = rfc3339(this.ctx.now());
    await updateObject(
      this.ctx,
      nsr,
      '',
      name,
      (cur) => {
        const conditions = deletionConditions(cur.status?.conditions, pass, now);
        if (!conditions) return cur;
        return { ...cur, status: { ...(cur.status ?? {}), conditions } };
      },
      { dryRun: false, subresource: 'status', allowCreate: false, checkName: false, owner: MANAGER },
    ).catch(ignoreNotFound);
  }

  /** finalizeNamespace: spec.finalizers without `kubernetes`, through the finalize subresource. */
  private async finalize(nsr: ServedResource, name: string): Promise<void> {
    await updateObject(
      this.ctx,
      nsr,
      '',
      name,
      (cur) => {
        const rest = ((cur.spec?.finalizers ?? []) as string[]).filter((f) => f !== 'kubernetes');
        const spec = { ...(cur.spec ?? {}) };
        if (rest.length) spec.finalizers = [...new Set(rest)].sort();
        else delete spec.finalizers;
        return { ...cur, spec };
      },
      { dryRun: false, subresource: 'finalize', allowCreate: false, checkName: false },
    ).catch(ignoreNotFound);
  }
}

function ignoreNotFound(err: unknown): void {
  if (!(err instanceof ApiError && err.code === 404)) throw err;
}

function namespacesResource(ctx: RegistryContext): ServedResource {
  const r = ctx.catalog.versionsOf('', 'namespaces')[0];
  if (!r) throw new Error('resource namespaces is not served');
  return r;
}
