import { expect, it } from 'vitest';
import { eventAge, eventRows } from './object-events';

const event = (name: string, last: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name, namespace: 'default' },
  type: 'Normal',
  reason: 'Scheduled',
  message: `about ${name}`,
  source: { component: 'default-scheduler' },
  firstTimestamp: last,
  lastTimestamp: last,
  count: 1,
  ...extra,
});

it('lists events oldest first, with the component (and a kubelet’s host) as From', () => {
  const rows = eventRows([
    event('b', '2022-01-01T00:00:05Z', { source: { component: 'kubelet', host: 'node-1' }, reason: 'Started' }),
    event('a', '2022-01-01T00:00:01Z'),
  ]);
  expect(rows.map((r) => [r.name, r.reason, r.from])).toEqual([
    ['a', 'Scheduled', 'default-scheduler'],
    ['b', 'Started', 'kubelet, node-1'],
  ]);
});

it('writes a repeated event’s age as describe does', () => {
  const now = Date.parse('2022-01-01T00:01:00Z');
  const [once] = eventRows([event('a', '2022-01-01T00:00:50Z')]);
  expect(eventAge(once!, now)).toBe('10s');
  const [repeated] = eventRows([event('r', '2022-01-01T00:00:50Z', { firstTimestamp: '2022-01-01T00:00:00Z', count: 3 })]);
  expect(eventAge(repeated!, now)).toBe('10s (x3 over 60s)');
});
