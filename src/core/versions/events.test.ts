import { describe, expect, it } from 'vitest';
import { convert } from './index';
import { roundTrip } from './roundtrip.test-helper';

const metadata = { name: 'web.16b', namespace: 'default', resourceVersion: '12' };
const ref = { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1', apiVersion: 'v1', resourceVersion: '5' };
const related = { kind: 'Node', name: 'n1', apiVersion: 'v1' };
const series = { count: 4, lastObservedTime: '2021-01-01T00:00:05.000000Z' };

const core = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata,
  involvedObject: ref,
  reason: 'Pulled',
  message: 'pulled image',
  source: { component: 'kubelet', host: 'n1' },
  firstTimestamp: '2021-01-01T00:00:00Z',
  lastTimestamp: '2021-01-01T00:00:05Z',
  count: 4,
  type: 'Normal',
  eventTime: '2021-01-01T00:00:00.000000Z',
  series,
  action: 'Pull',
  related,
  reportingComponent: 'kubelet',
  reportingInstance: 'n1',
};

const eventsForm = (apiVersion: string) => ({
  apiVersion,
  kind: 'Event',
  metadata,
  eventTime: '2021-01-01T00:00:00.000000Z',
  series,
  reportingController: 'kubelet',
  reportingInstance: 'n1',
  action: 'Pull',
  reason: 'Pulled',
  regarding: ref,
  related,
  note: 'pulled image',
  type: 'Normal',
  deprecatedSource: { component: 'kubelet', host: 'n1' },
  deprecatedFirstTimestamp: '2021-01-01T00:00:00Z',
  deprecatedLastTimestamp: '2021-01-01T00:00:05Z',
  deprecatedCount: 4,
});

describe('Event core/v1 <-> events.k8s.io v1 / v1beta1', () => {
  it('maps every field, in the target Go field order', () => {
    expect(JSON.stringify(convert(core, 'v1', 'events.k8s.io/v1'))).toBe(JSON.stringify(eventsForm('events.k8s.io/v1')));
    expect(JSON.stringify(convert(eventsForm('events.k8s.io/v1beta1'), 'events.k8s.io/v1beta1', 'v1'))).toBe(JSON.stringify(core));
  });

  it('round-trips through core storage for every pair', () => {
    expect(roundTrip(core, 'v1', 'v1', 'events.k8s.io/v1')).toEqual(core);
    expect(roundTrip(core, 'v1', 'v1', 'events.k8s.io/v1beta1')).toEqual(core);
    const v1 = eventsForm('events.k8s.io/v1');
    expect(roundTrip(v1, 'events.k8s.io/v1', 'v1', 'events.k8s.io/v1beta1')).toEqual(v1);
    const beta = eventsForm('events.k8s.io/v1beta1');
    expect(roundTrip(beta, 'events.k8s.io/v1beta1', 'v1', 'events.k8s.io/v1')).toEqual(beta);
  });

  it('keeps nulls a server wrote for unset times', () => {
    const sparse = { apiVersion: 'v1', kind: 'Event', metadata, involvedObject: ref, firstTimestamp: null, eventTime: null };
    expect(convert(sparse, 'v1', 'events.k8s.io/v1')).toEqual({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata,
      eventTime: null,
      regarding: ref,
      deprecatedFirstTimestamp: null,
    });
  });
});
