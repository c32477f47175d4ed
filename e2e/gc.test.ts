// Cascading deletion with the real kubectl: `delete --cascade=background|foreground|orphan`
// against objects linked by ownerReferences (the Node host runs the garbage collector).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, eventually, kubectlOk, startCluster } from './harness';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster();
});
afterAll(async () => {
  await c?.stop();
});

/** Runs kubectl and fails with its output when the exit code is not 0. */
const ok = async (args: string[], stdin?: string): Promise<string> => (await kubectlOk(c, args, stdin)).stdout;


/** An owner ConfigMap and a dependent that names it (blocking its deletion when asked). */
async function family(prefix: string, block = false): Promise<void> {
  await ok(['create', 'configmap', `${prefix}-owner`, '--from-literal=k=v']);
  const uid = await ok(['get', 'configmap', `${prefix}-owner`, '-o', 'jsonpath={.metadata.uid}']);
  const dependent = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `${prefix}-dep`, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: `${prefix}-owner`, uid, blockOwnerDeletion: block }] },
    data: { k: 'v' },
  };
  await ok(['apply', '-f', '-'], JSON.stringify(dependent));
}

async function expectGone(name: string): Promise<void> {
  await eventually(async () => {
    const r = await c.kubectl(['get', 'configmap', name]);
    expect(r.stderr).toContain(`configmaps "${name}" not found`);
  });
}

describe('kubectl delete --cascade', () => {
  it('background (the default): the dependent follows its owner', async () => {
    await family('bg');
    expect(await ok(['delete', 'configmap', 'bg-owner'])).toContain('configmap "bg-owner" deleted');
    await expectGone('bg-dep');
  });

  it('foreground: kubectl waits until the owner is gone, and the blocking dependent went first', async () => {
    await family('fg', true);
    expect(await ok(['delete', 'configmap', 'fg-owner', '--cascade=foreground'])).toContain('configmap "fg-owner" deleted');
    await expectGone('fg-owner');
    await expectGone('fg-dep');
  });

  it('orphan: the dependent stays, without its owner reference', async () => {
    await family('or');
    await ok(['delete', 'configmap', 'or-owner', '--cascade=orphan']);
    await expectGone('or-owner');
    expect(await ok(['get', 'configmap', 'or-dep', '-o', 'jsonpath={.metadata.ownerReferences}'])).toBe('');
  });
});
