// The durable history window of the IndexedDB backend, kept small: one record per commit batch
// (keyed by the batch's revision), holding its events *without* their new values. A put's value is
// always recoverable: it is the prevValue of the next event on the same key, or the key's current
// value when no later event exists. So a create costs a few dozen bytes of history instead of a
// second copy of the object, and an update one copy (its prevValue) instead of two.
//
// A batch of creates only writes no history record at all: a create's event (put, no previous
// value, rev = createRev) is implied by the object record while the object is unchanged
// (createRev === modRev), and by the next event on its key once it changed (that event's
// prevModRev equals its createRev: the state it replaced was the creation). In headless Chromium
// the second put made a sequential create ~10% slower, most of it in the IndexedDB work around
// the commit rather than in the put itself (see bench/RESULTS.md).

import { StorageError, type IndexRecord, type StoreEvent } from '../../core/storage/types';

/** A StoreEvent as persisted: everything but `value`. */
export type DurableEvent = Omit<StoreEvent, 'value'>;

/** Whether a batch needs a history record: any event other than a create does. */
export function needsHistoryRecord(events: readonly StoreEvent[]): boolean {
  for (const ev of events) if (ev.type !== 'put' || ev.prevValue !== undefined) return true;
  return false;
}

/** The events of one batch, ready to be put as one history record. */
export function toDurable(events: readonly StoreEvent[]): DurableEvent[] {
  return events.map((ev) => {
    // Built field by field: copying `ev` and deleting `value` would still clone it first.
    const out: DurableEvent = { type: ev.type, key: ev.key, rev: ev.rev, createRev: ev.createRev };
    if (ev.prevValue !== undefined) out.prevValue = ev.prevValue;
    if (ev.prevModRev !== undefined) out.prevModRev = ev.prevModRev;
    return out;
  });
}

/**
 * Every event above `compactRevision` (oldest first, plus any older ones of a batch straddling
 * it): the stored batches' events, the creates they imply (see the header), and their values.
 * `objects` are the current records; `current` answers a key's present value.
 */
export function fromDurable(
  batches: readonly DurableEvent[][],
  objects: Iterable<IndexRecord>,
  compactRevision: number,
  current: (key: string) => string | undefined,
): StoreEvent[] {
  const events: StoreEvent[] = [];
  const revs = new Set<number>();
  for (const batch of batches) {
    for (const ev of batch) {
      events.push({ ...ev });
      revs.add(ev.rev);
    }
  }
  const stored = events.length;
  const imply = (key: string, rev: number) => {
    if (rev <= compactRevision || revs.has(rev)) return;
    revs.add(rev);
    events.push({ type: 'put', key, rev, createRev: rev });
  };
  for (const obj of objects) if (obj.createRev === obj.modRev) imply(obj.key, obj.createRev);
  for (let i = 0; i < stored; i++) {
    const ev = events[i]!;
    if (ev.prevValue !== undefined && ev.prevModRev === ev.createRev) imply(ev.key, ev.createRev);
  }
  if (events.length > stored) events.sort((a, b) => a.rev - b.rev);
  // Newest to oldest: the value a put wrote is what the next change on its key replaced.
  const next = new Map<string, string | undefined>();
  for (let i = events.length - 1; i >= 0; i--) {
    const ev = events[i]!;
    if (ev.type === 'put') {
      const value = next.has(ev.key) ? next.get(ev.key) : current(ev.key);
      if (value === undefined) throw new StorageError('Backend', `indexeddb: history event ${ev.rev} has no recoverable value`, ev.key);
      ev.value = value;
    }
    next.set(ev.key, ev.prevValue);
  }
  return events;
}
