// Leader election for the controllers kube runs in kube-controller-manager (tokens, disruption,
// garbage collector, resource quota, root CA publisher), through the `kube-system/
// kube-controller-manager` Lease as client-go's leaderelection does it: several API hosts on one
// etcd run those controllers in one of them at a time. The holder renews every retry period; a
// Lease not renewed for its duration may be taken by another host (leaseTransitions + 1). A host
// that cannot renew within the renew deadline stops its controllers (kube-controller-manager
// exits) and competes again. Every decision is made inside the store's compare-and-swap update,
// so two hosts cannot both take the Lease.
import type { RegistryContext } from '../../registry/context';
import type { Obj } from '../../registry/objects';
import { createObject } from '../../registry/store-create';
import { updateObject } from '../../registry/store-update';
import { ApiError } from '../../meta/status';

const NAMESPACE = 'kube-system';
const NAME = 'kube-controller-manager';
const OWNER = { manager: 'kube-controller-manager' };

/** client-go's defaults for kube-controller-manager. */
export interface LeaderTiming {
  leaseDurationSeconds: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}
export const DEFAULT_LEADER_TIMING: LeaderTiming = { leaseDurationSeconds: 15, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

export interface LeaderControllers {
  start(): Promise<void>;
  stop(): void;
}

/** Go's metav1.MicroTime as JSON: RFC 3339 with microseconds. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

class NotOurs extends Error {}

export class ControllerLeader {
  private leading = false;
  private lastRenew = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    private readonly ctx: RegistryContext,
    readonly identity: string,
    private readonly controllers: LeaderControllers,
    private readonly timing: LeaderTiming = DEFAULT_LEADER_TIMING,
  ) {}

  get isLeader(): boolean {
    return this.leading;
  }

  /** One attempt now (start-up waits for it, so a lone host starts its controllers at once), then on every retry period. */
  async start(): Promise<void> {
    await this.tick();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.leading) this.controllers.stop();
    this.leading = false;
  }

  private schedule(): void {
    if (this.stopped || this.ctx.closed) return;
    this.timer = setTimeout(() => void this.tick(), this.timing.retryPeriodMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async tick(): Promise<void> {
    let acquired = false;
    try {
      acquired = await this.tryAcquireOrRenew();
    } catch {
      // etcd down or a conflict: not renewed this time.
    }
    const now = this.ctx.now();
    if (acquired) {
      this.lastRenew = now;
      if (!this.leading && !this.stopped) {
        this.leading = true;
        await this.controllers.start().catch(() => undefined);
      }
    } else if (this.leading && now - this.lastRenew > this.timing.renewDeadlineMs) {
      this.leading = false;
      this.controllers.stop();
    }
    this.schedule();
  }

  /** Takes or renews the Lease; false when another holder's Lease is still valid. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const r = this.ctx.catalog.lookup('coordination.k8s.io', 'v1', 'leases');
    if (!r) return true; // no Lease API served: nobody else can lead either
    const now = this.ctx.now();
    const spec = (transitions: number, acquireTime: string) => ({
      holderIdentity: this.identity,
      leaseDurationSeconds: this.timing.leaseDurationSeconds,
      acquireTime,
      renewTime: microTime(now),
      leaseTransitions: transitions,
    });
    try {
      await updateObject(
        this.ctx,
        r,
        NAMESPACE,
        NAME,
        (current: Obj) => {
          const held: Obj = current.spec ?? {};
          const ours = held.holderIdentity === this.identity;
          const renewed = Date.parse(held.renewTime ?? '') || 0;
          const expired = renewed + (held.leaseDurationSeconds ?? this.timing.leaseDurationSeconds) * 1000 < now;
          if (!ours && held.holderIdentity && !expired) throw new NotOurs();
          const transitions = (held.leaseTransitions ?? 0) + (ours ? 0 : 1);
          return { ...current, spec: spec(transitions, ours ? held.acquireTime : microTime(now)) };
        },
        { dryRun: false, subresource: '', allowCreate: false, checkName: false, owner: OWNER },
      );
      return true;
    } catch (error) {
      if (error instanceof NotOurs) return false;
      if (!(error instanceof ApiError && error.code === 404)) throw error;
    }
    try {
      await createObject(this.ctx, r, NAMESPACE, { metadata: { name: NAME }, spec: spec(0, microTime(now)) }, false, OWNER);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.reason === 'AlreadyExists') return false; // another host was first
      throw error;
    }
  }
}
