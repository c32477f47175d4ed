// Fan-out of committed events to watchers. A new watcher first replays the history window from its
// start revision, then receives live events; `lastRev` makes the hand-over exact: every event is
// delivered once, in revision order. Replay runs in a microtask so the caller holds its handle
// before the first callback (a callback may want to cancel). Until replay has run, live events
// are skipped for that watcher: they are already in the history it is about to replay.
// Callbacks run synchronously and their exceptions are swallowed, so one watcher can neither
// fail a write nor starve another; per-watcher buffering belongs to the API layer.

import type { HistoryWindow } from './history';
import type { StoreEvent, WatchHandle } from './types';

interface Watcher {
  prefix: string;
  onEvent: (ev: StoreEvent) => void;
  /** Highest revision delivered (or the start revision). */
  lastRev: number;
  replayed: boolean;
  cancelled: boolean;
}

export class WatchHub {
  private readonly watchers = new Set<Watcher>();

  constructor(private readonly history: HistoryWindow) {}

  get size(): number {
    return this.watchers.size;
  }

  add(prefix: string, fromRev: number, onEvent: (ev: StoreEvent) => void): WatchHandle {
    const watcher: Watcher = { prefix, onEvent, lastRev: fromRev, replayed: false, cancelled: false };
    this.watchers.add(watcher);
    queueMicrotask(() => this.replay(watcher));
    return {
      cancel: () => {
        watcher.cancelled = true;
        this.watchers.delete(watcher);
      },
    };
  }

  publish(events: readonly StoreEvent[]): void {
    if (this.watchers.size === 0) return;
    for (const ev of events) {
      for (const watcher of this.watchers) {
        if (watcher.replayed) deliver(watcher, ev);
      }
    }
  }

  cancelAll(): void {
    for (const watcher of this.watchers) watcher.cancelled = true;
    this.watchers.clear();
  }

  private replay(watcher: Watcher): void {
    for (let i = this.history.firstAfter(watcher.lastRev); i < this.history.length; i++) {
      if (watcher.cancelled) return;
      deliver(watcher, this.history.at(i));
    }
    watcher.replayed = true;
  }
}

function deliver(watcher: Watcher, ev: StoreEvent): void {
  if (watcher.cancelled || ev.rev <= watcher.lastRev || !ev.key.startsWith(watcher.prefix)) return;
  watcher.lastRev = ev.rev;
  try {
    watcher.onEvent(ev);
  } catch {
    // A failing watcher only loses this event; the API layer ends its stream on its own errors.
  }
}
