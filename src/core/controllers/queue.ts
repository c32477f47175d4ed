// A controller's work queue, as client-go's rate-limited queue is used by kube's controllers:
// keys wait deduplicated, one worker syncs them one at a time, a failed sync is retried after a
// growing delay, and a sync may ask to be run again later (a kubelet delay, a progress check)
// through the cluster clock — never a polling loop.
import type { Clock } from './clock';
import { ApiCallError } from './client';

export class KeyQueue {
  private readonly waiting = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly delayed = new Map<string, () => void>();
  /** The key being synced, and whether it was added again meanwhile (client-go's processing and dirty sets). */
  private processing?: string;
  private dirty = false;
  private running = false;
  private stopped = false;

  constructor(
    private readonly name: string,
    private readonly clock: Clock,
    /** Syncs one key; a thrown error retries it with backoff. */
    private readonly sync: (key: string) => Promise<void>,
  ) {}

  /** Nothing waiting and nothing running (delayed keys do not count: they wait for the clock). */
  get idle(): boolean {
    return !this.running && this.waiting.size === 0;
  }

  add(key: string): void {
    if (this.stopped) return;
    // As client-go's workqueue: a key added while it is synced waits for that sync to end and
    // then joins the back of the queue, behind keys added meanwhile — so a busy key (a
    // ReplicaSet creating pods, whose own pod events re-add it) cannot keep going ahead of others.
    if (key === this.processing) {
      this.dirty = true;
      return;
    }
    this.waiting.add(key);
    if (!this.running) void this.drain();
  }

  /** Adds the key after `ms` of cluster time (a second request for the same key keeps the earlier one). */
  addAfter(key: string, ms: number): void {
    if (this.stopped) return;
    if (ms <= 0) return this.add(key);
    if (this.delayed.has(key)) return;
    const cancel = this.clock.after(ms, () => {
      this.delayed.delete(key);
      this.add(key);
    });
    this.delayed.set(key, cancel);
  }

  stop(): void {
    this.stopped = true;
    this.waiting.clear();
    for (const cancel of this.delayed.values()) cancel();
    this.delayed.clear();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      // Let the events of one burst (a watch delivering several changes) collapse first.
      await Promise.resolve();
      while (this.waiting.size && !this.stopped) {
        const key = this.waiting.values().next().value as string;
        this.waiting.delete(key);
        this.processing = key;
        this.dirty = false;
        try {
          await this.sync(key);
          this.failures.delete(key);
        } catch (err) {
          if (this.stopped) return;
          // A conflict means the cache was behind: the watch event that moves it on queues the key again.
          if (err instanceof ApiCallError && err.code === 409) continue;
          const n = (this.failures.get(key) ?? 0) + 1;
          this.failures.set(key, n);
          const message = err instanceof Error ? err.message : String(err);
          console.error(`${this.name} ${key}: ${message}`);
          this.addAfter(key, Math.min(5 * 2 ** Math.min(n, 12), 60_000));
        } finally {
          // Done: a key added during its sync is queued now, at the back.
          this.processing = undefined;
          if (this.dirty && !this.stopped) this.waiting.add(key);
          this.dirty = false;
        }
      }
    } finally {
      this.running = false;
      this.processing = undefined;
    }
  }
}
