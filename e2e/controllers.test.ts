// A cluster that lives, with the real kubectl 1.34: the Node host runs simulated nodes, the
// scheduler and the deployment, replicaset, endpoint and endpointslice controllers, so rollouts
// finish, `kubectl wait` returns and Services get endpoints — all through the API.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, eventually, kubectlOk, startCluster } from './harness';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster(['--kubelet-delay', '300ms']);
});
afterAll(async () => {
  await c?.stop();
});

const ok = async (args: string[], stdin?: string): Promise<string> => (await kubectlOk(c, args, stdin)).stdout;
const json = async (args: string[]): Promise<any> => JSON.parse(await ok([...args, '-o', 'json']));

/** A watch on the namespace's pods, read from the server directly, that records every event. */
async function watchPods(ns: string): Promise<{ events: any[]; initial: number; stop: () => void }> {
  const list = await (await fetch(`${c.url}/api/v1/namespaces/${ns}/pods`)).json();
  const abort = new AbortController();
  const res = await fetch(`${c.url}/api/v1/namespaces/${ns}/pods?watch=1&resourceVersion=${list.metadata.resourceVersion}`, { signal: abort.signal });
  const events: any[] = list.items.map((object: any) => ({ type: 'ADDED', object }));
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          if (line.trim()) events.push(JSON.parse(line));
        }
      }
    } catch {
      // aborted
    }
  })();
  return { events, initial: list.items.length, stop: () => abort.abort() };
}

