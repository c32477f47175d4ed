import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient } from '../testing/api-server';
import { createMemoryBackend } from '../storage/memory-backend';
import { advertiseAddress, FALLBACK_ADVERTISE_ADDRESS, reconciledEndpoints, sliceFromEndpoints } from './kubernetes-endpoints';

const EP = '/api/v1/namespaces/default/endpoints/kubernetes';
const SLICE = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes';
const PORTS = [{ name: 'https', port: 6443, protocol: 'TCP' }];

describe('advertiseAddress', () => {
  it('takes the IPv4 literal of host:port or a bare host', () => {
    expect(advertiseAddress('10.1.2.3:8080')).toBe('10.1.2.3');
    expect(advertiseAddress('192.168.49.2')).toBe('192.168.49.2');
  });

  it('falls back for addresses Endpoints validation refuses, hostnames, IPv6 and nothing', () => {
    for (const a of ['127.0.0.1:8080', '127.5.5.5', '0.0.0.0:80', '169.254.1.1:1', '224.0.0.7', 'localhost:8080', 'example.github.io', '[::1]:8080', '::1', '10.0.0.256', '10.01.0.1', '', undefined]) {
      expect(advertiseAddress(a), String(a)).toBe(FALLBACK_ADVERTISE_ADDRESS);
    }
  });
});

