// What the real kubectl shows of the cluster's own objects: component statuses (with the
// deprecation warning), the `kubernetes` Service's Endpoints and EndpointSlice, and cluster-info.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlOk, startCluster, type Cluster } from './harness';

// The e2e server listens on 127.0.0.1, which Endpoints may not carry: the fallback address is used.
const ADDRESS = '172.18.0.2';
const SCHEDULER = 'Get "https://127.0.0.1:10259/healthz": dial tcp 127.0.0.1:10259: connect: connection refused';
const CONTROLLER_MANAGER = 'Get "https://127.0.0.1:10257/healthz": dial tcp 127.0.0.1:10257: connect: connection refused';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster();
});
afterAll(async () => {
  await c?.stop();
});

const ok = (args: string[]) => kubectlOk(c, args);

/** Rows of kubectl's column output, split on runs of two or more spaces (cells may hold single spaces). */
function rows(stdout: string): string[][] {
  return stdout
    .trimEnd()
    .split('\n')
    .map((line) => line.trimEnd().split(/ {2,}/));
}

describe('kubectl get componentstatuses', () => {
  it('prints the unhealthy scheduler and controller-manager, the healthy etcd, and the warning', async () => {
    const { stdout, stderr } = await ok(['get', 'componentstatuses']);
    expect(stderr).toContain('Warning: v1 ComponentStatus is deprecated in v1.19+');
    expect(rows(stdout)).toEqual([
      ['NAME', 'STATUS', 'MESSAGE', 'ERROR'],
      ['scheduler', 'Unhealthy', SCHEDULER],
      ['controller-manager', 'Unhealthy', CONTROLLER_MANAGER],
      ['etcd-0', 'Healthy', '{"health":"true","reason":""}'],
    ]);
  });

  it('the cs short name, one component as YAML, and an unknown one', async () => {
    expect((await ok(['get', 'cs', 'etcd-0', '-o', 'jsonpath={.conditions[0].status}'])).stdout).toBe('True');
    const yaml = (await ok(['get', 'cs', 'scheduler', '-o', 'yaml'])).stdout;
    expect(yaml).toContain('kind: ComponentStatus\n');
    expect(yaml).toContain('status: "False"\n');
    const missing = await c.kubectl(['get', 'cs', 'kubelet']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Error from server: Component not found: kubelet');
  });

  it('cannot be deleted', async () => {
    const r = await c.kubectl(['delete', 'cs', 'etcd-0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error from server (MethodNotAllowed): the server does not allow this method on the requested resource');
  });
});

describe('the kubernetes Service endpoints', () => {
  it('kubectl get endpoints shows the API server address on 6443', async () => {
    const table = rows((await ok(['get', 'endpoints', 'kubernetes', '-n', 'default'])).stdout);
    expect(table[0]).toEqual(['NAME', 'ENDPOINTS', 'AGE']);
    expect(table[1].slice(0, 2)).toEqual(['kubernetes', `${ADDRESS}:6443`]);
    const labels = (await ok(['get', 'endpoints', 'kubernetes', '-n', 'default', '-o', 'jsonpath={.metadata.labels}'])).stdout;
    expect(JSON.parse(labels)).toEqual({ 'endpointslice.kubernetes.io/skip-mirror': 'true' });
  });

  it('kubectl get endpointslices shows the mirrored slice', async () => {
    const table = rows((await ok(['get', 'endpointslices', '-n', 'default'])).stdout);
    expect(table[0]).toEqual(['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE']);
    expect(table[1].slice(0, 4)).toEqual(['kubernetes', 'IPv4', '6443', ADDRESS]);
    const byLabel = (await ok(['get', 'endpointslices', '-n', 'default', '-l', 'kubernetes.io/service-name=kubernetes', '-o', 'name'])).stdout;
    expect(byLabel).toBe('endpointslice.discovery.k8s.io/kubernetes\n');
  });

  it('kubectl describe service kubernetes lists the endpoint', async () => {
    const out = (await ok(['describe', 'service', 'kubernetes', '-n', 'default'])).stdout;
    expect(out).toMatch(new RegExp(`^Endpoints:\\s+${ADDRESS.replace(/\./g, '\\.')}:6443$`, 'm'));
  });
});

describe('kubectl cluster-info', () => {
  it('still names the control plane', async () => {
    const { stdout } = await ok(['cluster-info']);
    expect(stdout).toContain(`Kubernetes control plane is running at ${c.url}`);
  });
});
