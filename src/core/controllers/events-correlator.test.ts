import { describe, expect, it } from 'vitest';
import { VirtualClock } from './clock';
import { EventCorrelator, eventName, type Correlation } from './events-correlator';
import { coreEvent } from './events';

const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web', namespace: 'default', uid: 'u-1', resourceVersion: '7' } };
const source = { component: 'replicaset-controller' };

function setup() {
  const clock = new VirtualClock(Date.UTC(2022, 0, 1));
  const correlator = new EventCorrelator(clock);
  /** Correlates one event and, as the recorder does after a write, tells the correlator what the server kept. */
  const occur = (message: string, reason = 'SuccessfulCreate', involved: any = rs): Correlation => {
    const r = correlator.correlate(coreEvent(involved, 'Normal', reason, message, source, clock.now()));
    if (!r.skip) correlator.written({ ...r.event, metadata: { ...r.event.metadata, resourceVersion: '100' } });
    return r;
  };
  return { clock, occur };
}

describe('EventCorrelator (client-go v1.23 events_cache.go)', () => {
  it('names events <object>.<hex UnixNano>, distinct within one millisecond', () => {
    const ms = Date.UTC(2022, 0, 1);
    const a = eventName('web', ms);
    const b = eventName('web', ms);
    expect(a).toBe(`web.${(BigInt(ms) * 1_000_000n).toString(16)}`);
    expect(a).toBe('web.16c5fc70a61f0000');
    expect(b).toBe('web.16c5fc70a61f0001');
  });

  it('creates nine events that differ by message, then one "(combined from similar events)" event that later ones patch', () => {
    const { occur } = setup();
    const results = Array.from({ length: 12 }, (_, i) => occur(`Created pod: web-${i}`));
    for (const r of results.slice(0, 9)) expect(r).toMatchObject({ skip: false, event: { count: 1 } });
    for (const r of results.slice(0, 9)) expect((r as any).patch).toBeUndefined();
    const tenth = results[9] as any;
    expect(tenth.patch).toBeUndefined();
    expect(tenth.event).toMatchObject({ message: '(combined from similar events): Created pod: web-9', count: 1, reason: 'SuccessfulCreate', type: 'Normal', source });
    const name = tenth.event.metadata.name;
    expect((results[10] as any).event.metadata.name).toBe(name);
    expect((results[10] as any).patch).toEqual({ count: 2, lastTimestamp: '2022-01-01T00:00:00Z', message: '(combined from similar events): Created pod: web-10' });
    expect((results[11] as any).patch).toMatchObject({ count: 3 });
  });

  it('starts aggregating afresh after ten quiet minutes, not before', () => {
    const { clock, occur } = setup();
    for (let i = 0; i < 8; i++) occur(`m${i}`);
    clock.advance(600_000);
    expect((occur('m8') as any).event.count).toBe(1);
    expect((occur('m9') as any).event.message).toBe('(combined from similar events): m9');
    clock.advance(600_001);
    expect((occur('m10') as any).event.message).toBe('m10');
  });

  it('patches count and lastTimestamp of an identical event, keeping the first name and firstTimestamp', () => {
    const { clock, occur } = setup();
    const first = occur('Back-off restarting failed container', 'BackOff') as any;
    clock.advance(42_000);
    const again = occur('Back-off restarting failed container', 'BackOff') as any;
    expect(again.event.metadata.name).toBe(first.event.metadata.name);
    expect(again.event.firstTimestamp).toBe('2022-01-01T00:00:00Z');
    expect(again.patch).toEqual({ count: 2, lastTimestamp: '2022-01-01T00:00:42Z', message: 'Back-off restarting failed container' });
  });

  it('lets a source write 25 events about an object, drops the 26th, and refills one every 5 minutes', () => {
    const { clock, occur } = setup();
    const results = Array.from({ length: 26 }, () => occur('same'));
    expect(results.slice(0, 25).every((r) => !r.skip)).toBe(true);
    expect(results[25]).toEqual({ skip: true });
    // Another object has a bucket of its own.
    expect(occur('same', 'SuccessfulCreate', { ...rs, metadata: { ...rs.metadata, name: 'db', uid: 'u-2' } }).skip).toBe(false);
    clock.advance(299_000);
    expect(occur('same').skip).toBe(true);
    clock.advance(1_000);
    const refilled = occur('same') as any;
    // The dropped occurrences were counted all the same, as kube's logger does before the filter.
    expect(refilled.patch.count).toBe(28);
    expect(occur('same').skip).toBe(true);
  });
});