describe('reconciledEndpoints', () => {
  const good = { metadata: { name: 'kubernetes', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } }, subsets: [{ addresses: [{ ip: '10.0.0.9' }], ports: PORTS }] };

  it('leaves correct Endpoints alone', () => {
    expect(reconciledEndpoints(good, '10.0.0.9')).toBeUndefined();
  });

  it('adds the skip-mirror label and keeps the other labels', () => {
    const e = reconciledEndpoints({ ...good, metadata: { name: 'kubernetes', labels: { team: 'a' } } }, '10.0.0.9');
    expect(e?.metadata.labels).toEqual({ team: 'a', 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    expect(e?.subsets).toEqual(good.subsets);
  });

  it('replaces a wrong address or wrong ports, and remakes a wrong shape', () => {
    expect(reconciledEndpoints(good, '10.0.0.1')?.subsets).toEqual([{ addresses: [{ ip: '10.0.0.1' }], ports: PORTS }]);
    const ports = reconciledEndpoints({ ...good, subsets: [{ addresses: [{ ip: '10.0.0.9' }], ports: [{ name: 'x', port: 1, protocol: 'TCP' }] }] }, '10.0.0.9');
    expect(ports?.subsets).toEqual(good.subsets);
    const two = reconciledEndpoints({ ...good, subsets: [good.subsets[0], good.subsets[0]] }, '10.0.0.9');
    expect(two?.subsets).toEqual(good.subsets);
    expect(reconciledEndpoints({ metadata: { name: 'kubernetes' } }, '10.0.0.9')?.subsets).toEqual(good.subsets);
  });
});

describe('sliceFromEndpoints', () => {
  it('maps ready and not-ready addresses, ports and the service-name label', () => {
    const slice = sliceFromEndpoints({ subsets: [{ addresses: [{ ip: '10.0.0.1' }], notReadyAddresses: [{ ip: '10.0.0.2', nodeName: 'n' }], ports: PORTS }] });
    expect(slice).toEqual({
      metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
      addressType: 'IPv4',
      endpoints: [
        { addresses: ['10.0.0.1'], conditions: { ready: true } },
        { addresses: ['10.0.0.2'], conditions: { ready: false }, nodeName: 'n' },
      ],
      ports: [{ name: 'https', protocol: 'TCP', port: 6443 }],
    });
  });

  it('is IPv6 only when every address is', () => {
    expect(sliceFromEndpoints({ subsets: [{ addresses: [{ ip: 'fd00::1' }] }] }).addressType).toBe('IPv6');
    expect(sliceFromEndpoints({ subsets: [{ addresses: [{ ip: 'fd00::1' }, { ip: '10.0.0.1' }] }] }).endpoints).toEqual([{ addresses: ['10.0.0.1'], conditions: { ready: true } }]);
  });
});

describe('the default/kubernetes Endpoints and EndpointSlice at start', () => {
  let c: TestClient;
  beforeAll(async () => {
    c = await startTestServer({ serverAddress: '10.20.30.40:6443' });
  });
  afterAll(async () => {
    await c.close();
  });

  it('Endpoints carry the server address on port 6443 and the skip-mirror label, written by kube-apiserver', async () => {
    const r = await c.get(EP);
    expect(r.status).toBe(200);
    expect(r.json.metadata.labels).toEqual({ 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    expect(r.json.subsets).toEqual([{ addresses: [{ ip: '10.20.30.40' }], ports: PORTS }]);
    expect(r.json.metadata.managedFields.map((m: { manager: string; operation: string }) => [m.manager, m.operation])).toEqual([['kube-apiserver', 'Update']]);
    // The fields in Go's order, as kube-apiserver writes them.
    expect(r.text).toContain('"subsets":[{"addresses":[{"ip":"10.20.30.40"}],"ports":[{"name":"https","port":6443,"protocol":"TCP"}]}]');
  });

  it('the EndpointSlice mirrors them, in both served versions', async () => {
    const r = await c.get(SLICE);
    expect(r.status).toBe(200);
    expect(r.json.metadata.labels).toEqual({ 'kubernetes.io/service-name': 'kubernetes' });
    expect(r.text).toContain('"addressType":"IPv4","endpoints":[{"addresses":["10.20.30.40"],"conditions":{"ready":true}}],"ports":[{"name":"https","protocol":"TCP","port":6443}]');
    const beta = await c.get('/apis/discovery.k8s.io/v1beta1/namespaces/default/endpointslices/kubernetes');
    expect(beta.json.endpoints).toEqual([{ addresses: ['10.20.30.40'], conditions: { ready: true } }]);
  });

  it('the Service, Endpoints and slice are found by the label selectors kube uses', async () => {
    const slices = await c.get('/apis/discovery.k8s.io/v1/namespaces/default/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dkubernetes');
    expect(slices.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['kubernetes']);
    const svc = await c.get('/api/v1/namespaces/default/services/kubernetes');
    expect(svc.json.metadata.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' });
    expect(svc.json.spec.ports[0].targetPort).toBe(6443);
  });
});

describe('a restart reconciles them', () => {
  it('to the new address, keeps correct objects unchanged, and undoes edits the reconciler checks', async () => {
    const backend = createMemoryBackend();
    const first = await startTestServer({ backend });
    const ep = (await first.get(EP)).json;
    const sliceVersion = (await first.get(SLICE)).json.metadata.resourceVersion;
    expect(ep.subsets[0].addresses).toEqual([{ ip: FALLBACK_ADVERTISE_ADDRESS }]);
    // Same address: nothing is rewritten.
    await first.close();
    const same = await startTestServer({ backend });
    expect((await same.get(EP)).json.metadata.resourceVersion).toBe(ep.metadata.resourceVersion);
    expect((await same.get(SLICE)).json.metadata.resourceVersion).toBe(sliceVersion);
    // Edits: a label added and the skip-mirror label dropped, another port; the slice relabelled.
    const edited = await same.put(EP, { ...ep, metadata: { ...ep.metadata, resourceVersion: undefined, labels: { team: 'a' } }, subsets: [{ addresses: [{ ip: '10.9.9.9' }], ports: [{ name: 'x', port: 1, protocol: 'TCP' }] }] });
    expect(edited.status).toBe(200);
    const slice = (await same.get(SLICE)).json;
    expect((await same.put(SLICE, { ...slice, metadata: { ...slice.metadata, labels: { other: 'x' }, annotations: { note: 'n' } } })).status).toBe(200);
    await same.close();

    const moved = await startTestServer({ backend, serverAddress: '10.1.1.1:443' });
    try {
      const now = (await moved.get(EP)).json;
      expect(now.metadata.uid).toBe(ep.metadata.uid);
      expect(now.metadata.labels).toEqual({ team: 'a', 'endpointslice.kubernetes.io/skip-mirror': 'true' });
      expect(now.subsets).toEqual([{ addresses: [{ ip: '10.1.1.1' }], ports: PORTS }]);
      const s = (await moved.get(SLICE)).json;
      expect(s.metadata.uid).toBe(slice.metadata.uid);
      expect(s.metadata.labels).toEqual({ 'kubernetes.io/service-name': 'kubernetes' });
      expect(s.metadata.annotations).toBeUndefined();
      expect(s.endpoints).toEqual([{ addresses: ['10.1.1.1'], conditions: { ready: true } }]);
      expect(s.ports).toEqual([{ name: 'https', protocol: 'TCP', port: 6443 }]);
    } finally {
      await moved.close();
    }
  });

  it('recreates them when they were deleted', async () => {
    const backend = createMemoryBackend();
    const first = await startTestServer({ backend });
    expect((await first.del(EP)).status).toBe(200);
    expect((await first.del(SLICE)).status).toBe(200);
    await first.close();
    const again = await startTestServer({ backend });
    try {
      expect((await again.get(EP)).json.subsets[0].addresses).toEqual([{ ip: FALLBACK_ADVERTISE_ADDRESS }]);
      expect((await again.get(SLICE)).json.endpoints[0].addresses).toEqual([FALLBACK_ADVERTISE_ADDRESS]);
    } finally {
      await again.close();
    }
  });
});
