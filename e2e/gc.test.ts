// Cascading deletion with the real kubectl: `delete --cascade=background|foreground|orphan`
// against objects linked by ownerReferences (the Node host runs the garbage collector).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from './harness';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster();
});
afterAll(async () => {
  await c?.stop();
});

async function ok(args: string[], stdin?: string): Promise<string> {
  const r = await c.kubectl(args, { stdin });
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r.stdout;
}

async function eventually<T>(check: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

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
