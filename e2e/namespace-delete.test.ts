// `kubectl delete -f` of a manifest that lists its Namespace first: the namespace goes
// Terminating and the namespace controller empties it only after its grace period, so the
// objects listed after the Namespace are still there for kubectl to delete (exit 0, as against
// a cluster), and the namespace is gone once the controller has run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlOk, startCluster, type Cluster } from './harness';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster();
}, 60_000);
afterAll(() => c?.stop());

describe('kubectl delete -f with the Namespace first', () => {
  it('deletes every object and exits 0', async () => {
    const manifest = c.fixture('namespace-with-contents.yaml');
    await kubectlOk(c, ['create', '-f', manifest]);
    const del = await c.kubectl(['delete', '-f', manifest], { timeoutMs: 90_000 });
    expect(del.stderr).toBe('');
    expect(del.code).toBe(0);
    expect(del.stdout).toBe('namespace "team-a" deleted\nconfigmap "settings" deleted from team-a namespace\nsecret "token" deleted from team-a namespace\n');
    const gone = await c.kubectl(['get', 'namespace', 'team-a']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('namespaces "team-a" not found');
  }, 120_000);
});
