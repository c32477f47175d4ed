import { afterEach, describe, expect, it } from 'vitest';
import { plannedRun } from './kubelet-completion';
import { startCluster, type ClusterTest } from '../testing/controllers';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const PODS = '/api/v1/namespaces/default/pods';
const pod = (name: string, restartPolicy: string, command?: string[]) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { nodeName: 'node-1', restartPolicy, containers: [{ name: 'main', image: 'busybox', ...(command ? { command } : {}) }] },
});
const get = async (name: string) => (await t!.get(`${PODS}/${name}`)).json;

describe('run-to-completion pods in the simulated kubelet', () => {
  it('reads the run time and exit code from sleep/exit in the command line', () => {
    expect(plannedRun({ name: 'c' }, 1000)).toEqual({ runMs: 1000, exitCode: 0 });
    expect(plannedRun({ name: 'c', command: ['sh', '-c', 'sleep 5; exit 3'] }, 1000)).toEqual({ runMs: 5000, exitCode: 3 });
    expect(plannedRun({ name: 'c', command: ['sleep'], args: ['2.5'] }, 1000)).toEqual({ runMs: 2500, exitCode: 0 });
  });

  it('a restartPolicy Never pod succeeds after the run time, with the kubelet\'s Completed and PodCompleted', async () => {
    t = await startCluster('nodes,kubelet', { kubeletDelayMs: 1000, jobRunMs: 2000 });
    await t.post(PODS, pod('done', 'Never'));
    await t.advance(1000);
    expect((await get('done')).status.phase).toBe('Running');
    await t.advance(1999);
    expect((await get('done')).status.phase).toBe('Running');
    await t.advance(1);
    const p = await get('done');
    expect(p.status.phase).toBe('Succeeded');
    expect(p.status.conditions.map((c: any) => [c.type, c.status, c.reason])).toEqual([
      ['Initialized', 'True', 'PodCompleted'],
      ['Ready', 'False', 'PodCompleted'],
      ['ContainersReady', 'False', 'PodCompleted'],
      ['PodScheduled', 'True', undefined],
    ]);
    const [cs] = p.status.containerStatuses;
    expect(cs).toMatchObject({ name: 'main', ready: false, started: false, restartCount: 0, image: 'docker.io/library/busybox:latest' });
    expect(cs.state.terminated).toEqual({ exitCode: 0, reason: 'Completed', startedAt: '2022-01-01T00:00:01Z', finishedAt: '2022-01-01T00:00:03Z', containerID: cs.containerID });
    expect(p.status.podIP).toMatch(/^10\.244\.0\./);
    const managers = p.metadata.managedFields.map((m: any) => [m.manager, m.subresource]);
    expect(managers).toContainEqual(['kubelet', 'status']);
  });

  it('exit N fails a Never pod with that code; a restartPolicy Always pod keeps running', async () => {
    t = await startCluster('nodes,kubelet', { kubeletDelayMs: 0 });
    await t.post(PODS, pod('bad', 'Never', ['sh', '-c', 'exit 2']));
    await t.post(PODS, pod('web', 'Always'));
    await t.advance(10_000);
    const bad = await get('bad');
    expect(bad.status.phase).toBe('Failed');
    expect(bad.status.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 2, reason: 'Error' });
    expect(bad.status.conditions.find((c: any) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [main]' });
    expect((await get('web')).status.phase).toBe('Running');
  });

  it('an OnFailure pod that fails restarts its container after the crash back-off, counting restarts', async () => {
    t = await startCluster('nodes,kubelet', { kubeletDelayMs: 0, jobRunMs: 1000 });
    await t.post(PODS, pod('flaky', 'OnFailure', ['sh', '-c', 'exit 1']));
    await t.advance(1000);
    let p = await get('flaky');
    expect(p.status.phase).toBe('Running');
    expect(p.status.containerStatuses[0]).toMatchObject({ restartCount: 1, ready: false, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, reason: 'Error' } } });
    expect(p.status.containerStatuses[0].state.waiting.message).toBe(`back-off 10s restarting failed container=main pod=flaky_default(${p.metadata.uid})`);
    await t.advance(10_000);
    p = await get('flaky');
    expect(p.status.containerStatuses[0]).toMatchObject({ restartCount: 1, ready: true, state: { running: {} } });
    await t.advance(1000);
    expect((await get('flaky')).status.containerStatuses[0]).toMatchObject({ restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff' } } });
  });
});
