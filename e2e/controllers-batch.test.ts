// Batch workloads with the real kubectl 1.34 and helm 4 against the Node host, on a clock sped up
// 60 times (a cluster minute per wall second): a Job runs to completion and `kubectl wait` sees
// it, a CronJob makes Jobs minute after minute, and helm's --wait and Job hooks finish.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, eventually, kubectlOk, startCluster } from './harness';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster(['--clock-speed', '60', '--kubelet-delay', '1s', '--job-run-time', '2s']);
});
afterAll(async () => {
  await c?.stop();
});

const ok = async (args: string[], stdin?: string): Promise<string> => (await kubectlOk(c, args, stdin)).stdout;
const json = async (args: string[]): Promise<any> => JSON.parse(await ok([...args, '-o', 'json']));

async function helm(args: string[]): Promise<string> {
  const r = await c.helm(args, { timeoutMs: 90_000 });
  if (r.code !== 0) throw new Error(`helm ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r.stdout;
}

describe('batch workloads', () => {
  it('a Job completes and kubectl wait --for=condition=complete returns', async () => {
    await ok(['create', 'job', 'pi', '--image=perl:5.34', '--', 'perl', '-Mbignum=bpi', '-wle', 'print bpi(50)']);
    expect(await ok(['wait', '--for=condition=complete', 'job/pi', '--timeout=30s'])).toContain('job.batch/pi condition met');
    const job = await json(['get', 'job', 'pi']);
    expect(job.status).toMatchObject({ succeeded: 1 });
    expect(job.status.conditions).toEqual([expect.objectContaining({ type: 'Complete', status: 'True' })]);
    expect(job.status.completionTime).toBeDefined();
    const pods = await json(['get', 'pods', '-l', 'job-name=pi']);
    expect(pods.items).toHaveLength(1);
    expect(pods.items[0].status.phase).toBe('Succeeded');
    expect(pods.items[0].status.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    // kubectl's table reads the same status.
    expect(await ok(['get', 'job', 'pi'])).toMatch(/^pi\s+1\/1\s+/m);
  });

  it('a failing Job ends Failed with BackoffLimitExceeded', async () => {
    const manifest = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'bad' },
      spec: { backoffLimit: 0, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'exit 3'] }] } } },
    };
    await ok(['apply', '-f', '-'], JSON.stringify(manifest));
    expect(await ok(['wait', '--for=condition=failed', 'job/bad', '--timeout=30s'])).toContain('job.batch/bad condition met');
    const job = await json(['get', 'job', 'bad']);
    expect(job.status.conditions[0]).toMatchObject({ type: 'Failed', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
  });

  it('a CronJob creates Jobs on the accelerated clock', async () => {
    await ok(['create', 'cronjob', 'tick', '--image=busybox', '--schedule=* * * * *', '--', 'date']);
    const jobs = await eventually(async () => {
      const list = await json(['get', 'jobs']);
      const mine = list.items.filter((j: any) => j.metadata.ownerReferences?.[0]?.name === 'tick');
      expect(mine.length).toBeGreaterThanOrEqual(2);
      return mine;
    }, 30_000);
    for (const j of jobs) expect(j.metadata.name).toMatch(/^tick-\d{8}$/);
    const cj = await eventually(async () => {
      const got = await json(['get', 'cronjob', 'tick']);
      expect(got.status.lastSuccessfulTime).toBeDefined();
      return got;
    }, 30_000);
    expect(cj.status.lastScheduleTime).toMatch(/:00Z$/);
    await ok(['patch', 'cronjob', 'tick', '-p', '{"spec":{"suspend":true}}']);
  });

  it('helm install --wait and upgrade --wait of a chart with a Deployment, a Service and a Job hook finish', async () => {
    const chart = join(c.dir, 'batch-chart');
    await mkdir(join(chart, 'templates'), { recursive: true });
    await writeFile(join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: shop\nversion: 0.1.0\n');
    await writeFile(join(chart, 'values.yaml'), 'replicas: 2\nimage: nginx:1.25\n');
    await writeFile(
      join(chart, 'templates', 'deployment.yaml'),
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-web
spec:
  replicas: {{ .Values.replicas }}
  selector:
    matchLabels: { app: {{ .Release.Name }}-web }
  template:
    metadata:
      labels: { app: {{ .Release.Name }}-web }
    spec:
      containers:
        - name: web
          image: {{ .Values.image }}
          ports: [{ containerPort: 80 }]
`,
    );
    await writeFile(
      join(chart, 'templates', 'service.yaml'),
      `apiVersion: v1
kind: Service
metadata:
  name: {{ .Release.Name }}-web
spec:
  selector: { app: {{ .Release.Name }}-web }
  ports: [{ port: 80, targetPort: 80 }]
`,
    );
    await writeFile(
      join(chart, 'templates', 'migrate-job.yaml'),
      `apiVersion: batch/v1
kind: Job
metadata:
  name: {{ .Release.Name }}-migrate
  annotations:
    "helm.sh/hook": post-install,post-upgrade
    "helm.sh/hook-delete-policy": before-hook-creation
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: migrate
          image: busybox
          command: ["sh", "-c", "echo migrated"]
`,
    );
    const installed = await helm(['install', 'shop', chart, '--wait', '--timeout', '60s']);
    expect(installed).toContain('STATUS: deployed');
    const d = await json(['get', 'deployment', 'shop-web']);
    expect(d.status).toMatchObject({ readyReplicas: 2, availableReplicas: 2 });
    expect((await json(['get', 'job', 'shop-migrate'])).status.succeeded).toBe(1);
    const ep = await json(['get', 'endpoints', 'shop-web']);
    expect(ep.subsets[0].addresses).toHaveLength(2);

    const upgraded = await helm(['upgrade', 'shop', chart, '--wait', '--timeout', '60s', '--set', 'replicas=3', '--set', 'image=nginx:1.26']);
    expect(upgraded).toContain('STATUS: deployed');
    const d2 = await json(['get', 'deployment', 'shop-web']);
    expect(d2.status).toMatchObject({ replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 });
    expect(d2.spec.template.spec.containers[0].image).toBe('nginx:1.26');
    const migrate = await json(['get', 'job', 'shop-migrate']);
    expect(migrate.status.succeeded).toBe(1);
    expect(JSON.parse(await helm(['history', 'shop', '-o', 'json'])).map((r: any) => r.status)).toEqual(['superseded', 'deployed']);
  });
});
