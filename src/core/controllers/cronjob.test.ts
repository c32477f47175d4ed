import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const CJ = '/apis/batch/v1/namespaces/default/cronjobs';
const JOBS = '/apis/batch/v1/namespaces/default/jobs';
const cronJob = (name: string, schedule: string, spec: Record<string, unknown> = {}, command?: string[]) => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name },
  spec: {
    schedule,
    jobTemplate: { metadata: { labels: { team: 'a' } }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', ...(command ? { command } : {}) }] } } } },
    ...spec,
  },
});
const jobs = async () => ((await t!.get(JOBS)).json.items as any[]).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
const getCj = async (name: string) => (await t!.get(`${CJ}/${name}`)).json;
const reasons = async (name: string) =>
  ((await t!.get(`/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3D${name}`)).json.items as any[]).map((e) => e.reason).sort();
// The virtual clock starts at 2022-01-01T00:00:00Z: Unix minute 27349920.
const MINUTE0 = 27349920;

describe('cronjob controller', () => {
  it('creates a Job named after the scheduled minute, tracks it in status.active, then records its success', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0, jobRunMs: 5000 });
    await t.post(CJ, cronJob('tick', '*/1 * * * *'));
    await t.advance(59_000);
    expect(await jobs()).toHaveLength(0);
    await t.advance(1_100);
    const [j] = await jobs();
    const cj = await getCj('tick');
    expect(j.metadata.name).toBe(`tick-${MINUTE0 + 1}`);
    expect(j.metadata.labels).toMatchObject({ team: 'a' });
    expect(j.metadata.ownerReferences).toEqual([{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'tick', uid: cj.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(cj.status).toEqual({
      active: [{ kind: 'Job', namespace: 'default', name: j.metadata.name, uid: j.metadata.uid, apiVersion: 'batch/v1', resourceVersion: expect.stringMatching(/^\d+$/) }],
      lastScheduleTime: '2022-01-01T00:01:00Z',
    });
    await t.advance(10_000);
    expect((await getCj('tick')).status).toEqual({ lastScheduleTime: '2022-01-01T00:01:00Z', lastSuccessfulTime: '2022-01-01T00:01:05Z' });
    expect(await reasons('tick')).toEqual(['SawCompletedJob', 'SuccessfulCreate']);
    const managers = (await getCj('tick')).metadata.managedFields.filter((m: any) => m.subresource === 'status').map((m: any) => m.manager);
    expect(managers).toEqual(['kube-controller-manager']);
  });

  it('keeps successfulJobsHistoryLimit finished Jobs, deleting the oldest', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0, jobRunMs: 1000 });
    await t.post(CJ, cronJob('hist', '* * * * *', { successfulJobsHistoryLimit: 2 }));
    await t.advance(4 * 60_000 + 10_000);
    expect((await jobs()).map((j) => j.metadata.name)).toEqual([`hist-${MINUTE0 + 3}`, `hist-${MINUTE0 + 4}`]);
    expect((await reasons('hist')).filter((r) => r === 'SuccessfulDelete')).toHaveLength(2);
  });

  it('Forbid skips a run while one is active; Replace deletes the active Job for the new one', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0, jobRunMs: 90_000 });
    await t.post(CJ, cronJob('forbid', '* * * * *', { concurrencyPolicy: 'Forbid' }));
    await t.post(CJ, cronJob('replace', '* * * * *', { concurrencyPolicy: 'Replace' }));
    await t.advance(2 * 60_000 + 1000);
    const names = (await jobs()).map((j) => j.metadata.name);
    expect(names).toEqual([`forbid-${MINUTE0 + 1}`, `replace-${MINUTE0 + 2}`]);
    expect(await reasons('forbid')).toContain('JobAlreadyActive');
    expect(await reasons('replace')).toEqual(['SuccessfulCreate', 'SuccessfulCreate', 'SuccessfulDelete']);
    expect((await getCj('replace')).status.active.map((a: any) => a.name)).toEqual([`replace-${MINUTE0 + 2}`]);
  });

  it('does nothing while suspended, and catches up only within startingDeadlineSeconds', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0 });
    await t.post(CJ, cronJob('late', '*/10 * * * *', { suspend: true, startingDeadlineSeconds: 30 }));
    await t.advance(10 * 60_000 + 40_000);
    expect(await jobs()).toHaveLength(0);
    await t.patch(CJ + '/late', { spec: { suspend: false } });
    await t.settle();
    // 00:10 was 40 s ago, beyond the 30 s deadline: skipped.
    expect(await jobs()).toHaveLength(0);
    await t.patch(CJ + '/late', { spec: { startingDeadlineSeconds: 60 } });
    await t.settle();
    expect((await jobs()).map((j) => j.metadata.name)).toEqual([`late-${MINUTE0 + 10}`]);
  });

  it('reports a schedule it cannot run as a Warning event', async () => {
    t = await startCluster('*');
    await t.post(CJ, cronJob('never', '0 0 30 2 *'));
    await t.settle();
    const ev = (await t.get('/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dnever')).json.items;
    expect(ev.map((e: any) => [e.type, e.reason, e.message])).toEqual([['Warning', 'InvalidSchedule', 'invalid schedule: 0 0 30 2 * : time difference between two schedules less than 1 second']]);
  });
});

describe('ttl-after-finished controller', () => {
  it('deletes a finished Job ttlSecondsAfterFinished after it finished, with its pods', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0, jobRunMs: 1000 });
    await t.post(JOBS, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'short' }, spec: { ttlSecondsAfterFinished: 30, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } } });
    await t.advance(1000);
    expect((await t.get(`${JOBS}/short`)).json.status.completionTime).toBe('2022-01-01T00:00:01Z');
    await t.advance(29_999);
    expect((await t.get(`${JOBS}/short`)).status).toBe(200);
    await t.advance(1);
    expect((await t.get(`${JOBS}/short`)).status).toBe(404);
    expect((await t.get('/api/v1/namespaces/default/pods')).json.items).toHaveLength(0);
    const deletes = t.api.audit!.events().filter((e) => e.verb === 'delete' && e.objectRef?.resource === 'jobs').map((e) => e.user.username);
    expect(deletes).toEqual(['system:serviceaccount:kube-system:ttl-after-finished-controller']);
  });
});

describe('batch controllers with RBAC on', () => {
  it('the job, cronjob, ttl-after-finished and podgc service accounts need nothing beyond their bootstrap roles', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0, jobRunMs: 1000, terminatedPodGCThreshold: 1 }, { authorization: 'RBAC' });
    await t.post(CJ, cronJob('tick', '* * * * *', { jobTemplate: { spec: { ttlSecondsAfterFinished: 90, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } } } }));
    await t.advance(3 * 60_000 + 5000);
    const names = (await jobs()).map((j) => j.metadata.name);
    // Jobs of minutes 1 and 2 outlived their 90 s TTL; minute 3's is still there.
    expect(names).toEqual([`tick-${MINUTE0 + 2}`, `tick-${MINUTE0 + 3}`]);
    const denied = t.api.audit!.events().filter((e) => e.responseStatus?.code === 403).map((e) => [e.user.username, e.verb, e.objectRef?.resource]);
    expect(denied).toEqual([]);
    const users = new Set(t.api.audit!.events().filter((e) => e.verb === 'delete').map((e) => e.user.username));
    // (The garbage collector removes the pods of deleted Jobs in process, decision 0016: no API delete.)
    expect(users).toEqual(new Set(['system:serviceaccount:kube-system:ttl-after-finished-controller', 'system:serviceaccount:kube-system:pod-garbage-collector']));
  });
});
