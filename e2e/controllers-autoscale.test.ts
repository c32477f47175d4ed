// Autoscaling, metrics, failure images and logs with the real kubectl 1.34 against the Node host
// (decision 0034): `kubectl autoscale` + a usage change scales a Deployment, `kubectl top` reads
// the simulated metrics-server, `kubectl logs` prints the synthetic log, a crash-loop image shows
// CrashLoopBackOff, and a later `kubectl apply --server-side` of replicas meets the HPA's write.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, eventually, kubectlOk, startCluster } from './harness';

let c: Cluster;
beforeAll(async () => {
  // At 60× an HPA resync (15 s) takes a quarter of a second and the 5-minute stabilization 5 s.
  c = await startCluster(['--kubelet-delay', '300ms', '--clock-speed', '60']);
});
afterAll(async () => {
  await c?.stop();
});

const ok = async (args: string[], stdin?: string): Promise<string> => (await kubectlOk(c, args, stdin)).stdout;
const replicas = async (name: string): Promise<number> => Number(await ok(['get', 'deployment', name, '-o', 'jsonpath={.spec.replicas}']));
const usage = (cpu: string) => JSON.stringify({ spec: { template: { metadata: { annotations: { 'kube-playground.dev/cpu-usage': cpu } } } } });

describe('autoscaling and metrics with kubectl', () => {
  it('kubectl autoscale + a usage change scales the Deployment; kubectl get hpa shows the target', async () => {
    await ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=1']);
    await ok(['set', 'resources', 'deployment', 'web', '--requests=cpu=100m']);
    await ok(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    expect(await ok(['autoscale', 'deployment', 'web', '--cpu-percent=50', '--min=1', '--max=5'])).toBe('horizontalpodautoscaler.autoscaling/web autoscaled\n');
    // Idle (the default 1m of 100m): the HPA keeps one replica and reports 1%.
    await eventually(async () => expect(await ok(['get', 'hpa', 'web', '-o', 'jsonpath={.status.currentMetrics[0].resource.current.averageUtilization}'])).toBe('1'));
    expect(await replicas('web')).toBe(1);
    await ok(['patch', 'deployment', 'web', '-p', usage('200m')]);
    await eventually(async () => expect(await replicas('web')).toBe(5), 30_000);
    // REPLICAS is the HPA's status.currentReplicas: written at its next sync after the scale.
    await eventually(async () => {
      const hpa = await ok(['get', 'hpa', 'web']);
      expect(hpa).toMatch(/^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE\n/);
      // v1.23 prints TARGETS as current/target (no resource name, that came later).
      expect(hpa).toMatch(/web\s+Deployment\/web\s+200%\/50%\s+1\s+5\s+5\s+\d/);
    }, 30_000);
    const events = await ok(['get', 'events', '--field-selector', 'reason=SuccessfulRescale', '-o', 'jsonpath={.items[*].message}']);
    expect(events).toContain('New size: 4; reason: cpu resource utilization (percentage of request) above target');
  });

  it('kubectl top pods, top pods -A and top nodes print rows from metrics.k8s.io', async () => {
    const pods = await eventually(async () => {
      const out = await ok(['top', 'pods', '-l', 'app=web']);
      expect(out.trim().split('\n').length).toBeGreaterThan(1);
      return out;
    });
    expect(pods).toMatch(/^NAME\s+CPU\(cores\)\s+MEMORY\(bytes\)\s*\n/);
    expect(pods).toMatch(/web-[a-z0-9]+-[a-z0-9]+\s+200m\s+4Mi/);
    expect(await ok(['top', 'pods', '-A'])).toMatch(/^NAMESPACE\s+NAME\s+CPU\(cores\)\s+MEMORY\(bytes\)\s*\ndefault\s+web-/);
    const nodes = await ok(['top', 'nodes']);
    expect(nodes).toMatch(/^NAME\s+CPU\(cores\)\s+CPU(\(%\))?\s+MEMORY\(bytes\)\s+MEMORY(\(%\))?\s*\n/);
    expect(nodes.trim().split('\n').slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['node-1', 'node-2', 'node-3']);
  });

  it('kubectl logs prints the synthetic nginx start-up', async () => {
    const out = await ok(['logs', 'deployment/web', '--tail=2']);
    expect(out).toMatch(/\[notice\] 1#1: start worker processes\n.*\[notice\] 1#1: start worker process 29\n$/);
    expect(await ok(['logs', 'deployment/web', '--limit-bytes=21'])).toBe('/docker-entrypoint.sh');
  });

  it('a crash-loop image shows CrashLoopBackOff in kubectl get pods, with restarts and its log', async () => {
    await ok(['run', 'crasher', '--image=busybox:crash-loop']);
    await eventually(async () => expect(await ok(['get', 'pod', 'crasher'])).toMatch(/crasher\s+0\/1\s+CrashLoopBackOff\s+[1-9]/), 30_000);
    expect(await ok(['logs', 'crasher', '--previous'])).toMatch(/exiting with code 1\n$/);
    await ok(['run', 'nopull', '--image=nginx:pull-error']);
    await eventually(async () => expect(await ok(['get', 'pod', 'nopull'])).toMatch(/nopull\s+0\/1\s+(ErrImagePull|ImagePullBackOff)\s+0/));
    const r = await c.kubectl(['logs', 'nopull']);
    expect(r.stderr).toMatch(/Error from server \(BadRequest\): container "nopull" in pod "nopull" is waiting to start: (image can't be pulled|trying and failing to pull image)/);
  });

  it('the HPA owns spec.replicas through scale: a later server-side apply of replicas conflicts', async () => {
    const manifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 1
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
      annotations: {kube-playground.dev/cpu-usage: 300m}
    spec:
      containers:
      - name: api
        image: nginx
        resources:
          requests: {cpu: 100m}
`;
    const file = join(c.dir, 'api.yaml');
    await writeFile(file, manifest);
    await ok(['apply', '--server-side', '-f', file]);
    await ok(['autoscale', 'deployment', 'api', '--cpu-percent=50', '--max=3']);
    await eventually(async () => expect(await replicas('api')).toBe(3), 30_000);
    const managed = JSON.parse(await ok(['get', 'deployment', 'api', '--show-managed-fields', '-o', 'json'])).metadata.managedFields;
    expect(managed.find((m: any) => m.subresource === 'scale')).toMatchObject({ manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'apps/v1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
    const again = await c.kubectl(['apply', '--server-side', '-f', file]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('conflict with "kube-controller-manager" with subresource "scale" using apps/v1: .spec.replicas');
  });
});
