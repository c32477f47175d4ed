import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const P = '/api/v1/namespaces/default/pods';
const pod = (name: string, containers: object[], extra: object = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName: 'node-1', containers, ...extra } });
const log = (name: string, query = '') => t!.get(`${P}/${name}/log${query}`);

describe('pods/log on simulated nodes', () => {
  it('prints an nginx-like start-up, the same every time, with tailLines, timestamps, limitBytes and sinceSeconds', async () => {
    t = await startCluster('nodes,kubelet', { kubeletDelayMs: 2000 });
    await t.post(P, pod('web', [{ name: 'nginx', image: 'nginx:1.25.3' }]));
    await t.settle();
    // Not started yet: the kubelet's answer, relayed as a 400.
    const waiting = await log('web');
    expect(waiting.status).toBe(400);
    expect(waiting.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: 'container "nginx" in pod "web" is waiting to start: ContainerCreating' });
    await t.advance(2000);
    const full = await log('web');
    expect(full.status).toBe(200);
    expect(full.headers['content-type'] ?? full.headers['Content-Type']).toBe('text/plain');
    const lines = full.text.split('\n');
    expect(lines[0]).toBe('/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration');
    expect(lines).toContain('2022/01/01 00:00:02 [notice] 1#1: nginx/1.25.3');
    expect((await log('web')).text).toBe(full.text);
    expect((await log('web', '?tailLines=2')).text).toBe('2022/01/01 00:00:02 [notice] 1#1: start worker processes\n2022/01/01 00:00:02 [notice] 1#1: start worker process 29\n');
    expect((await log('web', '?tailLines=1&timestamps=true')).text).toBe('2022-01-01T00:00:02.012Z 2022/01/01 00:00:02 [notice] 1#1: start worker process 29\n');
    expect((await log('web', '?limitBytes=14')).text).toBe('/docker-entryp');
    await t.advance(60_000);
    expect((await log('web', '?sinceSeconds=10')).text).toBe('');
  });

  it('chooses the container as kube does, and reads the previous run of a crash-looping one', async () => {
    t = await startCluster('nodes,kubelet', { kubeletDelayMs: 0 });
    await t.post(P, pod('two', [{ name: 'app', image: 'example/app:1.0', ports: [{ containerPort: 9000 }] }, { name: 'crash', image: 'busybox:crash-loop' }]));
    await t.advance(2500);
    expect((await log('two')).json.message).toBe('a container name must be specified for pod two, choose one of: [app crash]');
    expect((await log('two', '?container=app')).text).toBe('starting app (image example/app:1.0)\npod default/two on node node-1\nlistening on 0.0.0.0:9000\nready\n');
    expect((await log('two', '?container=crash')).text).toBe('starting crash (attempt 2)\nloading configuration from /etc/app/config.yaml\nfatal: simulated crash (image busybox:crash-loop); exiting with code 1\n');
    // In CrashLoopBackOff, the log is the last crashed run's, with or without previous.
    expect((await log('two', '?container=crash&previous=true')).text).toMatch(/^starting crash \(attempt 2\)\n/);
    await t.advance(10_000);
    expect((await log('two', '?container=crash')).text).toMatch(/^starting crash \(attempt 3\)\n/);
    expect((await log('two', '?container=crash&previous=true')).text).toMatch(/^starting crash \(attempt 2\)\n/);
    const noPrevious = await log('two', '?container=app&previous=true');
    expect(noPrevious.status).toBe(400);
    expect(noPrevious.json.message).toBe('previous terminated container "app" in pod "two" not found');
  });

  it('says why an image that cannot be pulled has no log', async () => {
    t = await startCluster('nodes,kubelet', { kubeletDelayMs: 0 });
    await t.post(P, pod('nopull', [{ name: 'app', image: 'nginx:pull-error' }]));
    await t.settle();
    expect((await log('nopull')).json.message).toBe('container "app" in pod "nopull" is waiting to start: image can\'t be pulled');
    await t.advance(1000);
    expect((await log('nopull')).json.message).toBe('container "app" in pod "nopull" is waiting to start: trying and failing to pull image');
  });

  it('validates the options first, as PodLogOptions (422), and bad numbers as 400', async () => {
    t = await startCluster('nodes,kubelet', { kubeletDelayMs: 0 });
    const bad = await log('ghost', '?tailLines=-1');
    expect(bad.status).toBe(422);
    expect(bad.json.message).toBe('PodLogOptions "ghost" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0');
    expect((await log('ghost', '?limitBytes=0')).json.message).toBe('PodLogOptions "ghost" is invalid: limitBytes: Invalid value: 0: must be greater than 0');
    const nan = await log('ghost', '?limitBytes=x');
    expect(nan.status).toBe(400);
    expect(nan.json.message).toBe('strconv.ParseInt: parsing "x": invalid syntax');
    expect((await log('ghost')).status).toBe(404);
  });
});
