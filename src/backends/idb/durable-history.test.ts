import { describe, expect, it } from 'vitest';
import { StorageError, type IndexRecord, type StoreEvent } from '../../core/storage/types';
import { fromDurable, needsHistoryRecord, toDurable } from './durable-history';

// A key's life across three batches: created, updated twice, deleted, created again; a second key
// created and updated. What the store saw, in commit order.
const events: StoreEvent[] = [
  { type: 'put', key: '/a', rev: 1, value: 'a1', createRev: 1 },
  { type: 'put', key: '/b', rev: 2, value: 'b2', createRev: 2 },
  { type: 'put', key: '/a', rev: 3, value: 'a3', prevValue: 'a1', createRev: 1, prevModRev: 1 },
  { type: 'put', key: '/a', rev: 4, value: 'a4', prevValue: 'a3', createRev: 1, prevModRev: 3 },
  { type: 'delete', key: '/a', rev: 5, prevValue: 'a4', createRev: 1, prevModRev: 4 },
  { type: 'put', key: '/a', rev: 6, value: 'a6', createRev: 6 },
  { type: 'put', key: '/b', rev: 7, value: 'b7', prevValue: 'b2', createRev: 2, prevModRev: 2 },
];
const current = new Map([
  ['/a', 'a6'],
  ['/b', 'b7'],
]);
const objects: IndexRecord[] = [
  { key: '/a', createRev: 6, modRev: 6 },
  { key: '/b', createRev: 2, modRev: 7 },
];
const valueOf = (key: string) => current.get(key);

describe('durable history', () => {
  it('stores no new values: a create is a few fields, an update only its previous value', () => {
    const stored = toDurable(events);
    expect(stored[0]).toEqual({ type: 'put', key: '/a', rev: 1, createRev: 1 });
    expect(stored[2]).toEqual({ type: 'put', key: '/a', rev: 3, prevValue: 'a1', createRev: 1, prevModRev: 1 });
    expect(stored.some((ev) => 'value' in ev)).toBe(false);
  });

  it('rebuilds every event exactly from the batches and the current values', () => {
    const batches = [toDurable(events.slice(0, 2)), toDurable(events.slice(2, 5)), toDurable(events.slice(5))];
    expect(fromDurable(batches, objects, 0, valueOf)).toEqual(events);
  });

  it('rebuilds a tail of the history (older batches trimmed) just as well', () => {
    expect(fromDurable([toDurable(events.slice(3))], objects, 3, valueOf)).toEqual(events.slice(3));
  });

  it('rebuilds the creates of batches that wrote no record, from the objects and later events', () => {
    // The batches of creates only (revs 1-2 and 6) were not stored: /a's first create comes back
    // from its update at rev 3, /b's from its update at rev 7, /a's second from its record.
    expect([events.slice(0, 2), events.slice(5, 6)].map(needsHistoryRecord)).toEqual([false, false]);
    expect([events.slice(2, 5), events.slice(6)].map(needsHistoryRecord)).toEqual([true, true]);
    const stored = [toDurable(events.slice(2, 5)), toDurable(events.slice(6))];
    expect(fromDurable(stored, objects, 0, valueOf)).toEqual(events);
    // Nothing at or below the compaction revision is implied.
    expect(fromDurable(stored, objects, 2, valueOf)).toEqual(events.slice(2));
  });

  it('rebuilds objects that never changed from their records alone', () => {
    const created: StoreEvent[] = [
      { type: 'put', key: '/x', rev: 1, value: 'x1', createRev: 1 },
      { type: 'put', key: '/y', rev: 2, value: 'y2', createRev: 2 },
    ];
    const records = [{ key: '/y', createRev: 2, modRev: 2 }, { key: '/x', createRev: 1, modRev: 1 }];
    const values = new Map([['/x', 'x1'], ['/y', 'y2']]);
    expect(fromDurable([], records, 0, (key) => values.get(key))).toEqual(created);
  });

  it('refuses a put whose value cannot be recovered', () => {
    expect(() => fromDurable([toDurable(events.slice(5, 6))], [], 0, () => undefined)).toThrow(StorageError);
  });
});
