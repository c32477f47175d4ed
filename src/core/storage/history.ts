// The history window: every committed event, oldest first, with the time it committed. Reads at a
// past revision undo the events newer than that revision; watches replay from it. Compaction drops
// events older than the window and raises compactRevision: state at or after compactRevision can
// still be rebuilt, anything before it is gone (410 Expired above).

import type { KV, StoreEvent } from './types';

export class HistoryWindow {
  private events: StoreEvent[] = [];
  private times: number[] = [];

  constructor(public compactRevision: number) {}

  get length(): number {
    return this.events.length;
  }

  at(i: number): StoreEvent {
    return this.events[i]!;
  }

  append(ev: StoreEvent, time: number): void {
    this.events.push(ev);
    this.times.push(time);
  }

  /** Drops events committed before `cutoffTime`; returns how many were dropped. */
  compactBefore(cutoffTime: number): number {
    let n = 0;
    while (n < this.times.length && this.times[n]! < cutoffTime) n++;
    if (n === 0) return 0;
    this.compactRevision = Math.max(this.compactRevision, this.events[n - 1]!.rev);
    this.events.splice(0, n);
    this.times.splice(0, n);
    return n;
  }

  /** Index of the first event with a revision above `rev` (length when none). */
  firstAfter(rev: number): number {
    let lo = 0;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.events[mid]!.rev <= rev) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * How the keys accepted by `matches` looked at `rev`, for every such key changed after `rev`:
   * key → KV at rev, or undefined when the key did not exist then. Keys absent from the map are
   * unchanged since `rev`.
   */
  stateAt(rev: number, matches: (key: string) => boolean): Map<string, KV | undefined> {
    const states = new Map<string, KV | undefined>();
    // Walking newest to oldest, the last write wins: it is the state before the oldest change.
    for (let i = this.events.length - 1; i >= 0; i--) {
      const ev = this.events[i]!;
      if (ev.rev <= rev) break;
      if (matches(ev.key)) states.set(ev.key, previousKv(ev));
    }
    return states;
  }
}

/** The KV a change replaced, rebuilt from the event alone. */
export function previousKv(ev: StoreEvent): KV | undefined {
  if (ev.prevValue === undefined) return undefined;
  // Updates keep createRev and deletes record the deleted key's createRev, so ev.createRev is the
  // previous createRev in both cases.
  return { key: ev.key, value: ev.prevValue, createRev: ev.createRev, modRev: ev.prevModRev ?? 0 };
}
