import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';
import { ApiClient } from './client';
import { controllerServiceAccount } from './controller';
import { EventRecorder } from './events';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const EVENTS = '/api/v1/namespaces/default/events';
const writes = (verb: string) => t!.api.audit!.events().filter((e) => e.verb === verb && e.objectRef?.resource === 'events' && e.stage === 'ResponseComplete').length;

describe('EventRecorder', () => {
  it('writes a repeat as a strategic merge patch of count and lastTimestamp, and creates the event again when it was deleted', async () => {
    t = await startCluster('podgc');
    const client = new ApiClient(t.api.handle.bind(t.api), controllerServiceAccount('job-controller'));
    const recorder = new EventRecorder(client, t.clock, 'job-controller');
    const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'pi', namespace: 'default', uid: 'u-1' } };
    await recorder.record(job, 'Warning', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit');
    t.clock.advance(3000);
    await recorder.record(job, 'Warning', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit');
    let items = (await t.get(EVENTS)).json.items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ count: 2, firstTimestamp: '2022-01-01T00:00:00Z', lastTimestamp: '2022-01-01T00:00:03Z', source: { component: 'job-controller' } });
    expect(items[0].metadata.name).toMatch(/^pi\.[0-9a-f]{16}$/);
    expect(writes('patch')).toBe(1);
    await t.del(`${EVENTS}/${items[0].metadata.name}`);
    await recorder.record(job, 'Warning', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit');
    items = (await t.get(EVENTS)).json.items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ count: 3, firstTimestamp: '2022-01-01T00:00:00Z', lastTimestamp: '2022-01-01T00:00:03Z' });
  });

  it('a ReplicaSet of 100 pods leaves kube\'s 10 SuccessfulCreate events: 9, then one combined event counted up to the budget of 25 writes', async () => {
    t = await startCluster('replicaset');
    await t.post('/apis/apps/v1/namespaces/default/replicasets', {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'big' },
      spec: { replicas: 100, selector: { matchLabels: { app: 'big' } }, template: { metadata: { labels: { app: 'big' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    await t.settle();
    expect((await t.get('/api/v1/namespaces/default/pods')).json.items).toHaveLength(100);
    const items = (await t.get(`${EVENTS}?fieldSelector=involvedObject.kind%3DReplicaSet`)).json.items as any[];
    expect(items).toHaveLength(10);
    const combined = items.filter((e) => e.message.startsWith('(combined from similar events): Created pod: big-'));
    expect(combined).toHaveLength(1);
    expect(combined[0].count).toBe(16);
    expect(items.filter((e) => e.count === 1 && /^Created pod: big-[a-z0-9]{5}$/.test(e.message))).toHaveLength(9);
    expect(writes('create')).toBe(10);
    expect(writes('patch')).toBe(15);
  });
});
