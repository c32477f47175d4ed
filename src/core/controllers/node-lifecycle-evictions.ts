// kube's NoExecuteTaintManager (pkg/controller/nodelifecycle/scheduler/taint_manager.go), run by
// the node lifecycle controller: a pod on a node with NoExecute taints it does not tolerate is
// deleted at once; one that tolerates them all for a while (tolerationSeconds; the
// DefaultTolerationSeconds admission gives 300 s for not-ready and unreachable) is deleted when
// the shortest of those times has passed since the manager first saw it so exposed; a pod that
// tolerates them forever stays. A taint removed in time cancels the deletion.
import type { Obj } from '../registry/objects';
import { ApiCallError, type ApiClient } from './client';
import type { Clock } from './clock';
import type { EventRecorder } from './events';
import { keyOf } from './informer';
import { tolerates } from './pod-fit';

interface Scheduled {
  /** When the manager first saw the pod exposed: later taints do not push the deletion back. */
  createdAt: number;
  fireAt: number;
  cancel: () => void;
}

/** getMinTolerationTime over the tolerations that match the taints: -1 means forever. */
function minTolerationMs(used: Obj[]): number {
  let min = -1;
  for (const t of used) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    const ms = Math.max(0, Number(t.tolerationSeconds)) * 1000;
    if (min < 0 || ms < min) min = ms;
  }
  // Any matching toleration without seconds, when none has seconds, tolerates forever.
  return used.some((t) => t.tolerationSeconds === undefined || t.tolerationSeconds === null) && min < 0 ? -1 : min;
}

export class TaintEvictions {
  private readonly scheduled = new Map<string, Scheduled>();

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    private readonly events: EventRecorder,
    /** Runs the work tracked, so tests can wait for it. */
    private readonly track: (p: Promise<unknown>) => void,
  ) {}

  /** processPodOnNode: decides (again) about one pod, given its node's taints. */
  process(pod: Obj, node: Obj | undefined): void {
    const key = keyOf(pod);
    if (pod.metadata?.deletionTimestamp) return this.forget(key);
    const taints = ((node?.spec?.taints ?? []) as Obj[]).filter((t) => t.effect === 'NoExecute');
    if (!taints.length) return this.cancel(pod);
    const tolerations = ((pod.spec?.tolerations ?? []) as Obj[]).filter((t) => !t.effect || t.effect === 'NoExecute');
    const used: Obj[] = [];
    for (const taint of taints) {
      const matching = tolerations.filter((t) => tolerates([t], taint));
      // A taint no toleration covers: the pod goes now.
      if (!matching.length) return this.schedule(pod, 0, true);
      used.push(...matching);
    }
    const min = minTolerationMs(used);
    if (min < 0) return;
    this.schedule(pod, min, false);
  }

  /** The pod is gone: nothing to do for it any more. */
  forget(key: string): void {
    this.scheduled.get(key)?.cancel();
    this.scheduled.delete(key);
  }

  stop(): void {
    for (const s of this.scheduled.values()) s.cancel();
    this.scheduled.clear();
  }

  private schedule(pod: Obj, afterMs: number, immediately: boolean): void {
    const key = keyOf(pod);
    const now = this.clock.now();
    const existing = this.scheduled.get(key);
    // A deletion already planned stands: the first exposure counts, later taints do not push it
    // back. Only a taint the pod does not tolerate at all brings it forward, to now.
    if (existing && (!immediately || existing.fireAt <= now)) return;
    existing?.cancel();
    const fireAt = immediately ? now : now + afterMs;
    const cancel = this.clock.after(fireAt - now, () => this.track(this.evict(pod)));
    this.scheduled.set(key, { createdAt: existing?.createdAt ?? now, fireAt, cancel });
  }

  private cancel(pod: Obj): void {
    const key = keyOf(pod);
    const existing = this.scheduled.get(key);
    if (!existing) return;
    existing.cancel();
    this.scheduled.delete(key);
    this.track(this.events.record({ ...pod, apiVersion: 'v1', kind: 'Pod' }, 'Normal', 'TaintManagerEviction', `Cancelling deletion of Pod ${key}`));
  }

  private async evict(pod: Obj): Promise<void> {
    const key = keyOf(pod);
    this.scheduled.delete(key);
    await this.events.record({ ...pod, apiVersion: 'v1', kind: 'Pod' }, 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${key}`);
    try {
      // Only this pod, not a later one of the same name.
      await this.client.delete(`/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`, { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: pod.metadata.uid } });
    } catch (err) {
      if (err instanceof ApiCallError && (err.code === 404 || err.code === 409)) return;
      console.error(`taint-controller: deleting ${key}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
