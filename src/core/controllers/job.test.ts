import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const JOBS = '/apis/batch/v1/namespaces/default/jobs';
const job = (name: string, spec: Record<string, unknown> = {}, command?: string[]) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name },
  spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', ...(command ? { command } : {}) }] } }, ...spec },
});
const getJob = async (name: string) => (await t!.get(`${JOBS}/${name}`)).json;
const pods = async () => (await t!.get('/api/v1/namespaces/default/pods')).json.items as any[];
const events = async (name: string) =>
  ((await t!.get(`/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3D${name}`)).json.items as any[]).map((e) => [e.type, e.reason, e.message]);

describe('job controller', () => {
  it('runs a Job to completion: pods labelled and owned, status and Complete condition as v1.23 writes them', async () => {
    t = await startCluster('*', { kubeletDelayMs: 1000, jobRunMs: 2000 });
    await t.post(JOBS, job('pi', { completions: 2, parallelism: 1 }));
    await t.settle();
    let j = await getJob('pi');
    const ps = await pods();
    expect(ps).toHaveLength(1);
    expect(ps[0].metadata.generateName).toBe('pi-');
    expect(ps[0].metadata.labels).toEqual({ 'controller-uid': j.metadata.uid, 'job-name': 'pi' });
    expect(ps[0].metadata.ownerReferences).toEqual([{ apiVersion: 'batch/v1', kind: 'Job', name: 'pi', uid: j.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(ps[0].metadata.finalizers).toBeUndefined();
    expect(j.status).toEqual({ startTime: '2022-01-01T00:00:00Z', active: 1 });
    await t.advance(3000);
    j = await getJob('pi');
    expect(j.status).toEqual({ startTime: '2022-01-01T00:00:00Z', active: 1, succeeded: 1 });
    await t.advance(3000);
    j = await getJob('pi');
    expect(j.status).toEqual({
      conditions: [{ type: 'Complete', status: 'True', lastProbeTime: '2022-01-01T00:00:06Z', lastTransitionTime: '2022-01-01T00:00:06Z' }],
      startTime: '2022-01-01T00:00:00Z',
      completionTime: '2022-01-01T00:00:06Z',
      succeeded: 2,
    });
    expect(j.status.uncountedTerminatedPods).toBeUndefined();
    expect((await events('pi')).map((e) => e[1]).sort()).toEqual(['Completed', 'SuccessfulCreate', 'SuccessfulCreate']);
    const statusManagers = j.metadata.managedFields.filter((m: any) => m.subresource === 'status').map((m: any) => [m.manager, m.operation]);
    expect(statusManagers).toEqual([['kube-controller-manager', 'Update']]);
    const users = new Set(t.api.audit!.events().filter((e) => e.objectRef?.resource === 'jobs' && e.objectRef.subresource === 'status').map((e) => e.user.username));
    expect(users).toEqual(new Set(['system:serviceaccount:kube-system:job-controller']));
  });

  it('runs up to parallelism pods at a time and no more than the completions left', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0, jobRunMs: 1000 });
    await t.post(JOBS, job('par', { completions: 5, parallelism: 3 }));
    await t.settle();
    expect((await getJob('par')).status.active).toBe(3);
    await t.advance(1000);
    expect((await getJob('par')).status).toMatchObject({ active: 2, succeeded: 3 });
    await t.advance(1000);
    const j = await getJob('par');
    expect(j.status).toMatchObject({ succeeded: 5 });
    expect(j.status.active).toBeUndefined();
    expect(j.status.conditions[0].type).toBe('Complete');
  });

  it('replaces failed pods after an exponential back-off and fails with BackoffLimitExceeded', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0, jobRunMs: 1000 });
    await t.post(JOBS, job('bad', { backoffLimit: 2 }, ['sh', '-c', 'exit 1']));
    await t.advance(1000);
    expect((await getJob('bad')).status).toEqual({ startTime: '2022-01-01T00:00:00Z', failed: 1 });
    await t.advance(9999);
    expect(await pods()).toHaveLength(1);
    await t.advance(1);
    expect((await getJob('bad')).status).toMatchObject({ active: 1, failed: 1 });
    await t.advance(1000 + 20_000);
    expect((await getJob('bad')).status).toMatchObject({ active: 1, failed: 2 });
    await t.advance(1000);
    const j = await getJob('bad');
    expect(j.status.failed).toBe(3);
    expect(j.status.conditions).toEqual([
      { type: 'Failed', status: 'True', lastProbeTime: '2022-01-01T00:00:33Z', lastTransitionTime: '2022-01-01T00:00:33Z', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' },
    ]);
    expect(j.status.completionTime).toBeUndefined();
    expect(await events('bad')).toContainEqual(['Warning', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit']);
    await t.advance(600_000);
    expect(await pods()).toHaveLength(3);
  });

  it('counts container restarts against backoffLimit with restartPolicy OnFailure', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0, jobRunMs: 1000 });
    const j = job('flaky', { backoffLimit: 1 }, ['sh', '-c', 'exit 1']);
    (j.spec.template as any).spec.restartPolicy = 'OnFailure';
    await t.post(JOBS, j);
    await t.advance(1000);
    const s = (await getJob('flaky')).status;
    expect(s.conditions[0]).toMatchObject({ type: 'Failed', reason: 'BackoffLimitExceeded' });
    expect(s.failed).toBe(1);
    expect(await pods()).toHaveLength(0);
  });

  it('fails a Job past activeDeadlineSeconds and deletes its running pods', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0, jobRunMs: 60_000 });
    await t.post(JOBS, job('slow', { activeDeadlineSeconds: 10 }));
    await t.advance(9999);
    expect((await getJob('slow')).status.active).toBe(1);
    await t.advance(1);
    const s = (await getJob('slow')).status;
    expect(s).toEqual({
      conditions: [{ type: 'Failed', status: 'True', lastProbeTime: '2022-01-01T00:00:10Z', lastTransitionTime: '2022-01-01T00:00:10Z', reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' }],
      startTime: '2022-01-01T00:00:00Z',
      failed: 1,
    });
    expect(await pods()).toHaveLength(0);
    expect((await events('slow')).map((e) => e[1]).sort()).toEqual(['DeadlineExceeded', 'SuccessfulCreate', 'SuccessfulDelete']);
  });

  it('gives an Indexed Job one pod per index, with the annotation, hostname and env, and reports completedIndexes', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0, jobRunMs: 1000 });
    await t.post(JOBS, job('idx', { completions: 4, parallelism: 2, completionMode: 'Indexed' }));
    await t.settle();
    const ps = (await pods()).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
    expect(ps.map((p) => [p.metadata.generateName, p.metadata.annotations['batch.kubernetes.io/job-completion-index'], p.spec.hostname])).toEqual([
      ['idx-0-', '0', 'idx-0'],
      ['idx-1-', '1', 'idx-1'],
    ]);
    expect(ps[0].spec.containers[0].env).toEqual([{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } } }]);
    await t.advance(1000);
    expect((await getJob('idx')).status).toMatchObject({ active: 2, succeeded: 2, completedIndexes: '0-1' });
    await t.advance(1000);
    const s = (await getJob('idx')).status;
    expect(s).toMatchObject({ succeeded: 4, completedIndexes: '0-3' });
    expect(s.conditions[0].type).toBe('Complete');
  });

  it('suspends (deleting active pods, Suspended condition) and resumes', async () => {
    t = await startCluster('*', { kubeletDelayMs: 0, jobRunMs: 10_000 });
    await t.post(JOBS, job('sus', { parallelism: 2, completions: 2 }));
    await t.settle();
    await t.patch(`${JOBS}/sus`, { spec: { suspend: true } });
    await t.settle();
    let j = await getJob('sus');
    expect(await pods()).toHaveLength(0);
    expect(j.status.conditions).toEqual([{ type: 'Suspended', status: 'True', lastProbeTime: '2022-01-01T00:00:00Z', lastTransitionTime: '2022-01-01T00:00:00Z', reason: 'JobSuspended', message: 'Job suspended' }]);
    await t.advance(5000);
    await t.patch(`${JOBS}/sus`, { spec: { suspend: false } });
    await t.settle();
    j = await getJob('sus');
    expect(j.status.conditions[0]).toMatchObject({ type: 'Suspended', status: 'False', reason: 'JobResumed', message: 'Job resumed', lastTransitionTime: '2022-01-01T00:00:05Z' });
    expect(j.status.startTime).toBe('2022-01-01T00:00:05Z');
    expect(j.status.active).toBe(2);
    expect((await events('sus')).map((e) => e[1]).sort()).toEqual(['Resumed', 'SuccessfulCreate', 'SuccessfulCreate', 'SuccessfulCreate', 'SuccessfulCreate', 'SuccessfulDelete', 'SuccessfulDelete', 'Suspended']);
  });
});
