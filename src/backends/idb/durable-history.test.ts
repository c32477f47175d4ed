import { describe, expect, it } from 'vitest';
import { StorageError, type StoreEvent } from '../../core/storage/types';
import { fromDurable, toDurable } from './durable-history';

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

describe('durable history', () => {
  it('stores no new values: a create is a few fields, an update only its previous value', () => {
    const stored = toDurable(events);
    expect(stored[0]).toEqual({ type: 'put', key: '/a', rev: 1, createRev: 1 });
    expect(stored[2]).toEqual({ type: 'put', key: '/a', rev: 3, prevValue: 'a1', createRev: 1, prevModRev: 1 });
    expect(stored.some((ev) => 'value' in ev)).toBe(false);
  });

  it('rebuilds every event exactly from the batches and the current values', () => {
    const batches = [toDurable(events.slice(0, 2)), toDurable(events.slice(2, 5)), toDurable(events.slice(5))];
    expect(fromDurable(batches, (key) => current.get(key))).toEqual(events);
  });

  it('rebuilds a tail of the history (older batches trimmed) just as well', () => {
    expect(fromDurable([toDurable(events.slice(3))], (key) => current.get(key))).toEqual(events.slice(3));
  });

  it('refuses a put whose value cannot be recovered', () => {
    expect(() => fromDurable([toDurable(events.slice(5, 6))], () => undefined)).toThrow(StorageError);
  });
});
