// Objects kube-apiserver keeps for itself: the immortal namespaces and the system priority
// classes (created at start, never deleted, their names and values reserved).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startTestServer, type TestClient } from '../testing/api-server';

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

const PCS = '/apis/scheduling.k8s.io/v1/priorityclasses';
const pc = (name: string, value: number, extra: Record<string, unknown> = {}) => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra });

describe('immortal namespaces', () => {
  it('default, kube-system and kube-public may not be deleted; kube-node-lease and others may', async () => {
    for (const name of ['default', 'kube-system', 'kube-public']) {
      expect(failure(await c.del(`/api/v1/namespaces/${name}`))).toEqual({ code: 403, reason: 'Forbidden', message: `namespaces "${name}" is forbidden: this namespace may not be deleted` });
      expect((await c.get(`/api/v1/namespaces/${name}`)).json.status.phase).toBe('Active');
    }
    expect((await c.del('/api/v1/namespaces/kube-node-lease')).status).toBe(200);
  });
});

describe('system priority classes', () => {
  it('exist from the start, as kube-apiserver creates them', async () => {
    const list = (await c.get(PCS)).json;
    const byName = Object.fromEntries(list.items.map((i: { metadata: { name: string } }) => [i.metadata.name, i]));
    expect(byName['system-node-critical']).toMatchObject({ value: 2000001000, preemptionPolicy: 'PreemptLowerPriority', description: 'Used for system critical pods that must not be moved from their current node.' });
    expect(byName['system-cluster-critical']).toMatchObject({ value: 2000000000, description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.' });
    expect(byName['system-node-critical'].globalDefault).toBeUndefined();
  });

  it('cannot be deleted, and their values cannot change', async () => {
    expect(failure(await c.del(`${PCS}/system-node-critical`))).toEqual({
      code: 403,
      reason: 'Forbidden',
      message: 'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted',
    });
    const r = await c.patch(`${PCS}/system-cluster-critical`, { value: 5 });
    expect(failure(r)).toEqual({ code: 422, reason: 'Invalid', message: 'PriorityClass.scheduling.k8s.io "system-cluster-critical" is invalid: value: Forbidden: may not be changed in an update.' });
  });

  it('reserves the system- prefix and values above one billion', async () => {
    expect(failure(await c.post(PCS, pc('system-mine', 10)))).toEqual({
      code: 422,
      reason: 'Invalid',
      message: "PriorityClass.scheduling.k8s.io \"system-mine\" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
    });
    expect(failure(await c.post(PCS, pc('too-high', 1000000001)))).toEqual({
      code: 422,
      reason: 'Invalid',
      message: 'PriorityClass.scheduling.k8s.io "too-high" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
    });
    expect((await c.post(PCS, pc('highest', 1000000000))).status).toBe(201);
  });
});
