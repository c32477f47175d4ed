// Controllers that recompute per-namespace state (quota usage, disruption budgets) queue the
// namespace an event touched; the events of one burst collapse into one background pass.
import { runInBackground, type RegistryContext } from './context';

export class NamespaceQueue {
  private readonly queued = new Set<string>();

  constructor(
    private readonly ctx: RegistryContext,
    private readonly sync: (ns: string) => Promise<void>,
  ) {}

  push(ns: string | undefined): void {
    if (!ns || this.queued.has(ns) || this.ctx.closed) return;
    this.queued.add(ns);
    runInBackground(this.ctx, async () => {
      await Promise.resolve();
      this.queued.delete(ns);
      await this.sync(ns);
    });
  }
}