describe('a living cluster', () => {
  it('has simulated nodes that are Ready', async () => {
    const nodes = await json(['get', 'nodes']);
    expect(nodes.items.map((n: any) => n.metadata.name)).toEqual(['node-1', 'node-2', 'node-3']);
    for (const n of nodes.items) {
      expect(n.status.conditions.find((x: any) => x.type === 'Ready')).toMatchObject({ status: 'True', reason: 'KubeletReady' });
      expect(n.status.nodeInfo.kubeletVersion).toBe('v1.23.17');
    }
    const leases = await json(['get', 'leases', '-n', 'kube-node-lease']);
    expect(leases.items.map((l: any) => l.spec.holderIdentity).sort()).toEqual(['node-1', 'node-2', 'node-3']);
  });

  it('create deployment, rollout status and wait --for=condition=Available finish', async () => {
    await ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']);
    const status = await ok(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    expect(status).toContain('deployment "web" successfully rolled out');
    expect(await ok(['wait', '--for=condition=Available', 'deployment/web', '--timeout=30s'])).toContain('deployment.apps/web condition met');
    const d = await json(['get', 'deployment', 'web', '--show-managed-fields']);
    expect(d.status).toMatchObject({ replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 });
    expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('1');
    const pods = await json(['get', 'pods', '-l', 'app=web', '--show-managed-fields']);
    expect(pods.items).toHaveLength(3);
    for (const p of pods.items) {
      expect(p.status.phase).toBe('Running');
      expect(p.status.podIP).toMatch(/^10\.244\.\d+\.\d+$/);
      expect(p.status.containerStatuses[0]).toMatchObject({ ready: true, started: true, image: 'docker.io/library/nginx:latest' });
    }
    // Who wrote what: the controllers and the kubelet are field managers of their own.
    const managers = pods.items[0].metadata.managedFields.map((m: any) => `${m.manager}/${m.operation}/${m.subresource ?? ''}`);
    expect(managers).toEqual(expect.arrayContaining(['kube-controller-manager/Update/', 'kubelet/Update/status']));
    const dManagers = d.metadata.managedFields.map((m: any) => `${m.manager}/${m.operation}/${m.subresource ?? ''}`);
    // kube sorts entries by operation, then time (seconds), then manager: within one second the
    // controller's entry sorts first, a second later it sorts after kubectl's.
    expect([...dManagers].sort()).toEqual(['kube-controller-manager/Update/status', 'kubectl-create/Update/']);
  });

  it('set image rolls out within maxSurge and maxUnavailable; history and undo work', async () => {
    const watch = await watchPods('default');
    await ok(['set', 'image', 'deployment/web', 'nginx=nginx:1.25']);
    expect(await ok(['rollout', 'status', 'deployment/web', '--timeout=60s'])).toContain('successfully rolled out');
    // Let the last deletions reach the watch.
    await eventually(async () => {
      const pods = await json(['get', 'pods', '-l', 'app=web']);
      expect(pods.items).toHaveLength(3);
    });
    watch.stop();
    // Replay the watch: with 3 replicas and the default 25% maxSurge (rounds up to 1) and
    // maxUnavailable (rounds down to 0), there are never more than 4 pods of the Deployment and
    // never fewer than 3 ready.
    const pods = new Map<string, any>();
    let maxPods = 0;
    let minReady = Infinity;
    let sawNewImage = false;
    for (const [i, e] of watch.events.entries()) {
      if (e.object?.metadata?.labels?.app !== 'web') continue;
      if (e.type === 'DELETED') pods.delete(e.object.metadata.name);
      else pods.set(e.object.metadata.name, e.object);
      if (e.object.spec.containers[0].image === 'nginx:1.25') sawNewImage = true;
      const ready = [...pods.values()].filter((p) => p.status?.conditions?.some((x: any) => x.type === 'Ready' && x.status === 'True')).length;
      // The first events are the list the watch started from, one pod at a time.
      if (i < watch.initial - 1) continue;
      maxPods = Math.max(maxPods, pods.size);
      minReady = Math.min(minReady, ready);
    }
    expect(sawNewImage).toBe(true);
    expect(maxPods).toBeLessThanOrEqual(4);
    expect(minReady).toBeGreaterThanOrEqual(3);

    const history = await ok(['rollout', 'history', 'deployment/web']);
    expect(history).toMatch(/REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
    expect(await ok(['rollout', 'undo', 'deployment/web'])).toContain('deployment.apps/web rolled back');
    expect(await ok(['rollout', 'status', 'deployment/web', '--timeout=60s'])).toContain('successfully rolled out');
    const d = await json(['get', 'deployment', 'web']);
    expect(d.spec.template.spec.containers[0].image).toBe('nginx');
    expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('3');
    const rs = await json(['get', 'replicasets', '-l', 'app=web']);
    expect(rs.items.map((r: any) => [r.metadata.annotations['deployment.kubernetes.io/revision'], r.spec.replicas]).sort()).toEqual([
      ['2', 0],
      ['3', 3],
    ]);
    expect(await ok(['rollout', 'history', 'deployment/web'])).toMatch(/REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>/);
  });

  it('scale changes the number of running pods', async () => {
    await ok(['scale', 'deployment/web', '--replicas=5']);
    expect(await ok(['rollout', 'status', 'deployment/web', '--timeout=60s'])).toContain('successfully rolled out');
    const pods = await json(['get', 'pods', '-l', 'app=web']);
    expect(pods.items.filter((p: any) => p.status.phase === 'Running')).toHaveLength(5);
    await ok(['scale', 'deployment/web', '--replicas=2']);
    await eventually(async () => expect((await json(['get', 'pods', '-l', 'app=web'])).items).toHaveLength(2));
  });

  it('a Service gets Endpoints and an EndpointSlice of the ready pods', async () => {
    await ok(['expose', 'deployment/web', '--port=80']);
    const pods = await json(['get', 'pods', '-l', 'app=web']);
    const ips = pods.items.map((p: any) => p.status.podIP).sort();
    await eventually(async () => {
      const ep = await json(['get', 'endpoints', 'web']);
      expect(ep.subsets).toHaveLength(1);
      expect(ep.subsets[0].addresses.map((a: any) => a.ip).sort()).toEqual(ips);
      expect(ep.subsets[0].ports).toEqual([{ port: 80, protocol: 'TCP' }]);
    });
    const slices = await json(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web']);
    expect(slices.items).toHaveLength(1);
    const slice = slices.items[0];
    expect(slice.metadata.labels['endpointslice.kubernetes.io/managed-by']).toBe('endpointslice-controller.k8s.io');
    expect(slice.addressType).toBe('IPv4');
    expect(slice.endpoints.map((e: any) => e.addresses[0]).sort()).toEqual(ips);
    expect(slice.endpoints.every((e: any) => e.conditions.ready === true)).toBe(true);
    expect(slice.ports).toEqual([{ name: '', protocol: 'TCP', port: 80 }]);
  });

  it('a pod that fits no node stays Pending with FailedScheduling', async () => {
    await ok(['run', 'huge', '--image=nginx', '--overrides', JSON.stringify({ spec: { containers: [{ name: 'huge', image: 'nginx', resources: { requests: { cpu: '64' } } }] } })]);
    await eventually(async () => {
      const p = await json(['get', 'pod', 'huge']);
      expect(p.status.conditions).toEqual([expect.objectContaining({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/3 nodes are available: 3 Insufficient cpu.' })]);
    });
    const events = await ok(['get', 'events', '--field-selector', 'involvedObject.name=huge', '-o', 'jsonpath={.items[*].reason}']);
    expect(events).toContain('FailedScheduling');
  });

  it('drain evicts a node’s pods and the ReplicaSet brings them back on the other nodes', async () => {
    await ok(['scale', 'deployment/web', '--replicas=3']);
    await ok(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    const out = await ok(['drain', 'node-1', '--ignore-daemonsets', '--timeout=30s']);
    expect(out).toContain('node/node-1 drained');
    expect(await ok(['get', 'node', 'node-1', '-o', 'jsonpath={.spec.unschedulable}'])).toBe('true');
    await ok(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    await eventually(async () => {
      const pods = await json(['get', 'pods', '-l', 'app=web']);
      expect(pods.items).toHaveLength(3);
      expect(pods.items.every((p: any) => p.status.phase === 'Running' && p.spec.nodeName !== 'node-1')).toBe(true);
    });
    await ok(['uncordon', 'node-1']);
  });

  it('helm install --wait and upgrade --wait finish once the Deployment is available', async () => {
    const chart = join(c.dir, 'chart-app');
    await mkdir(join(chart, 'templates'), { recursive: true });
    await writeFile(join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: app\nversion: 0.1.0\n');
    await writeFile(join(chart, 'values.yaml'), 'image: nginx:1.25\nreplicas: 2\n');
    await writeFile(
      join(chart, 'templates', 'app.yaml'),
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: { name: "{{ .Release.Name }}" }',
        'spec:',
        '  replicas: {{ .Values.replicas }}',
        '  selector: { matchLabels: { app: "{{ .Release.Name }}" } }',
        '  template:',
        '    metadata: { labels: { app: "{{ .Release.Name }}" } }',
        '    spec: { containers: [{ name: app, image: "{{ .Values.image }}", ports: [{ containerPort: 80 }] }] }',
        '---',
        'apiVersion: v1',
        'kind: Service',
        'metadata: { name: "{{ .Release.Name }}" }',
        'spec: { selector: { app: "{{ .Release.Name }}" }, ports: [{ port: 80 }] }',
        '',
      ].join('\n'),
    );
    const install = await c.helm(['install', 'shop', chart, '--wait', '--timeout', '60s']);
    expect(install.stderr).toBe('');
    expect(install.code).toBe(0);
    expect((await json(['get', 'deployment', 'shop'])).status.availableReplicas).toBe(2);
    const upgrade = await c.helm(['upgrade', 'shop', chart, '--wait', '--timeout', '60s', '--set', 'image=nginx:1.26', '--set', 'replicas=3']);
    expect(upgrade.code).toBe(0);
    const d = await json(['get', 'deployment', 'shop']);
    expect(d.status).toMatchObject({ replicas: 3, updatedReplicas: 3, availableReplicas: 3 });
    expect(d.spec.template.spec.containers[0].image).toBe('nginx:1.26');
  });
});
