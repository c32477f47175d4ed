// ResourceQuota, LimitRange, PersistentVolume and StorageClass defaults and validation through the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startTestServer, uniqueName, type TestClient } from '../testing/api-server';

let c: TestClient;
const NS = '/api/v1/namespaces/default';
const PVS = '/api/v1/persistentvolumes';
const SCS = '/apis/storage.k8s.io/v1/storageclasses';

beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

describe('ResourceQuota', () => {
  it('refuses unknown resource names and scopes that cannot count a resource', async () => {
    const name = uniqueName('q');
    const r = await c.post(`${NS}/resourcequotas`, { metadata: { name }, spec: { hard: { 'limits.pods': '1', 'requests.storage': '1Gi' }, scopes: ['BestEffort'] } });
    expect(failure(r)).toEqual({
      code: 422,
      reason: 'Invalid',
      message: `ResourceQuota "${name}" is invalid: [spec.hard[limits.pods]: Invalid value: "limits.pods": must be a standard resource type or fully qualified, spec.hard[limits.pods]: Invalid value: "limits.pods": must be a standard resource for quota, spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort"}: unsupported scope applied to resource]`,
    });
  });

  it('keeps scopes immutable', async () => {
    const name = uniqueName('q');
    const created = await c.post(`${NS}/resourcequotas`, { metadata: { name }, spec: { hard: { pods: '2' }, scopes: ['NotBestEffort'] } });
    expect(created.status).toBe(201);
    const r = await c.patch(`${NS}/resourcequotas/${name}`, { spec: { scopes: ['BestEffort'] } });
    expect(failure(r).message).toBe(`ResourceQuota "${name}" is invalid: spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort"}: field is immutable`);
  });
});

describe('LimitRange', () => {
  it('defaults a Container item from max and stores it', async () => {
    const name = uniqueName('lr');
    const r = await c.post(`${NS}/limitranges`, { metadata: { name }, spec: { limits: [{ type: 'Container', max: { cpu: '1', memory: '1Gi' }, min: { cpu: 0.1 } }] } });
    expect(r.status).toBe(201);
    expect(r.json.spec.limits).toEqual([
      { type: 'Container', max: { cpu: '1', memory: '1Gi' }, min: { cpu: '100m' }, default: { cpu: '1', memory: '1Gi' }, defaultRequest: { cpu: '1', memory: '1Gi' } },
    ]);
  });

  it('refuses a default request above the default limit, and defaults on Pod items', async () => {
    const name = uniqueName('lr');
    const r = await c.post(`${NS}/limitranges`, { metadata: { name }, spec: { limits: [{ type: 'Container', default: { cpu: '100m' }, defaultRequest: { cpu: '200m' } }, { type: 'Pod', default: { cpu: '1' } }] } });
    expect(failure(r)).toEqual({
      code: 422,
      reason: 'Invalid',
      message:
        `LimitRange "${name}" is invalid: [spec.limits[0].defaultRequest[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:200, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"200m", Format:"DecimalSI"}: default request value 200m is greater than default limit value 100m, ` +
        "spec.limits[1].default: Forbidden: may not be specified when `type` is 'Pod']",
    });
  });
});

describe('PersistentVolume', () => {
  it('defaults reclaim policy, volume mode, hostPath type and a Pending phase', async () => {
    const name = uniqueName('pv');
    const r = await c.post(PVS, { metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '5Gi' }, hostPath: { path: '/mnt/data' } }, status: { phase: 'Bound' } });
    expect(r.status).toBe(201);
    expect(r.json.spec).toEqual({ accessModes: ['ReadWriteOnce'], capacity: { storage: '5Gi' }, hostPath: { path: '/mnt/data', type: '' }, persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' });
    expect(r.json.status).toEqual({ phase: 'Pending' });
  });

  it('needs access modes, capacity and a single source', async () => {
    const name = uniqueName('pv');
    const r = await c.post(PVS, { metadata: { name }, spec: { capacity: { storage: '1Gi' }, hostPath: { path: '/a' }, nfs: { server: 'nfs', path: '/e' } } });
    expect(failure(r)).toEqual({
      code: 422,
      reason: 'Invalid',
      message: `PersistentVolume "${name}" is invalid: [spec.accessModes: Required value, spec.nfs: Forbidden: may not specify more than 1 volume type]`,
    });
  });

  it('keeps the volume source immutable', async () => {
    const name = uniqueName('pv');
    expect((await c.post(PVS, { metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: '/a' } } })).status).toBe(201);
    const r = await c.patch(`${PVS}/${name}`, { spec: { hostPath: { path: '/b' } } });
    expect(failure(r).message).toBe(`PersistentVolume "${name}" is invalid: spec.persistentvolumesource: Forbidden: is immutable after creation`);
    const grown = await c.patch(`${PVS}/${name}`, { spec: { capacity: { storage: '2Gi' } } });
    expect(grown.status).toBe(200);
  });
});

describe('StorageClass', () => {
  it('defaults reclaimPolicy Delete and volumeBindingMode Immediate', async () => {
    const name = uniqueName('sc');
    const r = await c.post(SCS, { metadata: { name }, provisioner: 'example.com/local' });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ provisioner: 'example.com/local', reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
  });

  it('requires a provisioner', async () => {
    const name = uniqueName('sc');
    const r = await c.post(SCS, { metadata: { name } });
    expect(failure(r)).toEqual({ code: 422, reason: 'Invalid', message: `StorageClass.storage.k8s.io "${name}" is invalid: provisioner: Required value` });
  });

  it('refuses changes to parameters, provisioner and reclaimPolicy', async () => {
    const name = uniqueName('sc');
    expect((await c.post(SCS, { metadata: { name }, provisioner: 'example.com/a', parameters: { type: 'gp2' } })).status).toBe(201);
    const r = await c.patch(`${SCS}/${name}`, { provisioner: 'example.com/b', parameters: { type: 'gp3' }, reclaimPolicy: 'Retain' });
    expect(failure(r)).toEqual({
      code: 422,
      reason: 'Invalid',
      message: `StorageClass.storage.k8s.io "${name}" is invalid: [parameters: Forbidden: updates to parameters are forbidden., provisioner: Forbidden: updates to provisioner are forbidden., reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.]`,
    });
    const labelled = await c.patch(`${SCS}/${name}`, { metadata: { labels: { tier: 'fast' } } });
    expect(labelled.status).toBe(200);
  });
});
