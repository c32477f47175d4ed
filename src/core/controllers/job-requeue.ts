// A key to look at again at a given cluster time, with the later request replacing the earlier
// one (KeyQueue.addAfter keeps the first, which suits kubelet delays but not a CronJob whose
// schedule was just edited or a Job whose deadline moved).
import type { Clock } from './clock';
import type { KeyQueue } from './queue';

export class Requeue {
  private readonly timers = new Map<string, { at: number; cancel: () => void }>();
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly queue: KeyQueue,
  ) {}

  /** Queues `key` in `ms` of cluster time, replacing a pending request for it. */
  at(key: string, ms: number): void {
    if (this.stopped) return;
    this.cancel(key);
    const at = this.clock.now() + Math.max(0, ms);
    const cancel = this.clock.after(Math.max(0, ms), () => {
      if (this.timers.get(key)?.at === at) this.timers.delete(key);
      this.queue.add(key);
    });
    this.timers.set(key, { at, cancel });
  }

  /** Keeps whichever of the pending request and this one comes first. */
  atLatest(key: string, ms: number): void {
    const pending = this.timers.get(key);
    if (pending && pending.at <= this.clock.now() + ms) return;
    this.at(key, ms);
  }

  cancel(key: string): void {
    this.timers.get(key)?.cancel();
    this.timers.delete(key);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
  }
}
