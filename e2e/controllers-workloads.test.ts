// The workload controllers with the real kubectl 1.34 against the Node host: StatefulSets and
// DaemonSets roll (`rollout status`, `set image`, `rollout history`), a ReplicationController
// keeps its pods, and a Deployment rolls forward and back — all through the API, with short
// kubelet delays so the file stays fast.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, eventually, kubectlOk, startCluster } from './harness';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster(['--kubelet-delay', '200ms']);
});
afterAll(async () => {
  await c?.stop();
});

const ok = async (args: string[], stdin?: string): Promise<string> => (await kubectlOk(c, args, stdin)).stdout;
const json = async (args: string[]): Promise<any> => JSON.parse(await ok([...args, '-o', 'json']));
const images = async (selector: string): Promise<string[]> => (await json(['get', 'pods', '-l', selector])).items.map((p: any) => p.spec.containers[0].image).sort();

const statefulSet = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  replicas: 3
  serviceName: db
  selector:
    matchLabels: {app: db}
  template:
    metadata:
      labels: {app: db}
    spec:
      containers:
      - name: db
        image: postgres:14
  volumeClaimTemplates:
  - metadata:
      name: data
    spec:
      accessModes: [ReadWriteOnce]
      resources:
        requests:
          storage: 1Gi
`;

const daemonSet = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: logs
spec:
  selector:
    matchLabels: {app: logs}
  updateStrategy:
    rollingUpdate: {maxUnavailable: 1}
  template:
    metadata:
      labels: {app: logs}
    spec:
      containers:
      - name: agent
        image: fluentd:1
`;

