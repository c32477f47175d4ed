import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';
import { failureModeOfImage } from './kubelet-failures';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const P = '/api/v1/namespaces/default/pods';
const pod = (name: string, image: string, extra: object = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName: 'node-1', containers: [{ name: 'app', image, ...extra }] } });
const get = async (name: string) => (await t!.get(`${P}/${name}`)).json;
const events = async (name: string) =>
  ((await t!.get('/api/v1/namespaces/default/events')).json.items as any[])
    .filter((e) => e.involvedObject.name === name)
    // In the order they were first recorded (names end in the hex of the time), repeats counted on the first (count).
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))
    .map((e) => (e.count > 1 ? [e.type, e.reason, e.message, e.count] : [e.type, e.reason, e.message]));

describe('failure images', () => {
  it('are chosen by the tag (or its -suffix)', () => {
    expect(failureModeOfImage('busybox:crash-loop')).toBe('crash-loop');
    expect(failureModeOfImage('registry.local:5000/team/app:1.2-pull-error')).toBe('pull-error');
    expect(failureModeOfImage('nginx:never-ready')).toBe('never-ready');
    expect(failureModeOfImage('crash-loop/nginx:1.25')).toBeUndefined();
    expect(failureModeOfImage('nginx')).toBeUndefined();
  });

  it('crash-loop: exits 1 after 1 s, restarts at once, then backs off 10 s, 20 s, … (CrashLoopBackOff)', async () => {
    t = await startCluster('nodes,kubelet', { kubeletDelayMs: 1000 });
    await t.post(P, pod('crash', 'busybox:crash-loop'));
    await t.advance(1000);
    let p = await get('crash');
    expect(p.status.phase).toBe('Running');
    expect(p.status.containerStatuses[0]).toMatchObject({ ready: true, restartCount: 0, state: { running: { startedAt: '2022-01-01T00:00:01Z' } }, lastState: {} });
    await t.advance(1000);
    p = await get('crash');
    // The first exit restarts at once.
    expect(p.status.containerStatuses[0]).toMatchObject({ restartCount: 1, state: { running: { startedAt: '2022-01-01T00:00:02Z' } }, lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: '2022-01-01T00:00:01Z', finishedAt: '2022-01-01T00:00:02Z' } } });
    await t.advance(1000);
    p = await get('crash');
    const cs = p.status.containerStatuses[0];
    expect(cs.state.waiting).toEqual({ reason: 'CrashLoopBackOff', message: `back-off 10s restarting failed container=app pod=crash_default(${p.metadata.uid})` });
    expect(cs).toMatchObject({ ready: false, restartCount: 1, started: false, lastState: { terminated: { exitCode: 1, finishedAt: '2022-01-01T00:00:03Z' } } });
    expect(p.status.phase).toBe('Running');
    expect(p.status.conditions.find((c: any) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [app]' });
    await t.advance(10_000);
    expect((await get('crash')).status.containerStatuses[0]).toMatchObject({ restartCount: 2, state: { running: { startedAt: '2022-01-01T00:00:13Z' } } });
    await t.advance(1000);
    expect((await get('crash')).status.containerStatuses[0].state.waiting.message).toMatch(/^back-off 20s restarting/);
    // Long after: the back-off tops out at 5 minutes.
    await t.advance(30 * 60_000);
    const late = (await get('crash')).status.containerStatuses[0];
    expect(late.restartCount).toBeGreaterThan(6);
    if (late.state.waiting) expect(late.state.waiting.message).toMatch(/^back-off 5m0s restarting/);
    const ev = await events('crash');
    expect(ev.slice(0, 4).map((e) => e.slice(0, 3))).toEqual([
      ['Normal', 'Pulling', 'Pulling image "busybox:crash-loop"'],
      ['Normal', 'Pulled', 'Successfully pulled image "busybox:crash-loop" in 1s'],
      ['Normal', 'Created', 'Created container app'],
      ['Normal', 'Started', 'Started container app'],
    ]);
    // Each restart repeats Created and Started: the kubelet's recorder counts them on the first ones,
    // until the pod's 25-event budget runs out (one more every 5 minutes), so not every restart shows.
    expect(ev[2][3]).toBeGreaterThan(2);
    expect(ev[2][3]).toBeLessThanOrEqual(late.restartCount + 1);
    expect(ev.map((e) => e.slice(0, 3))).toContainEqual(['Normal', 'Pulled', 'Container image "busybox:crash-loop" already present on machine']);
    expect(ev.map((e) => e.slice(0, 3))).toContainEqual(['Warning', 'BackOff', 'Back-off restarting failed container']);
    const source = ((await t.get('/api/v1/namespaces/default/events')).json.items as any[])[0].source;
    expect(source).toEqual({ component: 'kubelet', host: 'node-1' });
  });

  it('crash-loop with restartPolicy Never: the pod fails', async () => {
    t = await startCluster('nodes,kubelet', { kubeletDelayMs: 0 });
    const p = pod('once', 'busybox:crash-loop') as any;
    p.spec.restartPolicy = 'Never';
    await t.post(P, p);
    await t.advance(2000);
    const s = (await get('once')).status;
    expect(s.phase).toBe('Failed');
    expect(s.containerStatuses[0]).toMatchObject({ restartCount: 0, state: { terminated: { exitCode: 1, reason: 'Error' } } });
  });

  it('pull-error: ErrImagePull, then ImagePullBackOff, retried with back-off; the pod stays Pending', async () => {
    t = await startCluster('nodes,kubelet', { kubeletDelayMs: 0 });
    await t.post(P, pod('nopull', 'nginx:pull-error'));
    await t.settle();
    let p = await get('nopull');
    expect(p.status.phase).toBe('Pending');
    expect(p.status.podIP).toBe('10.244.0.2');
    expect(p.status.containerStatuses[0]).toEqual({
      name: 'app',
      state: { waiting: { reason: 'ErrImagePull', message: 'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:pull-error": failed to resolve reference "docker.io/library/nginx:pull-error": docker.io/library/nginx:pull-error: not found' } },
      lastState: {},
      ready: false,
      restartCount: 0,
      image: 'nginx:pull-error',
      imageID: '',
      started: false,
    });
    await t.advance(1000);
    p = await get('nopull');
    expect(p.status.containerStatuses[0].state).toEqual({ waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "nginx:pull-error"' } });
    await t.advance(10_000);
    expect((await get('nopull')).status.containerStatuses[0].state.waiting.reason).toBe('ErrImagePull');
    // The second pull's three events are repeats: counted (x2) on the first pull's.
    expect(await events('nopull')).toEqual([
      ['Normal', 'Pulling', 'Pulling image "nginx:pull-error"', 2],
      ['Warning', 'Failed', 'Failed to pull image "nginx:pull-error": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:pull-error": failed to resolve reference "docker.io/library/nginx:pull-error": docker.io/library/nginx:pull-error: not found', 2],
      ['Warning', 'Failed', 'Error: ErrImagePull', 2],
      ['Normal', 'BackOff', 'Back-off pulling image "nginx:pull-error"'],
      ['Warning', 'Failed', 'Error: ImagePullBackOff'],
    ]);
  });

  it('never-ready: Running, never Ready; Unhealthy when it has a readiness probe', async () => {
    t = await startCluster('nodes,kubelet', { kubeletDelayMs: 0 });
    await t.post(P, pod('shy', 'nginx:never-ready', { readinessProbe: { httpGet: { path: '/', port: 80 } } }));
    await t.advance(60_000);
    const p = await get('shy');
    expect(p.status.phase).toBe('Running');
    expect(p.status.containerStatuses[0]).toMatchObject({ ready: false, started: true, restartCount: 0, state: { running: {} } });
    expect(p.status.conditions.find((c: any) => c.type === 'Ready').status).toBe('False');
    expect((await events('shy')).map((e) => e[1])).toEqual(['Pulled', 'Created', 'Started', 'Unhealthy']);
  });
});
