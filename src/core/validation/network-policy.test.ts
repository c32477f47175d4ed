import { describe, expect, it } from 'vitest';
import { invalid as invalidStatus } from '../meta/status';
import { rulesFor } from '../kinds';

const np = rulesFor('networking.k8s.io', 'NetworkPolicy')!;
const message = (spec: object) => {
  const obj: any = { apiVersion: 'networking.k8s.io/v1', metadata: { name: 'p' }, spec };
  np.defaults!(obj);
  return invalidStatus('networking.k8s.io', 'NetworkPolicy', 'p', np.validateCreate!(obj)).message;
};

describe('NetworkPolicy defaults', () => {
  it('fills podSelector, policyTypes Ingress and each port protocol TCP', () => {
    const obj: any = { spec: { ingress: [{ ports: [{ port: 80 }, { protocol: 'UDP', port: 53 }] }] } };
    np.defaults!(obj);
    expect(obj.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress'], ingress: [{ ports: [{ port: 80, protocol: 'TCP' }, { protocol: 'UDP', port: 53 }] }] });
  });

  it('adds Egress when egress rules are present, and leaves given policyTypes alone', () => {
    const withEgress: any = { spec: { podSelector: {}, egress: [{ ports: [{}] }] } };
    np.defaults!(withEgress);
    expect(withEgress.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(withEgress.spec.egress[0].ports[0]).toEqual({ protocol: 'TCP' });
    const given: any = { spec: { podSelector: {}, policyTypes: ['Egress'], ingress: [{}] } };
    np.defaults!(given);
    expect(given.spec.policyTypes).toEqual(['Egress']);
    const missing: any = {};
    np.defaults!(missing);
    expect(missing.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress'] });
  });
});

describe('NetworkPolicy validation', () => {
  it('accepts a typical policy', () => {
    const obj: any = {
      spec: {
        podSelector: { matchLabels: { app: 'db' } },
        ingress: [{ from: [{ podSelector: { matchLabels: { app: 'web' } }, namespaceSelector: {} }, { ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }], ports: [{ port: 'http' }, { port: 8000, endPort: 9000 }] }],
        egress: [{ to: [{ ipBlock: { cidr: 'fd00::/8' } }] }],
      },
    };
    np.defaults!(obj);
    expect(np.validateCreate!(obj)).toEqual([]);
    expect(np.validateUpdate!(obj, obj, '')).toEqual([]);
  });

  it('checks ports: protocol, number range, names and endPort', () => {
    expect(message({ ingress: [{ ports: [{ protocol: 'ICMP', port: 0 }, { port: 'Not_A_Name' }, { port: 90, endPort: 80 }, { port: 'dns', endPort: 60 }, { endPort: 70 }] }] })).toBe(
      'NetworkPolicy.networking.k8s.io "p" is invalid: [' +
        'spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP", ' +
        'spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive, ' +
        'spec.ingress[0].ports[1].port: Invalid value: "Not_A_Name": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-), ' +
        'spec.ingress[0].ports[2].endPort: Invalid value: 90: must be greater than or equal to `port`, ' +
        'spec.ingress[0].ports[3].endPort: Invalid value: 60: may not be specified when `port` is non-numeric, ' +
        'spec.ingress[0].ports[4].endPort: Invalid value: 70: may not be specified when `port` is not specified]',
    );
    expect(message({ egress: [{ ports: [{ port: 80, endPort: 70000 }] }] })).toBe(
      'NetworkPolicy.networking.k8s.io "p" is invalid: spec.egress[0].ports[0].endPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
    );
  });

  it('checks peers: one kind at least, ipBlock alone, selectors', () => {
    expect(message({ ingress: [{ from: [{}, { ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }, { podSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] } }] }] })).toBe(
      'NetworkPolicy.networking.k8s.io "p" is invalid: [' +
        'spec.ingress[0].from[0]: Required value: must specify a peer, ' +
        'spec.ingress[0].from[1]: Forbidden: may not specify both ipBlock and another peer, ' +
        "spec.ingress[0].from[2].podSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn']",
    );
    expect(message({ podSelector: { matchLabels: { 'bad key': 'x' } } })).toMatch(/^NetworkPolicy.networking.k8s.io "p" is invalid: spec.podSelector.matchLabels: Invalid value: "bad key": name part must consist of/);
  });

  it('checks ipBlock: cidr required and valid, except a strict subset', () => {
    expect(message({ egress: [{ to: [{ ipBlock: {} }, { ipBlock: { cidr: '10.0.0.0/33' } }, { ipBlock: { cidr: '10.0.0.0/8', except: ['10.0.0.0/8', '11.0.0.0/16', '10.2.0.0/16'] } }] }] })).toBe(
      'NetworkPolicy.networking.k8s.io "p" is invalid: [' +
        'spec.egress[0].to[0].ipBlock.cidr: Required value, ' +
        'spec.egress[0].to[1].ipBlock.cidr: Invalid value: "10.0.0.0/33": not a valid CIDR, ' +
        'spec.egress[0].to[2].ipBlock.except[0]: Invalid value: "10.0.0.0/8": must be a strict subset of `cidr`, ' +
        'spec.egress[0].to[2].ipBlock.except[1]: Invalid value: "11.0.0.0/16": must be a strict subset of `cidr`]',
    );
    // The first unparseable except ends the block's checks.
    expect(message({ egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['nope', '11.0.0.0/16'] } }] }] })).toBe(
      'NetworkPolicy.networking.k8s.io "p" is invalid: spec.egress[0].to[0].ipBlock.except[0]: Invalid value: "nope": not a valid CIDR',
    );
  });

  it('checks policyTypes: at most two, each Ingress or Egress (a repeat is allowed in 1.23)', () => {
    expect(message({ policyTypes: ['Ingress', 'Egress', 'Ingress'] })).toBe(
      'NetworkPolicy.networking.k8s.io "p" is invalid: spec.policyTypes: Invalid value: []networking.PolicyType{"Ingress", "Egress", "Ingress"}: may not specify more than two policyTypes',
    );
    expect(message({ policyTypes: ['Ingress', 'egress'] })).toBe(
      'NetworkPolicy.networking.k8s.io "p" is invalid: spec.policyTypes[1]: Unsupported value: "egress": supported values: "Ingress", "Egress"',
    );
    const obj: any = { spec: { podSelector: {}, policyTypes: ['Egress', 'Egress'] } };
    expect(np.validateCreate!(obj)).toEqual([]);
  });
});
