import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient } from '../testing/api-server';

describe('admission plug-ins', () => {
  let c: TestClient;
  beforeAll(async () => {
    c = await startTestServer();
    await c.post('/api/v1/namespaces', { metadata: { name: 'limited' } });
  });
  afterAll(async () => {
    await c.close();
  });
  const podBody = (name: string, spec: object = {}, container: object = {}) => ({ metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx', ...container }], ...spec } });

  describe('Priority', () => {
    it('resolves priorityClassName to the class value and preemption policy', async () => {
      expect((await c.post('/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name: 'high' }, value: 1000, preemptionPolicy: 'Never' })).status).toBe(201);
      const r = await c.post('/api/v1/namespaces/default/pods', podBody('p-high', { priorityClassName: 'high' }));
      expect(r.status).toBe(201);
      expect(r.json.spec).toMatchObject({ priorityClassName: 'high', priority: 1000, preemptionPolicy: 'Never' });
      const sys = await c.post('/api/v1/namespaces/default/pods', podBody('p-sys', { priorityClassName: 'system-cluster-critical' }));
      expect(sys.json.spec.priority).toBe(2000000000);
    });
    it('refuses unknown classes and conflicting priorities', async () => {
      const missing = await c.post('/api/v1/namespaces/default/pods', podBody('p-x', { priorityClassName: 'nope' }));
      expect(missing.status).toBe(403);
      expect(missing.json.message).toBe('pods "p-x" is forbidden: no PriorityClass with name nope was found');
      const own = await c.post('/api/v1/namespaces/default/pods', podBody('p-y', { priorityClassName: 'high', priority: 5 }));
      expect(own.status).toBe(403);
      expect(own.json.message).toBe('pods "p-y" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name');
    });
    it('gives class-less pods priority 0', async () => {
      const r = await c.post('/api/v1/namespaces/default/pods', podBody('p-none'));
      expect(r.json.spec.priority).toBe(0);
      expect(r.json.spec.priorityClassName).toBeUndefined();
    });
  });

  describe('LimitRanger', () => {
    it('fills missing requests and limits from the namespace LimitRange and annotates the pod', async () => {
      const lr = { metadata: { name: 'defaults' }, spec: { limits: [{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m' } }] } };
      expect((await c.post('/api/v1/namespaces/limited/limitranges', lr)).status).toBe(201);
      const r = await c.post('/api/v1/namespaces/limited/pods', podBody('lr1'));
      expect(r.status).toBe(201);
      expect(r.json.spec.containers[0].resources).toEqual({ limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '256Mi' } });
      expect(r.json.metadata.annotations['kubernetes.io/limit-ranger']).toBe('LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app');
    });
    it("keeps what the container sets, and its own limit wins over defaultRequest", async () => {
      const r = await c.post('/api/v1/namespaces/limited/pods', podBody('lr2', {}, { resources: { limits: { cpu: '1' } } }));
      expect(r.json.spec.containers[0].resources).toEqual({ limits: { cpu: '1', memory: '256Mi' }, requests: { cpu: '1', memory: '256Mi' } });
      expect(r.json.metadata.annotations['kubernetes.io/limit-ranger']).toBe('LimitRanger plugin set: memory request for container app; memory limit for container app');
    });
    it('leaves pods in namespaces without LimitRanges alone', async () => {
      const r = await c.post('/api/v1/namespaces/default/pods', podBody('lr3'));
      expect(r.json.spec.containers[0].resources).toEqual({});
      expect(r.json.metadata.annotations).toBeUndefined();
    });
  });

  describe('DefaultStorageClass', () => {
    const claim = (name: string, spec: object = {}) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec } });
    it('gives unset storageClassName the default class, and leaves "" alone', async () => {
      const none = await c.post('/api/v1/namespaces/default/persistentvolumeclaims', claim('before'));
      expect(none.json.spec.storageClassName).toBeUndefined();
      const sc = { metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'example.com/local' };
      expect((await c.post('/apis/storage.k8s.io/v1/storageclasses', sc)).status).toBe(201);
      expect((await c.post('/api/v1/namespaces/default/persistentvolumeclaims', claim('after'))).json.spec.storageClassName).toBe('standard');
      expect((await c.post('/api/v1/namespaces/default/persistentvolumeclaims', claim('empty', { storageClassName: '' }))).json.spec.storageClassName).toBe('');
    });
    it('refuses claims when two classes are the default', async () => {
      const sc = { metadata: { name: 'fast', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'example.com/local' };
      expect((await c.post('/apis/storage.k8s.io/v1/storageclasses', sc)).status).toBe(201);
      const r = await c.post('/api/v1/namespaces/default/persistentvolumeclaims', claim('two'));
      expect(r.status).toBe(403);
      expect(r.json.message).toBe('persistentvolumeclaims "two" is forbidden: Internal error occurred: 2 default StorageClasses were found');
    });
  });
});
