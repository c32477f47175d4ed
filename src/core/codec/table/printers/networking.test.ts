import { describe, expect, it } from 'vitest';
import { endpointSlicePrinter, ingressClassPrinter, ingressPrinter, networkPolicyPrinter } from './networking';

const NOW = Date.parse('2024-01-01T12:00:00Z');
const meta = (name: string) => ({ name, creationTimestamp: '2024-01-01T11:00:00Z' });

describe('networking printers', () => {
  it('ingress with class, hosts, address and TLS ports', () => {
    expect(ingressPrinter.columns.map((c) => c.name)).toEqual(['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age']);
    const ing = {
      metadata: meta('web'),
      spec: { ingressClassName: 'nginx', rules: [{ host: 'a.example.com' }, { host: 'b.example.com' }], tls: [{ hosts: ['a.example.com'] }] },
      status: { loadBalancer: { ingress: [{ ip: '192.0.2.10' }] } },
    };
    expect(ingressPrinter.print(ing, NOW).cells).toEqual(['web', 'nginx', 'a.example.com,b.example.com', '192.0.2.10', '80, 443', '60m']);
    expect(ingressPrinter.print({ metadata: meta('bare'), spec: { defaultBackend: {} } }, NOW).cells).toEqual(['bare', '<none>', '*', '', '80', '60m']);
    const many = { metadata: meta('m'), spec: { rules: ['a', 'b', 'c', 'd', 'e'].map((h) => ({ host: `${h}.io` })) } };
    expect(ingressPrinter.print(many, NOW).cells[2]).toBe('a.io,b.io,c.io + 2 more...');
  });

  it('ingressclass parameters', () => {
    const ic = { metadata: meta('nginx'), spec: { controller: 'k8s.io/ingress-nginx', parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'p' } } };
    expect(ingressClassPrinter.print(ic, NOW).cells).toEqual(['nginx', 'k8s.io/ingress-nginx', 'IngressParameters.k8s.example.com/p', '60m']);
    expect(ingressClassPrinter.print({ metadata: meta('x'), spec: { controller: 'c' } }, NOW).cells[2]).toBe('<none>');
  });

  it('network policy pod selector', () => {
    expect(networkPolicyPrinter.print({ metadata: meta('deny'), spec: { podSelector: {} } }, NOW).cells).toEqual(['deny', '<none>', '60m']);
    expect(networkPolicyPrinter.print({ metadata: meta('db'), spec: { podSelector: { matchLabels: { role: 'db' } } } }, NOW).cells[1]).toBe('role=db');
  });

  it('endpoint slice ports and addresses', () => {
    const slice = {
      metadata: meta('web-abc'),
      addressType: 'IPv4',
      ports: [{ name: 'http', port: 80 }, { name: 'named' }],
      endpoints: [{ addresses: ['10.0.0.1'] }, { addresses: ['10.0.0.2', '10.0.0.3'] }, { addresses: ['10.0.0.4'] }],
    };
    expect(endpointSlicePrinter.print(slice, NOW).cells).toEqual(['web-abc', 'IPv4', '80,named', '10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...', '60m']);
    expect(endpointSlicePrinter.print({ metadata: meta('e'), addressType: 'IPv4' }, NOW).cells.slice(2, 4)).toEqual(['<unset>', '<unset>']);
  });
});