describe('workload controllers with kubectl', () => {
  it('a StatefulSet rolls out in order, with claims, then rolls a new image from the highest ordinal', async () => {
    await ok(['apply', '-f', '-'], statefulSet);
    expect(await ok(['rollout', 'status', 'statefulset/db', '--timeout=60s'])).toContain('partitioned roll out complete: 3 new pods have been updated...');
    const pods = await json(['get', 'pods', '-l', 'app=db']);
    expect(pods.items.map((p: any) => p.metadata.name).sort()).toEqual(['db-0', 'db-1', 'db-2']);
    expect(pods.items[0].spec.hostname).toBe(pods.items[0].metadata.name);
    const claims = await json(['get', 'pvc']);
    expect(claims.items.map((p: any) => p.metadata.name).sort()).toEqual(['data-db-0', 'data-db-1', 'data-db-2']);

    await ok(['set', 'image', 'statefulset/db', 'db=postgres:15']);
    // The server defaults rollingUpdate.partition to 0, so kubectl reports a partitioned roll out, as against a v1.23 cluster.
    const rolled = await ok(['rollout', 'status', 'statefulset/db', '--timeout=60s']);
    expect(rolled).toContain('partitioned roll out complete: 3 new pods have been updated...');
    expect(await images('app=db')).toEqual(['postgres:15', 'postgres:15', 'postgres:15']);
    const history = await ok(['rollout', 'history', 'statefulset/db']);
    expect(history).toMatch(/REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
    const sts = await json(['get', 'statefulset', 'db']);
    expect(sts.status).toMatchObject({ replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3, observedGeneration: 2 });
    expect(sts.status.currentRevision).toBe(sts.status.updateRevision);

    // Undo applies the first revision's template again; that revision is renumbered 3.
    expect(await ok(['rollout', 'undo', 'statefulset/db'])).toContain('statefulset.apps/db rolled back');
    await ok(['rollout', 'status', 'statefulset/db', '--timeout=60s']);
    expect(await images('app=db')).toEqual(['postgres:14', 'postgres:14', 'postgres:14']);
    expect(await ok(['rollout', 'history', 'statefulset/db'])).toMatch(/REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>/);

    await ok(['scale', 'statefulset/db', '--replicas=1']);
    await eventually(async () => expect((await json(['get', 'pods', '-l', 'app=db'])).items.map((p: any) => p.metadata.name)).toEqual(['db-0']));
    // Claims stay when a StatefulSet shrinks (v1.23 has no retention policy on by default).
    expect((await json(['get', 'pvc'])).items).toHaveLength(3);
  });

  it('a DaemonSet runs on every node and rolls a new image node by node', async () => {
    await ok(['apply', '-f', '-'], daemonSet);
    expect(await ok(['rollout', 'status', 'daemonset/logs', '--timeout=60s'])).toContain('daemon set "logs" successfully rolled out');
    const pods = await json(['get', 'pods', '-l', 'app=logs']);
    expect(pods.items.map((p: any) => p.spec.nodeName).sort()).toEqual(['node-1', 'node-2', 'node-3']);
    await ok(['set', 'image', 'daemonset/logs', 'agent=fluentd:2']);
    expect(await ok(['rollout', 'status', 'daemonset/logs', '--timeout=60s'])).toContain('daemon set "logs" successfully rolled out');
    await eventually(async () => expect(await images('app=logs')).toEqual(['fluentd:2', 'fluentd:2', 'fluentd:2']));
    expect(await ok(['rollout', 'history', 'daemonset/logs'])).toMatch(/REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
    const ds = await json(['get', 'daemonset', 'logs']);
    expect(ds.status).toMatchObject({ desiredNumberScheduled: 3, currentNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 3, numberReady: 3, observedGeneration: 2 });
    // The strategy's template generation, and the controller's label with it on the new pods.
    expect(ds.metadata.annotations['deprecated.daemonset.template.generation']).toBe('2');
    expect((await json(['get', 'pods', '-l', 'app=logs,pod-template-generation=2'])).items).toHaveLength(3);
    expect(await ok(['rollout', 'undo', 'daemonset/logs'])).toContain('daemonset.apps/logs rolled back');
    expect(await ok(['rollout', 'status', 'daemonset/logs', '--timeout=60s'])).toContain('successfully rolled out');
    await eventually(async () => expect(await images('app=logs')).toEqual(['fluentd:1', 'fluentd:1', 'fluentd:1']));
  });

  it('a ReplicationController keeps its pods and scales', async () => {
    await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'old' }, spec: { replicas: 2, selector: { app: 'old' }, template: { metadata: { labels: { app: 'old' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } }));
    await ok(['wait', '--for=jsonpath={.status.readyReplicas}=2', 'rc/old', '--timeout=30s']);
    await ok(['scale', 'rc/old', '--replicas=3']);
    await ok(['wait', '--for=jsonpath={.status.readyReplicas}=3', 'rc/old', '--timeout=30s']);
    expect((await json(['get', 'pods', '-l', 'app=old'])).items).toHaveLength(3);
  });

  it('a Deployment: set image, rollout status, history, undo, scale and wait Available', async () => {
    await ok(['create', 'deployment', 'api', '--image=nginx:1.24', '--replicas=2']);
    expect(await ok(['rollout', 'status', 'deployment/api', '--timeout=60s'])).toContain('successfully rolled out');
    await ok(['set', 'image', 'deployment/api', 'nginx=nginx:1.25']);
    expect(await ok(['rollout', 'status', 'deployment/api', '--timeout=60s'])).toContain('successfully rolled out');
    expect(await ok(['rollout', 'history', 'deployment/api'])).toMatch(/REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
    expect(await ok(['rollout', 'undo', 'deployment/api'])).toContain('deployment.apps/api rolled back');
    expect(await ok(['rollout', 'status', 'deployment/api', '--timeout=60s'])).toContain('successfully rolled out');
    await ok(['scale', 'deployment/api', '--replicas=4']);
    expect(await ok(['wait', '--for=condition=Available', 'deployment/api', '--timeout=30s'])).toContain('deployment.apps/api condition met');
    await eventually(async () => expect(await images('app=api')).toEqual(['nginx:1.24', 'nginx:1.24', 'nginx:1.24', 'nginx:1.24']));
  });
});
