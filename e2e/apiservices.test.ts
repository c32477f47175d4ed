// `kubectl get apiservices` with the real kubectl: the built-in group/versions are there from the
// start as Local and Available, and a CRD's group/version comes and goes with the CRD.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, kubectlOk, startCluster } from './harness';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster();
});
afterAll(async () => {
  await c?.stop();
});

/** Runs kubectl and fails with its output when the exit code is not 0. */
const ok = async (args: string[], stdin?: string): Promise<string> => (await kubectlOk(c, args, stdin)).stdout;

describe('kubectl get apiservices', () => {
  it('lists the built-in group/versions as Local and available', async () => {
    const out = await ok(['get', 'apiservices']);
    expect(out).toMatch(/^NAME\s+SERVICE\s+AVAILABLE\s+AGE$/m);
    expect(out).toMatch(/^v1\.\s+Local\s+True\s+\d+s$/m);
    expect(out).toMatch(/^v1\.apps\s+Local\s+True\s+\d+s$/m);
    expect(out).toMatch(/^v2\.autoscaling\s+Local\s+True\s+\d+s$/m);
    expect(out).not.toMatch(/apiregistration\.k8s\.io/);
    const apps = JSON.parse(await ok(['get', 'apiservice', 'v1.apps', '-o', 'json']));
    expect(apps.metadata.labels).toEqual({ 'kube-aggregator.kubernetes.io/automanaged': 'onstart' });
    expect(apps.spec).toEqual({ group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 });
  });

  it("lists metrics-server's APIService as its manifest registers it, Available while it serves", async () => {
    expect(await ok(['get', 'apiservices', 'v1beta1.metrics.k8s.io', '--no-headers'])).toMatch(/^v1beta1\.metrics\.k8s\.io\s+kube-system\/metrics-server\s+True\s+\d+s\n$/);
  });

  it("shows a CRD's group/version while the CRD exists", async () => {
    expect(await ok(['create', '-f', c.fixture('crd.yaml')])).toBe('customresourcedefinition.apiextensions.k8s.io/widgets.example.com created\n');
    expect(await ok(['get', 'apiservices', 'v1.example.com', '--no-headers'])).toMatch(/^v1\.example\.com\s+Local\s+True\s+\d+s\n$/);
    const label = await ok(['get', 'apiservice', 'v1.example.com', '-o', 'jsonpath={.metadata.labels.kube-aggregator\\.kubernetes\\.io/automanaged} {.spec.groupPriorityMinimum} {.spec.versionPriority}']);
    expect(label).toBe('true 1000 100');
    await ok(['delete', 'crd', 'widgets.example.com']);
    const gone = await c.kubectl(['get', 'apiservice', 'v1.example.com']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('Error from server (NotFound): apiservices.apiregistration.k8s.io "v1.example.com" not found');
  });
});
