import { describe, expect, it } from 'vitest';
import { HOSTNAME_LABEL, ZONE_LABEL } from './endpointslice';
import { convert } from './index';
import { roundTrip } from './roundtrip.test-helper';

const base = (apiVersion: string, endpoints: object[]) => ({
  apiVersion,
  kind: 'EndpointSlice',
  metadata: { name: 'web-abc', namespace: 'default', labels: { 'kubernetes.io/service-name': 'web' } },
  addressType: 'IPv4',
  endpoints,
  ports: [{ name: 'http', protocol: 'TCP', port: 80, appProtocol: 'http' }],
});

const common = {
  addresses: ['10.0.0.1'],
  conditions: { ready: true, serving: true, terminating: false },
  hostname: 'web-0',
  targetRef: { kind: 'Pod', namespace: 'default', name: 'web-0', uid: 'u1' },
};
const hints = { forZones: [{ name: 'z1' }] };

const v1Endpoint = { ...common, deprecatedTopology: { rack: 'r1' }, nodeName: 'n1', zone: 'z1', hints };
const betaEndpoint = { ...common, topology: { rack: 'r1', [ZONE_LABEL]: 'z1', [HOSTNAME_LABEL]: 'n1' }, nodeName: 'n1', hints };

const endpoints = (o: object) => (o as { endpoints: object[] }).endpoints;

describe('EndpointSlice discovery.k8s.io v1beta1 <-> v1', () => {
  it('splits v1beta1 topology into zone, nodeName and deprecatedTopology, in v1 field order', () => {
    const v1 = convert(base('discovery.k8s.io/v1beta1', [betaEndpoint]), 'discovery.k8s.io/v1beta1', 'discovery.k8s.io/v1');
    expect(JSON.stringify(endpoints(v1)[0])).toBe(JSON.stringify(v1Endpoint));
  });

  it('folds zone, nodeName and deprecatedTopology back into topology', () => {
    const beta = convert(base('discovery.k8s.io/v1', [v1Endpoint]), 'discovery.k8s.io/v1', 'discovery.k8s.io/v1beta1');
    expect(endpoints(beta)[0]).toEqual(betaEndpoint);
    const bare = convert(base('discovery.k8s.io/v1', [common]), 'discovery.k8s.io/v1', 'discovery.k8s.io/v1beta1');
    expect(endpoints(bare)[0]).toEqual(common);
  });

  it('keeps a v1beta1 hostname topology that differs from nodeName', () => {
    const odd = { ...common, topology: { [HOSTNAME_LABEL]: 'other' }, nodeName: 'n1' };
    const v1 = convert(base('discovery.k8s.io/v1beta1', [odd]), 'discovery.k8s.io/v1beta1', 'discovery.k8s.io/v1');
    expect(endpoints(v1)[0]).toEqual({ ...common, deprecatedTopology: { [HOSTNAME_LABEL]: 'other' }, nodeName: 'n1' });
  });

  it('round-trips fully populated objects both ways', () => {
    const v1 = base('discovery.k8s.io/v1', [v1Endpoint, common]);
    expect(roundTrip(v1, 'discovery.k8s.io/v1', 'discovery.k8s.io/v1', 'discovery.k8s.io/v1beta1')).toEqual(v1);
    const beta = base('discovery.k8s.io/v1beta1', [betaEndpoint, common]);
    expect(roundTrip(beta, 'discovery.k8s.io/v1beta1', 'discovery.k8s.io/v1', 'discovery.k8s.io/v1beta1')).toEqual(beta);
  });
});
