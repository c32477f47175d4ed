// The work queue of the in-process controllers (garbage collector, tokens controller, root CA
// publisher), in the spirit of client-go's: keys are deduplicated while they wait, one worker
// runs them in order in the background, and a key whose run asks for a retry is queued again a
// few times (kube would back off; here the next event also retries).
import { runInBackground, type RegistryContext } from './context';

/** What a run decided about its key: done, or to be tried again. */
export type Outcome = 'done' | 'retry';

export class WorkQueue<T> {
  private readonly waiting = new Map<string, { task: T; attempts: number }>();
  private draining = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly ctx: RegistryContext,
    /** Runs one task; errors it throws are logged (never thrown at a client) and not retried. */
    private readonly run: (task: T) => Promise<Outcome | void>,
    private readonly maxAttempts = 5,
    private readonly name = 'controller',
  ) {}

  add(key: string, task: T, attempts = 0): void {
    if (this.ctx.closed) return;
    if (!this.waiting.has(key)) this.waiting.set(key, { task, attempts });
    if (this.draining) return;
    this.draining = true;
    runInBackground(this.ctx, () => this.drain());
  }

  clear(): void {
    this.waiting.clear();
  }

  /** Resolves once nothing waits and nothing runs (a controller's first pass at start). */
  idle(): Promise<void> {
    if (!this.draining && this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async drain(): Promise<void> {
    try {
      await Promise.resolve();
      while (this.waiting.size && !this.ctx.closed) {
        const [key, { task, attempts }] = this.waiting.entries().next().value as [string, { task: T; attempts: number }];
        this.waiting.delete(key);
        let outcome: Outcome | void;
        try {
          outcome = await this.run(task);
        } catch (err) {
          if (!this.ctx.closed) console.error(`${this.name}:`, err);
          continue;
        }
        if (outcome === 'retry' && attempts + 1 < this.maxAttempts) this.add(key, task, attempts + 1);
      }
    } finally {
      this.draining = false;
      if (this.waiting.size === 0 || this.ctx.closed) for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }
}
