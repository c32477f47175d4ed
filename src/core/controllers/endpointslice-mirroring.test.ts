import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const NS = '/api/v1/namespaces/default';
const SLICES = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';

const service = (name: string, selector?: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ...(selector ? { selector } : {}), ports: [{ name: 'db', port: 5432 }] } });

function endpoints(name: string, subsets: unknown[], meta: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, labels: { team: 'data' }, annotations: { note: 'external', 'kubectl.kubernetes.io/last-applied-configuration': '{}' }, ...meta }, subsets };
}

const mirrored = async () => ((await t!.get(SLICES)).json.items as any[]).filter((s) => s.metadata.labels['endpointslice.kubernetes.io/managed-by'] === 'endpointslicemirroring-controller.k8s.io');

describe('endpointslicemirroring controller', () => {
  it('mirrors the Endpoints of a Service without a selector, keeps the slice in step, and drops it when the Service goes', async () => {
    t = await startCluster('endpointslicemirroring');
    await t.post(`${NS}/services`, service('db'));
    const ep = (
      await t.post(
        `${NS}/endpoints`,
        endpoints('db', [
          { addresses: [{ ip: '10.0.0.5', hostname: 'primary' }], notReadyAddresses: [{ ip: '10.0.0.6' }], ports: [{ name: 'db', port: 5432, protocol: 'TCP' }] },
          { addresses: [{ ip: 'fd00::5' }], ports: [{ name: 'db', port: 5432, protocol: 'TCP' }] },
        ]),
      )
    ).json;
    await t.settle();
    const slices = (await mirrored()).sort((a, b) => a.addressType.localeCompare(b.addressType));
    expect(slices).toHaveLength(2);
    const [v4, v6] = slices;
    expect(v4.metadata.name).toMatch(/^db-[a-z0-9]{5}$/);
    expect(v4.metadata.labels).toEqual({ team: 'data', 'kubernetes.io/service-name': 'db', 'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io' });
    expect(v4.metadata.annotations).toEqual({ note: 'external' });
    expect(v4.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Endpoints', name: 'db', uid: ep.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(v4.addressType).toBe('IPv4');
    expect(v4.endpoints).toEqual([
      { addresses: ['10.0.0.5'], conditions: { ready: true }, hostname: 'primary' },
      { addresses: ['10.0.0.6'], conditions: { ready: false } },
    ]);
    expect(v4.ports).toEqual([{ name: 'db', protocol: 'TCP', port: 5432 }]);
    expect(v6).toMatchObject({ addressType: 'IPv6', endpoints: [{ addresses: ['fd00::5'], conditions: { ready: true } }] });
    const managers = v4.metadata.managedFields.map((m: any) => m.manager);
    expect(managers).toEqual(['kube-controller-manager']);

    await t.put(`${NS}/endpoints/db`, { ...(await t.get(`${NS}/endpoints/db`)).json, subsets: [{ addresses: [{ ip: '10.0.0.7' }], ports: [{ name: 'db', port: 5432, protocol: 'TCP' }] }] });
    await t.settle();
    const now = await mirrored();
    expect(now).toHaveLength(1);
    expect(now[0].metadata.name).toBe(v4.metadata.name);
    expect(now[0].endpoints).toEqual([{ addresses: ['10.0.0.7'], conditions: { ready: true } }]);

    await t.del(`${NS}/services/db`);
    await t.settle();
    expect(await mirrored()).toEqual([]);
  });

  it('leaves Endpoints of Services with a selector, and those labelled skip-mirror', async () => {
    t = await startCluster('endpointslicemirroring');
    await t.post(`${NS}/services`, service('web', { app: 'web' }));
    await t.post(`${NS}/endpoints`, endpoints('web', [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }]));
    await t.post(`${NS}/services`, service('skip'));
    await t.post(`${NS}/endpoints`, endpoints('skip', [{ addresses: [{ ip: '10.0.0.2' }], ports: [{ port: 80 }] }], { labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } }));
    await t.settle();
    expect(await mirrored()).toEqual([]);
  });
});
