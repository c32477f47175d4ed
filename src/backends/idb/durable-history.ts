// The durable history window of the IndexedDB backend, kept small: one record per commit batch
// (keyed by the batch's revision), holding its events *without* their new values. A put's value is
// always recoverable: it is the prevValue of the next event on the same key, or the key's current
// value when no later event exists. So a create costs a few dozen bytes of history instead of a
// second copy of the object, and an update one copy (its prevValue) instead of two.

import { StorageError, type StoreEvent } from '../../core/storage/types';

/** A StoreEvent as persisted: everything but `value`. */
export type DurableEvent = Omit<StoreEvent, 'value'>;

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
 * Rebuilds full events (oldest first) from the stored batches and the current values.
 * `current` answers a key's present value (undefined when the key does not exist now).
 */
export function fromDurable(batches: readonly DurableEvent[][], current: (key: string) => string | undefined): StoreEvent[] {
  const events: StoreEvent[] = [];
  for (const batch of batches) for (const ev of batch) events.push({ ...ev });
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
