import { describe, expect, it } from 'vitest';
import { invalid as invalidStatus } from '../meta/status';
import { rulesFor } from '../kinds';

const endpoints = rulesFor('', 'Endpoints')!;
const slices = rulesFor('discovery.k8s.io', 'EndpointSlice')!;

const epMessage = (errs: ReturnType<NonNullable<typeof endpoints.validateCreate>>) => invalidStatus('', 'Endpoints', 'svc', errs).message;
const sliceMessage = (errs: ReturnType<NonNullable<typeof slices.validateCreate>>) => invalidStatus('discovery.k8s.io', 'EndpointSlice', 's', errs).message;

function ep(subsets: unknown[]): any {
  return { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'svc', namespace: 'default' }, subsets };
}

describe('Endpoints', () => {
  it('defaults port protocols to TCP and accepts a usual object', () => {
    const obj = ep([{ addresses: [{ ip: '10.244.0.5', nodeName: 'node-1', targetRef: { kind: 'Pod', name: 'p' } }], notReadyAddresses: [{ ip: '2001:db8::5' }], ports: [{ name: 'http', port: 80 }, { name: 'dns', port: 53, protocol: 'UDP' }] }]);
    endpoints.defaults!(obj);
    expect(obj.subsets[0].ports).toEqual([{ name: 'http', port: 80, protocol: 'TCP' }, { name: 'dns', port: 53, protocol: 'UDP' }]);
    expect(endpoints.validateCreate!(obj)).toEqual([]);
  });

  it('a subset needs addresses, but not ports (headless services)', () => {
    expect(epMessage(endpoints.validateCreate!(ep([{ ports: [{ port: 80, protocol: 'TCP' }] }])))).toBe(
      'Endpoints "svc" is invalid: subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`',
    );
    expect(endpoints.validateCreate!(ep([{ addresses: [{ ip: '10.0.0.1' }] }]))).toEqual([]);
  });

  it('rejects invalid and special addresses, with the hostname and nodeName checks', () => {
    const obj = ep([{ addresses: [{ ip: 'not-an-ip' }, { ip: '127.0.0.1', hostname: 'Web_1' }], notReadyAddresses: [{ ip: '169.254.169.254', nodeName: 'Node_1' }] }]);
    expect(epMessage(endpoints.validateCreate!(obj))).toBe(
      'Endpoints "svc" is invalid: [' +
        'subsets[0].addresses[0].ip: Invalid value: "not-an-ip": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff), ' +
        'subsets[0].addresses[0].ip: Invalid value: "not-an-ip": must be a valid IP address, ' +
        `subsets[0].addresses[1].hostname: Invalid value: "Web_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), ` +
        'subsets[0].addresses[1].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128), ' +
        `subsets[0].notReadyAddresses[0].nodeName: Invalid value: "Node_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), ` +
        'subsets[0].notReadyAddresses[0].ip: Invalid value: "169.254.169.254": may not be in the link-local range (169.254.0.0/16, fe80::/10)]',
    );
    expect(endpoints.validateCreate!(ep([{ addresses: [{ ip: '0.0.0.0' }] }]))[0].detail).toBe('may not be unspecified (0.0.0.0)');
  });

  it('names every port when there are several; port range and protocol', () => {
    const obj = ep([{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 0 }, { name: 'HTTP', port: 70000, protocol: 'ICMP' }] }]);
    endpoints.defaults!(obj);
    expect(endpoints.validateCreate!(obj)).toEqual([
      { type: 'FieldValueRequired', field: 'subsets[0].ports[0].name' },
      { type: 'FieldValueInvalid', field: 'subsets[0].ports[0].port', value: 0, detail: 'must be between 1 and 65535, inclusive' },
      {
        type: 'FieldValueInvalid',
        field: 'subsets[0].ports[1].name',
        value: 'HTTP',
        detail: "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      },
      { type: 'FieldValueInvalid', field: 'subsets[0].ports[1].port', value: 70000, detail: 'must be between 1 and 65535, inclusive' },
      { type: 'FieldValueNotSupported', field: 'subsets[0].ports[1].protocol', value: 'ICMP', supported: ['SCTP', 'TCP', 'UDP'] },
    ]);
  });
});

function slice(version: string, body: Record<string, unknown>): any {
  return { apiVersion: `discovery.k8s.io/${version}`, kind: 'EndpointSlice', metadata: { name: 's', namespace: 'default' }, ...body };
}

