// The page's live list of requests relayed from the bridge: what kubectl asked for (method,
// path, user agent), what the tab answered and how long it took. Bounded, so a long informer
// session keeps a fixed-size list; listeners hear every change (the panel re-renders from it).

export type RelayedRequestState = 'open' | 'streaming' | 'done' | 'failed' | 'cancelled';

export interface RelayedRequestEntry {
  id: number;
  method: string;
  path: string;
  userAgent: string;
  /** Date.now() when the request arrived. */
  startedAt: number;
  status?: number;
  /** Set when the request is over (for a watch: when it ended). */
  durationMs?: number;
  state: RelayedRequestState;
  /** Why it failed, when it did. */
  error?: string;
}

/** How many requests the list keeps (newest first in the panel). */
export const REQUEST_LOG_SIZE = 200;

/**
 * How often listeners hear of changes at most. A table of the latest requests re-laid out on
 * every frame took the page's main thread from the requests themselves (a relayed GET went from
 * ~3 ms to ~17 ms in headless Chromium); five times a second still reads as live.
 */
export const LOG_REFRESH_MS = 200;

function later(fn: () => void): void {
  setTimeout(fn, LOG_REFRESH_MS);
}

export class RequestLog {
  private entries: RelayedRequestEntry[] = [];
  private readonly listeners = new Set<() => void>();
  private total = 0;
  private notifying = false;

  constructor(private readonly schedule: (fn: () => void) => void = later) {}

  /** Newest last; a fresh array after every change, so React sees the change. */
  get list(): readonly RelayedRequestEntry[] {
    return this.entries;
  }

  /** Requests relayed since the page opened, including those that fell off the list. */
  get count(): number {
    return this.total;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  add(entry: RelayedRequestEntry): void {
    this.total++;
    const next = this.entries.length >= REQUEST_LOG_SIZE ? this.entries.slice(1) : this.entries.slice();
    next.push(entry);
    this.entries = next;
    this.notify();
  }

  update(id: number, change: Partial<RelayedRequestEntry>): void {
    const i = this.entries.findIndex((e) => e.id === id);
    if (i === -1) return;
    const next = this.entries.slice();
    next[i] = { ...next[i]!, ...change };
    this.entries = next;
    this.notify();
  }

  /** Marks a request over, with its duration measured from its start. */
  end(id: number, state: RelayedRequestState, change: Partial<RelayedRequestEntry> = {}): void {
    const entry = this.entries.find((e) => e.id === id);
    if (!entry) return;
    this.update(id, { ...change, state, durationMs: Date.now() - entry.startedAt });
  }

  private notify(): void {
    if (this.notifying || this.listeners.size === 0) return;
    this.notifying = true;
    this.schedule(() => {
      this.notifying = false;
      for (const listener of this.listeners) listener();
    });
  }
}
