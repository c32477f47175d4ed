import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBackend } from '../../storage/memory-backend';
import { openMvccStore } from '../../storage/mvcc';
import type { MvccStore } from '../../storage/types';
import { eventually, startTestServer, type TestClient } from '../../testing/api-server';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';
const LEASE = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager';
const SECRETS = '/api/v1/namespaces/default/secrets';
const TIMING = { leaseDurationSeconds: 1, renewDeadlineMs: 700, retryPeriodMs: 150 };

/** Two API servers over one store stand in for two hosts on one etcd; closing one leaves the store open. */
function shared(store: MvccStore): MvccStore {
  return new Proxy(store, { get: (target, prop) => (prop === 'close' ? async () => undefined : Reflect.get(target, prop, target)) });
}

describe('controller leader election (kube-controller-manager Lease)', () => {
  const open: TestClient[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });

  it('runs the controllers in the Lease holder only, and hands over when the holder stops', async () => {
    const store = await openMvccStore(createMemoryBackend());
    const a = await startTestServer({ store: shared(store), clusterCaCert: PEM, leaderElection: { identity: 'host-a', timing: TIMING } });
    const b = await startTestServer({ store: shared(store), clusterCaCert: PEM, leaderElection: { identity: 'host-b', timing: TIMING } });
    open.push(b);
    const lease = (await b.get(LEASE)).json;
    expect(lease.spec).toMatchObject({ holderIdentity: 'host-a', leaseDurationSeconds: 1, leaseTransitions: 0 });
    expect(lease.spec.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    // Created through b, tokened by a's controller: exactly one token Secret.
    expect((await b.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'first' } })).status).toBe(201);
    const tokens = async (sa: string) => ((await b.get(SECRETS)).json.items as Array<{ metadata: { name: string } }>).filter((s) => s.metadata.name.startsWith(`${sa}-token-`));
    await eventually(async () => ((await tokens('first')).length === 1 ? true : undefined));

    await a.close();
    await eventually(async () => ((await b.get(LEASE)).json.spec.holderIdentity === 'host-b' ? true : undefined), 5000);
    expect((await b.get(LEASE)).json.spec.leaseTransitions).toBe(1);
    expect((await b.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'second' } })).status).toBe(201);
    await eventually(async () => ((await tokens('second')).length === 1 ? true : undefined));
    expect(await tokens('first')).toHaveLength(1);
    await store.close();
  });
});
