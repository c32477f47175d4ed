// `kubectl drain` against a PodDisruptionBudget: the eviction subresource answers 429 while the
// budget allows no disruption (kubectl keeps retrying and reports the budget), and lets the pod
// go once the budget allows it. The node is one the test registers itself (no simulated kubelet
// runs it), so the pod's status is the one the test writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from './harness';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster();
}, 60_000);
afterAll(() => c?.stop());

const NODE = `apiVersion: v1
kind: Node
metadata:
  name: drain-node
`;

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: web-1
  labels: { app: web }
spec:
  nodeName: drain-node
  containers:
  - name: web
    image: nginx
`;

const PDB = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web
spec:
  minAvailable: 1
  selector:
    matchLabels: { app: web }
`;

const RUNNING = JSON.stringify({ status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });

describe('kubectl drain with a PodDisruptionBudget', () => {
  it('is refused (429) while the budget allows no disruption, and evicts once it does', async () => {
    for (const doc of [NODE, POD, PDB]) expect((await c.kubectl(['create', '-f', '-'], { stdin: doc })).code).toBe(0);
    const ready = await c.kubectl(['patch', 'pod', 'web-1', '--subresource=status', '--type=merge', '-p', RUNNING]);
    expect(ready.stderr).toBe('');

    // The raw eviction: 429 with kube's message.
    const eviction = JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'web-1', namespace: 'default' } });
    const raw = await c.kubectl(['create', '--raw', '/api/v1/namespaces/default/pods/web-1/eviction', '-f', '-'], { stdin: eviction });
    expect(raw.code).not.toBe(0);
    expect(raw.stderr).toContain('Cannot evict pod as it would violate the pod\'s disruption budget.');
    expect(raw.stderr).toContain('(TooManyRequests)');

    const drain = await c.kubectl(['drain', 'drain-node', '--ignore-daemonsets', '--force', '--timeout=3s'], { timeoutMs: 30_000 });
    expect(drain.code).not.toBe(0);
    expect(drain.stdout + drain.stderr).toContain('Cannot evict pod as it would violate the pod\'s disruption budget.');
    expect((await c.kubectl(['get', 'pod', 'web-1', '-o', 'name'])).stdout.trim()).toBe('pod/web-1');
    // drain cordoned the node first.
    expect((await c.kubectl(['get', 'node', 'drain-node', '-o', 'jsonpath={.spec.unschedulable}'])).stdout).toBe('true');

    // A budget that allows the disruption lets drain evict the pod.
    expect((await c.kubectl(['patch', 'pdb', 'web', '--type=merge', '-p', '{"spec":{"minAvailable":0}}'])).code).toBe(0);
    const ok = await c.kubectl(['drain', 'drain-node', '--ignore-daemonsets', '--force', '--timeout=20s'], { timeoutMs: 40_000 });
    expect(ok.stderr).not.toContain('error');
    expect(ok.stdout).toContain('pod/web-1 evicted');
    expect(ok.code).toBe(0);
    expect((await c.kubectl(['get', 'pods', '-o', 'name'])).stdout.trim()).toBe('');
  }, 90_000);
});
