// Bad input from the real kubectl, answered as kube-apiserver answers it (issue 22, section 2):
// a warning about a field named outside Latin-1, a `notin` selector of thousands of values (a
// request head far past Node's 16 KiB default) and a resourceVersion past uint64.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlOk, startCluster, type Cluster } from './harness';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster();
});
afterAll(async () => {
  await c?.stop();
});

describe('kubectl against bad input', () => {
  it('prints the warning about an unknown field named in Japanese and creates the object', async () => {
    const manifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: jp\ndata:\n  a: b\n日本: x\n';
    const r = await kubectlOk(c, ['create', '--validate=warn', '-f', '-'], manifest);
    expect(r.stderr).toContain('Warning: unknown field "日本"');
    expect(r.stdout).toContain('configmap/jp created');
  });

  it('lists with a notin selector of thousands of values', async () => {
    await kubectlOk(c, ['create', 'configmap', 'kept', '--from-literal=a=b']);
    await kubectlOk(c, ['label', 'configmap', 'kept', 'app=other']);
    const values = Array.from({ length: 4000 }, (_, i) => `v${i}`).join(',');
    const r = await kubectlOk(c, ['get', 'configmaps', '-l', `app,app notin (${values})`, '-o', 'name']);
    expect(r.stdout.trim()).toBe('configmap/kept');
  });

  it('is told at once that a resourceVersion past uint64 is invalid', async () => {
    const started = Date.now();
    const r = await c.kubectl(['get', '--raw', '/api/v1/namespaces/default/configmaps?limit=1&resourceVersion=18446744073709551616']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error from server (BadRequest): invalid resource version: resourceVersion: Invalid value: "18446744073709551616": strconv.ParseUint: parsing "18446744073709551616": value out of range');
    expect(Date.now() - started).toBeLessThan(2500);
  });
});
