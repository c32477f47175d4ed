import { afterEach, describe, expect, it, vi } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';
import { ApiClient } from './client';
import { SCHEDULER } from './controller';
import { EventsV1Recorder } from './events-v1-recorder';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  vi.restoreAllMocks();
});

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', uid: 'u-1', resourceVersion: '42' } };

async function setup() {
  t = await startCluster('podgc');
  const recorder = new EventsV1Recorder(new ApiClient(t.api.handle.bind(t.api), SCHEDULER), t.clock, 'default-scheduler', 'playground-control-plane');
  return recorder;
}

describe('EventsV1Recorder (client-go tools/events, as kube-scheduler v1.23 records)', () => {
  it('writes an events.k8s.io/v1 event that core/v1 shows without source, timestamps or count', async () => {
    const recorder = await setup();
    await recorder.record(pod, undefined, 'Normal', 'Scheduled', 'Binding', 'Successfully assigned default/web to node-1');
    const items = (await t!.get('/api/v1/namespaces/default/events')).json.items;
    expect(items).toHaveLength(1);
    const { metadata, ...rest } = items[0];
    expect(metadata.name).toMatch(/^web\.[0-9a-f]{16}$/);
    expect(rest).toEqual({
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u-1', apiVersion: 'v1', resourceVersion: '42' },
      reason: 'Scheduled',
      message: 'Successfully assigned default/web to node-1',
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      type: 'Normal',
      eventTime: '2022-01-01T00:00:00.000000Z',
      action: 'Binding',
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-playground-control-plane',
    });
  });

  it('starts a series on the first repeat, which a v1.23 server rejects; the count reaches it when the series finishes', async () => {
    const recorder = await setup();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    await recorder.record(pod, undefined, 'Warning', 'FailedScheduling', 'Scheduling', '0/3 nodes are available.');
    t!.clock.advance(10_000);
    await recorder.record(pod, undefined, 'Warning', 'FailedScheduling', 'Scheduling', '0/3 nodes are available.');
    expect(errors.mock.calls.join('\n')).toContain('series.count');
    t!.clock.advance(10_000);
    await recorder.record(pod, undefined, 'Warning', 'FailedScheduling', 'Scheduling', '0/3 nodes are available.');
    let items = (await t!.get('/apis/events.k8s.io/v1/namespaces/default/events')).json.items;
    expect(items).toHaveLength(1);
    expect(items[0].series).toBeUndefined();
    // Six quiet minutes, then the next 6-minute tick writes the final count.
    await t!.advance(12 * 60_000);
    // The next write waits behind the final patch, so awaiting it awaits that too.
    await recorder.record({ ...pod, metadata: { ...pod.metadata, name: 'other', uid: 'u-2' } }, undefined, 'Normal', 'Scheduled', 'Binding', 'x');
    items = (await t!.get('/apis/events.k8s.io/v1/namespaces/default/events?fieldSelector=regarding.name%3Dweb')).json.items;
    expect(items).toHaveLength(1);
    expect(items[0].series).toEqual({ count: 2, lastObservedTime: '2022-01-01T00:00:20.000000Z' });
  });
});
