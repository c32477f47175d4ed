import { describe, expect, it } from 'vitest';
import { invalid as invalidStatus } from '../meta/status';
import { ClusterIpAllocator, NodePortAllocator, allocateServiceAddresses, releaseServiceAddresses } from './index';
import { rulesFor } from '../kinds';

const rules = rulesFor('', 'Service')!;

function svc(spec: Record<string, unknown>): any {
  return { metadata: { name: 's', namespace: 'default' }, spec };
}

function seq(): () => number {
  return () => 0; // deterministic: start scanning at the bottom of the range
}

describe('Service defaults', () => {
  it('fills type, affinity, protocol, targetPort and families', () => {
    const s = svc({ ports: [{ port: 80 }], selector: { app: 'web' } });
    rules.defaults!(s);
    expect(s.spec).toEqual({
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      selector: { app: 'web' },
      sessionAffinity: 'None',
      type: 'ClusterIP',
      internalTrafficPolicy: 'Cluster',
      ipFamilyPolicy: 'SingleStack',
      ipFamilies: ['IPv4'],
    });
  });
  it('adds externalTrafficPolicy and allocateLoadBalancerNodePorts for LoadBalancer', () => {
    const s = svc({ type: 'LoadBalancer', ports: [{ port: 80, targetPort: 'http' }] });
    rules.defaults!(s);
    expect(s.spec.externalTrafficPolicy).toBe('Cluster');
    expect(s.spec.allocateLoadBalancerNodePorts).toBe(true);
    expect(s.spec.ports[0].targetPort).toBe('http');
  });
});

describe('Service validation', () => {
  function check(spec: Record<string, unknown>) {
    const s = svc(spec);
    rules.defaults!(s);
    return rules.validateCreate!(s);
  }
  it('accepts valid services', () => {
    expect(check({ ports: [{ port: 80 }] })).toEqual([]);
    expect(check({ clusterIP: 'None', selector: { a: 'b' } })).toEqual([]);
    expect(check({ type: 'ExternalName', externalName: 'example.com.' })).toEqual([]);
  });
  it.each([
    ['no ports', {}, [{ type: 'FieldValueRequired', field: 'spec.ports' }]],
    ['port out of range', { ports: [{ port: 0, targetPort: 1 }] }, [{ type: 'FieldValueInvalid', field: 'spec.ports[0].port', value: 0, detail: 'must be between 1 and 65535, inclusive' }]],
    ['unnamed ports when several', { ports: [{ port: 80 }, { port: 81, name: 'b' }] }, [{ type: 'FieldValueRequired', field: 'spec.ports[0].name' }]],
    [
      'duplicate port names',
      { ports: [{ port: 80, name: 'a' }, { port: 81, name: 'a' }] },
      [{ type: 'FieldValueDuplicate', field: 'spec.ports[1].name', value: 'a' }],
    ],
    ['bad type', { type: 'Magic', ports: [{ port: 80 }] }, [{ type: 'FieldValueNotSupported', field: 'spec.type', value: 'Magic', supported: ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'] }]],
    ['ExternalName without name', { type: 'ExternalName' }, [{ type: 'FieldValueRequired', field: 'spec.externalName' }]],
  ])('%s', (_n, spec, want) => expect(check(spec)).toEqual(want));

  it('keeps the cluster IP immutable', () => {
    const old = svc({ ports: [{ port: 80 }], clusterIP: '10.96.0.10' });
    rules.defaults!(old);
    const next = svc({ ports: [{ port: 80 }], clusterIP: '10.96.0.11' });
    rules.defaults!(next);
    const errs = rules.validateUpdate!(next, old);
    expect(invalidStatus('', 'Service', 's', errs).message).toBe('Service "s" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.0.11"}: may not change once set');
  });

  it('keeps the allocated IP when an update omits it', () => {
    const old = svc({ ports: [{ port: 80 }], clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'] });
    rules.defaults!(old);
    const next = svc({ ports: [{ port: 80 }] });
    rules.prepareForUpdate!(next, old);
    rules.defaults!(next);
    expect(next.spec.clusterIP).toBe('10.96.0.10');
    expect(rules.validateUpdate!(next, old)).toEqual([]);
  });
});

describe('ClusterIpAllocator', () => {
  it('allocates inside 10.96.0.0/12, never 10.96.0.1, and not twice', () => {
    const a = new ClusterIpAllocator(seq());
    expect(a.allocate()).toBe('10.96.0.2');
    expect(a.allocate()).toBe('10.96.0.3');
    expect(a.reserve('10.96.0.1')).toBe(true);
    expect(a.reserve('10.96.0.1')).toBe(false);
    expect(a.reserve('10.0.0.1')).toBe(false);
    a.release('10.96.0.2');
    expect(a.allocate()).toBe('10.96.0.2');
  });

  it('reports out-of-range and taken IPs like the service registry', () => {
    const allocators = { ips: new ClusterIpAllocator(seq()), nodePorts: new NodePortAllocator(seq()) };
    const s = svc({ clusterIP: '10.0.0.1', ports: [{ port: 80 }] });
    rules.defaults!(s);
    const r = allocateServiceAddresses(s, allocators);
    expect(invalidStatus('', 'Service', 's', r.errors).message).toBe(
      'Service "s" is invalid: spec.clusterIPs: Invalid value: []string{"10.0.0.1"}: failed to allocate IP 10.0.0.1: provided IP is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    );
    expect(allocators.ips.check('10.96.5.5')).toBeUndefined();
    allocators.ips.reserve('10.96.5.5');
    expect(allocators.ips.check('10.96.5.5')?.detail).toBe('failed to allocate IP 10.96.5.5: provided IP is already allocated');
  });

  it('allocates IPs and node ports, and releases them', () => {
    const allocators = { ips: new ClusterIpAllocator(seq()), nodePorts: new NodePortAllocator(seq()) };
    const s = svc({ type: 'NodePort', ports: [{ port: 80 }] });
    rules.defaults!(s);
    const r = allocateServiceAddresses(s, allocators);
    expect(r.errors).toEqual([]);
    expect(s.spec.clusterIP).toBe('10.96.0.2');
    expect(s.spec.clusterIPs).toEqual(['10.96.0.2']);
    expect(s.spec.ports[0].nodePort).toBe(30000);
    expect(rules.validateCreate!(s)).toEqual([]);
    releaseServiceAddresses(s, allocators);
    expect(allocators.ips.isTaken('10.96.0.2')).toBe(false);
    expect(allocators.nodePorts.isTaken(30000)).toBe(false);
    const bad = svc({ type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] });
    rules.defaults!(bad);
    expect(allocateServiceAddresses(bad, allocators).errors).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.ports[0].nodePort', value: 80, detail: 'provided port is not in the valid range. The range of valid ports is 30000-32767' },
    ]);
    // The failed call gave back the IP it had taken.
    expect(allocators.ips.isTaken(bad.spec.clusterIP)).toBe(false);
  });
});