describe('EndpointSlice', () => {
  it('defaults port name "" and protocol TCP, and conditions {} (golden)', () => {
    const obj = slice('v1', { addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'] }], ports: [{ port: 80 }] });
    slices.defaults!(obj);
    expect(obj.endpoints).toEqual([{ addresses: ['10.0.0.1'], conditions: {} }]);
    expect(obj.ports).toEqual([{ port: 80, name: '', protocol: 'TCP' }]);
    expect(slices.validateCreate!(obj)).toEqual([]);
  });

  it('requires a supported addressType', () => {
    expect(sliceMessage(slices.validateCreate!(slice('v1', {})))).toBe('EndpointSlice.discovery.k8s.io "s" is invalid: addressType: Required value');
    expect(sliceMessage(slices.validateCreate!(slice('v1', { addressType: 'IP' })))).toBe(
      'EndpointSlice.discovery.k8s.io "s" is invalid: addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"',
    );
  });

  it('checks addresses against the address type', () => {
    const v4 = slice('v1', { addressType: 'IPv4', endpoints: [{ addresses: ['2001:db8::1', '127.0.0.1'] }, { addresses: [] }] });
    expect(sliceMessage(slices.validateCreate!(v4))).toBe(
      'EndpointSlice.discovery.k8s.io "s" is invalid: [endpoints[0].addresses[0]: Invalid value: "2001:db8::1": must be a valid IPv4 address, ' +
        'endpoints[0].addresses[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128), ' +
        'endpoints[1].addresses: Required value: must contain at least 1 address]',
    );
    const v6 = slice('v1', { addressType: 'IPv6', endpoints: [{ addresses: ['10.0.0.1', 'x'] }] });
    expect(slices.validateCreate!(v6).map((e) => e.detail)).toEqual(['must be a valid IPv6 address', 'must be a valid IPv6 address', 'must be a valid IP address']);
    const fqdn = slice('v1', { addressType: 'FQDN', endpoints: [{ addresses: ['example.com.', 'localhost', 'Bad.com'] }] });
    expect(slices.validateCreate!(fqdn)).toEqual([
      { type: 'FieldValueInvalid', field: 'endpoints[0].addresses[1]', value: 'localhost', detail: 'should be a domain with at least two segments separated by dots' },
      {
        type: 'FieldValueInvalid',
        field: 'endpoints[0].addresses[2]',
        value: 'Bad.com',
        detail:
          "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      },
    ]);
  });

  it('limits addresses per endpoint and endpoints per slice, printing the count', () => {
    const many = slice('v1', { addressType: 'IPv4', endpoints: [{ addresses: Array.from({ length: 101 }, (_, i) => `10.0.${i >> 8}.${(i & 255) + 1}`) }] });
    expect(sliceMessage(slices.validateCreate!(many))).toBe('EndpointSlice.discovery.k8s.io "s" is invalid: endpoints[0].addresses: Too many: 101: must have at most 100 items');
    const lots = slice('v1', { addressType: 'IPv4', endpoints: Array.from({ length: 1001 }, () => ({ addresses: ['bad'] })) });
    expect(sliceMessage(slices.validateCreate!(lots))).toBe('EndpointSlice.discovery.k8s.io "s" is invalid: endpoints: Too many: 1001: must have at most 1000 items');
  });

  it('port names are unique DNS labels; protocol and appProtocol are checked', () => {
    const obj = slice('v1', { addressType: 'IPv4', ports: [{ port: 80 }, { port: 81 }, { name: 'Web', protocol: 'ICMP', appProtocol: 'a/b/c' }] });
    slices.defaults!(obj);
    expect(sliceMessage(slices.validateCreate!(obj))).toBe(
      'EndpointSlice.discovery.k8s.io "s" is invalid: [ports[1].name: Duplicate value: "", ' +
        `ports[2].name: Invalid value: "Web": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), ` +
        'ports[2].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP", ' +
        `ports[2].appProtocol: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')]`,
    );
  });

  it('nodeName, hostname, deprecatedTopology and zone hints', () => {
    const obj = slice('v1', {
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.0.0.1'], nodeName: 'Node', hostname: 'a.b', deprecatedTopology: { 'bad key!': 'v' }, hints: { forZones: [{ name: 'z' }, { name: 'z' }] } }],
    });
    expect(slices.validateCreate!(obj).map((e) => `${e.type} ${e.field}`)).toEqual([
      'FieldValueInvalid endpoints[0].nodeName',
      'FieldValueInvalid endpoints[0].deprecatedTopology',
      'FieldValueInvalid endpoints[0].hostname',
      'FieldValueDuplicate endpoints[0].hints.forZones[1].name',
    ]);
  });

  it('v1beta1 is validated in the v1 form: topology is reported as deprecatedTopology', () => {
    const obj = slice('v1beta1', { addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'], topology: { 'topology.kubernetes.io/zone': 'z1', 'bad key!': 'v' } }] });
    slices.defaults!(obj);
    expect(obj.endpoints[0].topology).toEqual({ 'topology.kubernetes.io/zone': 'z1', 'bad key!': 'v' });
    expect(slices.validateCreate!(obj).map((e) => e.field)).toEqual(['endpoints[0].deprecatedTopology']);
  });

  it('addressType is immutable', () => {
    const old = slice('v1', { addressType: 'IPv4' });
    expect(sliceMessage(slices.validateUpdate!(slice('v1', { addressType: 'IPv6' }), old, ''))).toBe(
      'EndpointSlice.discovery.k8s.io "s" is invalid: addressType: Invalid value: "IPv6": field is immutable',
    );
  });
});
