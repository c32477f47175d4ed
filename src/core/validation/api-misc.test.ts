import { describe, expect, it } from 'vitest';
import { invalid as invalidStatus } from '../meta/status';
import { apiServiceRules, certificateSigningRequestRules, controllerRevisionRules } from './api-misc';
import { checkOuterSequence, pemDecode } from './api-misc-pem';
import { encodeBase64Text } from './base64';
import { validateObjectMeta } from './meta';
import { builtinApiServicePriority } from '../kinds/apiservice-priorities';
import { apiServiceName } from '../kinds/apiservices';

const msg = (group: string, kind: string, name: string, errs: any[]) => invalidStatus(group, kind, name, errs).message;

// ------------------------------------------------------------------------- APIService

const as = apiServiceRules;
const apiService = (name: string, spec: object): any => {
  const obj: any = { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name }, spec };
  as.defaults!(obj);
  return obj;
};
const asMessage = (name: string, spec: object) => msg('apiregistration.k8s.io', 'APIService', name, as.validateCreate!(apiService(name, spec)));
const AS_PREFIX = (name: string) => `APIService.apiregistration.k8s.io "${name}" is invalid: `;
const remote = { group: 'metrics.k8s.io', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 100, service: { namespace: 'kube-system', name: 'metrics-server' } };

describe('APIService', () => {
  it('accepts every local APIService the server registers itself (built-ins and CRDs)', () => {
    const builtins: Array<[string, string]> = [
      ['', 'v1'], ['apps', 'v1'], ['events.k8s.io', 'v1'], ['events.k8s.io', 'v1beta1'], ['authentication.k8s.io', 'v1'],
      ['authorization.k8s.io', 'v1'], ['autoscaling', 'v1'], ['autoscaling', 'v2'], ['autoscaling', 'v2beta1'], ['autoscaling', 'v2beta2'],
      ['batch', 'v1'], ['batch', 'v1beta1'], ['certificates.k8s.io', 'v1'], ['networking.k8s.io', 'v1'], ['policy', 'v1'], ['policy', 'v1beta1'],
      ['rbac.authorization.k8s.io', 'v1'], ['storage.k8s.io', 'v1'], ['storage.k8s.io', 'v1beta1'], ['apiextensions.k8s.io', 'v1'],
      ['admissionregistration.k8s.io', 'v1'], ['scheduling.k8s.io', 'v1'], ['coordination.k8s.io', 'v1'], ['node.k8s.io', 'v1'],
      ['node.k8s.io', 'v1beta1'], ['discovery.k8s.io', 'v1'], ['discovery.k8s.io', 'v1beta1'],
      ['flowcontrol.apiserver.k8s.io', 'v1beta2'], ['flowcontrol.apiserver.k8s.io', 'v1beta1'],
    ];
    for (const [group, version] of builtins) {
      const p = builtinApiServicePriority(group, version);
      expect(p, `${group}/${version}`).toBeDefined();
      // The same body the autoregistration pass creates: no group for the core group, no service.
      const name = apiServiceName(group, version);
      const body = { metadata: { name, labels: { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' } }, spec: { ...(group ? { group } : {}), version, groupPriorityMinimum: p!.group, versionPriority: p!.version } };
      as.defaults!(body);
      expect(as.validateCreate!(body), name).toEqual([]);
      expect(validateObjectMeta(body.metadata, { namespaced: false, nameRule: 'path-segment' } as any), name).toEqual([]);
      expect(as.validateUpdate!(body, body, ''), name).toEqual([]);
      const withStatus = { ...body, status: { conditions: [{ type: 'Available', status: 'True', reason: 'Local', message: 'Local APIServices are always available' }] } };
      expect(as.validateUpdate!(withStatus, body, 'status'), name).toEqual([]);
    }
    // The CRD registration controller's APIService.
    expect(as.validateCreate!(apiService('v1alpha1.stable.example.com', { group: 'stable.example.com', version: 'v1alpha1', groupPriorityMinimum: 1000, versionPriority: 100 }))).toEqual([]);
  });

  it('accepts a remote APIService and defaults its port to 443', () => {
    const obj = apiService('v1beta1.metrics.k8s.io', remote);
    expect(obj.spec.service.port).toBe(443);
    expect(as.validateCreate!(obj)).toEqual([]);
  });

  it('requires the name to be version.group', () => {
    expect(asMessage('v1.metrics.k8s.io', remote)).toBe(`${AS_PREFIX('v1.metrics.k8s.io')}metadata.name: Invalid value: "v1.metrics.k8s.io": must be \`spec.version+"."+spec.group\`: "v1beta1.metrics.k8s.io"`);
    // A name that is not even a path segment is reported by the metadata check only.
    expect(as.validateCreate!(apiService('a/b', remote))).toEqual([]);
  });

  it('checks group, version and priorities', () => {
    expect(asMessage('v2.', { version: 'v2', groupPriorityMinimum: 1, versionPriority: 1 })).toBe(
      `${AS_PREFIX('v2.')}spec.group: Required value: only v1 may have an empty group and it better be legacy kube`,
    );
    expect(asMessage('V1.Foo_Bar', { group: 'Foo_Bar', version: 'V1', groupPriorityMinimum: 0, versionPriority: 1001 })).toBe(
      `${AS_PREFIX('V1.Foo_Bar')}[spec.group: Invalid value: "Foo_Bar": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), ` +
        `spec.version: Invalid value: "V1": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?'), ` +
        'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000, spec.versionPriority: Invalid value: 1001: must be positive and less than 1000]',
    );
    expect(asMessage('v1.x.io', { group: 'x.io', version: 'v1', groupPriorityMinimum: 20001, versionPriority: 1000 })).toBe(
      `${AS_PREFIX('v1.x.io')}spec.groupPriorityMinimum: Invalid value: 20001: must be positive and less than 20000`,
    );
    expect(as.validateCreate!(apiService('v1.x.io', { group: 'x.io', version: 'v1', groupPriorityMinimum: 20000, versionPriority: 1000 }))).toEqual([]);
  });

  it('checks the service reference and TLS settings', () => {
    const name = 'v1beta1.metrics.k8s.io';
    expect(asMessage(name, { ...remote, service: { port: 0 } })).toBe(
      `${AS_PREFIX(name)}[spec.service.namespace: Required value, spec.service.name: Required value, spec.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive]`,
    );
    expect(asMessage(name, { ...remote, insecureSkipTLSVerify: true, caBundle: encodeBase64Text('abc') })).toBe(
      `${AS_PREFIX(name)}spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present`,
    );
    expect(as.validateCreate!(apiService(name, { ...remote, insecureSkipTLSVerify: true }))).toEqual([]);
    const local = { group: 'metrics.k8s.io', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 100 };
    expect(asMessage(name, { ...local, insecureSkipTLSVerify: true, caBundle: encodeBase64Text('abc') })).toBe(
      `${AS_PREFIX(name)}[spec.caBundle: Invalid value: "3 bytes": local APIServices may not have a caBundle, spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify]`,
    );
  });

  it('never throws on garbage', () => {
    for (const v of [null, undefined, 1, 'x', [], {}, { spec: null }, { spec: { service: 'x', group: 3 } }, { metadata: null, spec: [] }]) {
      expect(() => as.validateCreate!(v as any)).not.toThrow();
      expect(() => as.validateUpdate!(v as any, v as any, 'status')).not.toThrow();
      expect(() => as.defaults!(v as any)).not.toThrow();
    }
    expect(as.validateCreate!({ spec: null }).map((e) => e.field)).toEqual(['spec.group', 'spec.version', 'spec.groupPriorityMinimum', 'spec.versionPriority']);
  });

  it('validates condition statuses on status updates', () => {
    const obj = apiService('v1.x.io', { group: 'x.io', version: 'v1', groupPriorityMinimum: 1, versionPriority: 1 });
    obj.status = { conditions: [{ type: 'Available', status: 'Maybe' }] };
    expect(msg('apiregistration.k8s.io', 'APIService', 'v1.x.io', as.validateUpdate!(obj, obj, 'status'))).toBe(
      `${AS_PREFIX('v1.x.io')}status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown"`,
    );
    // The main resource does not look at status.
    expect(as.validateUpdate!(obj, obj, '')).toEqual([]);
  });
});

// ------------------------------------------------------------------------- CertificateSigningRequest

const CSR_PEM = `-----BEGIN CERTIFICATE REQUEST-----
MIHKMHICAQAwEDEOMAwGA1UEAwwFYWxpY2UwWTATBgcqhkjOPQIBBggqhkjOPQMB
BwNCAARepoGlDXkJgCqzTHK3jE3EQieJRGeXR9MaqN96eh41nqWFivCTHJcEKKq5
Ns3tqkeNOVjhLRcLuvJc1JNR7R5SoAAwCgYIKoZIzj0EAwIDSAAwRQIhAJXusui2
wHf7oqEdgLC+N7ETDK2EYZaPLn4YZRAb9qo1AiBZHwlYJCTN+5JLUjDZCLd5Ys8r
Sq4MowHS8UmAa/fJjA==
-----END CERTIFICATE REQUEST-----
`;
const REQUEST = encodeBase64Text(CSR_PEM);
const csrRules = certificateSigningRequestRules;
const csr = (spec: object, status?: object): any => {
  const obj: any = { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'alice' }, spec: { request: REQUEST, signerName: 'example.com/signer', usages: ['client auth'], ...spec } };
  if (status) obj.status = status;
  csrRules.defaults!(obj);
  return obj;
};
const CSR_PREFIX = 'CertificateSigningRequest.certificates.k8s.io "alice" is invalid: ';
const csrMessage = (errs: any[]) => msg('certificates.k8s.io', 'CertificateSigningRequest', 'alice', errs);

describe('CertificateSigningRequest create', () => {
  it('accepts a well-formed request', () => {
    expect(csrRules.validateCreate!(csr({}))).toEqual([]);
    expect(csrRules.validateCreate!(csr({ signerName: 'kubernetes.io/kube-apiserver-client', usages: ['digital signature', 'key encipherment', 'client auth'], expirationSeconds: 600 }))).toEqual([]);
  });

  it('requires a PEM CERTIFICATE REQUEST', () => {
    expect(csrMessage(csrRules.validateCreate!(csr({ request: encodeBase64Text('-\n') })))).toBe(`${CSR_PREFIX}spec.request: Invalid value: []byte{0x2d, 0xa}: PEM block type must be CERTIFICATE REQUEST`);
    expect(csrMessage(csrRules.validateCreate!(csr({ request: undefined })))).toBe(`${CSR_PREFIX}spec.request: Invalid value: []byte(nil): PEM block type must be CERTIFICATE REQUEST`);
    expect(csrMessage(csrRules.validateCreate!(csr({ request: '' })))).toBe(`${CSR_PREFIX}spec.request: Invalid value: []byte{}: PEM block type must be CERTIFICATE REQUEST`);
    const wrongType = CSR_PEM.replace(/CERTIFICATE REQUEST/g, 'CERTIFICATE');
    expect(csrRules.validateCreate!(csr({ request: encodeBase64Text(wrongType) }))[0]).toMatchObject({ field: 'spec.request', detail: 'PEM block type must be CERTIFICATE REQUEST' });
  });

  it('reports the outer DER errors x509 gives', () => {
    const pem = (b64: string) => encodeBase64Text(`-----BEGIN CERTIFICATE REQUEST-----\n${b64}\n-----END CERTIFICATE REQUEST-----\n`);
    const detail = (b64: string) => csrRules.validateCreate!(csr({ request: pem(b64) }))[0]?.detail;
    expect(detail('')).toBe('asn1: syntax error: sequence truncated');
    expect(detail('MAUB')).toBe('asn1: syntax error: data truncated'); // 30 05 01
    expect(detail('MAAA')).toBe('asn1: syntax error: trailing data'); // 30 00 00
    expect(detail('AgEA')).toBe(
      "asn1: structure error: tags don't match (16 vs {class:0 tag:2 length:1 isCompound:false}) {optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false} certificateRequest @2",
    );
  });

  it('checks usages', () => {
    expect(csrMessage(csrRules.validateCreate!(csr({ usages: [] })))).toBe(`${CSR_PREFIX}spec.usages: Required value`);
    const errs = csrRules.validateCreate!(csr({ usages: ['client auth', 'bogus', 'client auth'] }));
    expect(errs.map((e) => [e.type, e.field])).toEqual([
      ['FieldValueNotSupported', 'spec.usages[1]'],
      ['FieldValueDuplicate', 'spec.usages[2]'],
    ]);
    expect(csrMessage(errs)).toContain('spec.usages[1]: Unsupported value: "bogus": supported values: "any", "cert sign", "client auth", "code signing",');
    expect(csrMessage(errs)).toContain('spec.usages[2]: Duplicate value: "client auth"');
  });

  it('checks the signer name', () => {
    expect(csrMessage(csrRules.validateCreate!(csr({ signerName: '' })))).toBe(`${CSR_PREFIX}spec.signerName: Required value`);
    expect(csrMessage(csrRules.validateCreate!(csr({ signerName: 'signer' })))).toBe(
      `${CSR_PREFIX}spec.signerName: Invalid value: "signer": must be a fully qualified domain and path of the form 'example.com/signer-name'`,
    );
    expect(csrMessage(csrRules.validateCreate!(csr({ signerName: 'example/signer' })))).toBe(
      `${CSR_PREFIX}spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots`,
    );
    expect(csrMessage(csrRules.validateCreate!(csr({ signerName: 'Example.com/a_b' })))).toMatch(
      /^CertificateSigningRequest.*\[spec\.signerName: Invalid value: "Example\.com": validating label "Example": a lowercase RFC 1123 label must consist of .*, spec\.signerName: Invalid value: "a_b": validating component "a_b": a lowercase RFC 1123 subdomain must consist of /,
    );
    expect(csrMessage(csrRules.validateCreate!(csr({ signerName: 'kubernetes.io/legacy-unknown' })))).toBe(
      `${CSR_PREFIX}spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version`,
    );
  });

  it('checks expirationSeconds', () => {
    expect(csrMessage(csrRules.validateCreate!(csr({ expirationSeconds: 599 })))).toBe(
      `${CSR_PREFIX}spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)`,
    );
  });

  it('checks conditions, defaulting a missing status to True', () => {
    expect(csr({}, { conditions: [{ type: 'Approved' }] }).status.conditions[0].status).toBe('True');
    const errs = csrRules.validateCreate!(csr({}, { conditions: [{ type: 'Approved', status: 'False' }, { type: '', status: 'Maybe' }, { type: 'Denied', status: 'True' }, { type: 'Denied', status: 'True' }] }));
    expect(csrMessage(errs)).toBe(
      `${CSR_PREFIX}[status.conditions[0].status: Unsupported value: "False": supported values: "Approved", "Denied", "Failed", ` +
        'status.conditions[1].type: Required value, status.conditions[1].status: Unsupported value: "Maybe": supported values: "Approved", "Denied", "Failed", ' +
        'status.conditions[2].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive, ' +
        'status.conditions[3].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive, status.conditions[3].type: Duplicate value: "Denied"]',
    );
  });

  it('checks the PEM framing of status.certificate', () => {
    const cert = (text: string) => csrRules.validateCreate!(csr({}, { certificate: encodeBase64Text(text) }));
    expect(cert('garbage')[0]).toMatchObject({ field: 'status.certificate', value: '<certificate data>', detail: 'must contain at least one CERTIFICATE PEM block' });
    expect(cert(CSR_PEM)[0]?.detail).toBe('only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"');
  });

  it('never throws on garbage', () => {
    for (const v of [null, 1, 'x', [], {}, { spec: null, status: 3 }, { spec: { usages: [null, 3], request: 5 }, status: { conditions: [null, 'x'] } }]) {
      expect(() => csrRules.validateCreate!(v as any)).not.toThrow();
      expect(() => csrRules.validateUpdate!(v as any, v as any, 'approval')).not.toThrow();
      expect(() => csrRules.defaults!(v as any)).not.toThrow();
      expect(() => csrRules.prepareForUpdate!({} as any, v as any)).not.toThrow();
    }
  });
});

describe('CertificateSigningRequest update', () => {
  it('keeps the old spec on a main-resource update', () => {
    const old = csr({});
    const next = csr({ signerName: 'example.com/other' });
    csrRules.prepareForUpdate!(next, old);
    expect(next.spec).toEqual(old.spec);
  });

  it('allows approval conditions only through approval', () => {
    const old = csr({});
    const approved = csr({}, { conditions: [{ type: 'Approved', status: 'True', reason: 'OK' }] });
    expect(csrRules.validateUpdate!(approved, old, 'approval')).toEqual([]);
    expect(csrMessage(csrRules.validateUpdate!(approved, old, 'status'))).toBe(`${CSR_PREFIX}status.conditions: Forbidden: updates may not add a condition of type "Approved"`);
    // Removing one is refused even through approval.
    expect(csrMessage(csrRules.validateUpdate!(old, approved, 'approval'))).toBe(`${CSR_PREFIX}status.conditions: Forbidden: updates may not remove a condition of type "Approved"`);
    const modified = csr({}, { conditions: [{ type: 'Approved', status: 'True', reason: 'KO' }] });
    expect(csrMessage(csrRules.validateUpdate!(modified, approved, 'status'))).toBe(
      `${CSR_PREFIX}status.conditions: Forbidden: updates may not modify a condition of type "Approved"\n[{"type":"Approved","status":"True","reason":"\n\nA: OK","lastUpdateTime":null,"lastTransitionTime":null}]\n\nB: KO","lastUpdateTime":null,"lastTransitionTime":null}]\n\n`,
    );
  });

  it('allows setting the certificate only through status, and only once', () => {
    const old = csr({}, { conditions: [{ type: 'Approved', status: 'True' }] });
    const cert = encodeBase64Text('-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n');
    const issued = csr({}, { conditions: [{ type: 'Approved', status: 'True' }], certificate: cert });
    expect(csrRules.validateUpdate!(issued, old, 'status')).toEqual([]);
    expect(csrMessage(csrRules.validateUpdate!(issued, old, 'approval'))).toBe(`${CSR_PREFIX}status.certificate: Forbidden: updates may not set certificate content`);
    const reissued = csr({}, { conditions: [{ type: 'Approved', status: 'True' }], certificate: encodeBase64Text('-----BEGIN CERTIFICATE-----\nMAMCAQE=\n-----END CERTIFICATE-----\n') });
    expect(csrMessage(csrRules.validateUpdate!(reissued, issued, 'status'))).toBe(`${CSR_PREFIX}status.certificate: Forbidden: updates may not modify existing certificate content`);
  });

  it('tolerates problems the old object already had', () => {
    const legacy = csr({ signerName: 'kubernetes.io/legacy-unknown', usages: ['bogus', 'bogus'] });
    expect(csrRules.validateUpdate!(legacy, legacy, '')).toEqual([]);
    expect(csrRules.validateCreate!(legacy).map((e) => e.type)).toEqual(['FieldValueNotSupported', 'FieldValueNotSupported', 'FieldValueDuplicate', 'FieldValueInvalid']);
  });
});

describe('PEM and DER helpers', () => {
  it('decode like encoding/pem', () => {
    expect(pemDecode('junk\n-----BEGIN X-----\nAAEC\n-----END X-----\nrest').block?.bytes).toEqual(Uint8Array.of(0, 1, 2));
    expect(pemDecode('-----BEGIN X-----\nAAEC\n-----END Y-----\n').block).toBeNull();
    expect(pemDecode('-----BEGIN X-----\nA: b\n\nAAEC\n-----END X-----').block?.headers).toEqual({ A: 'b' });
    expect(checkOuterSequence(Uint8Array.of(0x30, 0x80), 'certificateRequest')).toBe('asn1: syntax error: indefinite length found (not DER)');
    expect(checkOuterSequence(Uint8Array.of(0x30, 0x81, 0x05), 'certificateRequest')).toBe('asn1: structure error: non-minimal length');
  });
});

// ------------------------------------------------------------------------- ControllerRevision

const cr = controllerRevisionRules;
const CR_PREFIX = 'ControllerRevision.apps "r" is invalid: ';
const crMessage = (errs: any[]) => msg('apps', 'ControllerRevision', 'r', errs);

describe('ControllerRevision', () => {
  it('requires data and a non-negative revision', () => {
    expect(cr.validateCreate!({ metadata: { name: 'r' }, data: { spec: {} }, revision: 0 })).toEqual([]);
    expect(crMessage(cr.validateCreate!({ metadata: { name: 'r' }, data: null, revision: -1 }))).toBe(
      `${CR_PREFIX}[data: Required value: data is mandatory, revision: Invalid value: -1: must be greater than or equal to 0]`,
    );
    expect(crMessage(cr.validateCreate!({ metadata: { name: 'r' }, revision: 1 }))).toBe(`${CR_PREFIX}data: Required value: data is mandatory`);
  });

  it('keeps data immutable', () => {
    const old = { metadata: { name: 'r' }, data: { a: 1 }, revision: 1 };
    expect(cr.validateUpdate!({ ...old, revision: 2 }, old, '')).toEqual([]);
    expect(crMessage(cr.validateUpdate!({ ...old, data: { a: 2 } }, old, ''))).toBe(
      `${CR_PREFIX}data: Invalid value: runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:"", Kind:""}, Raw:[]uint8{0x7b, 0x22, 0x61, 0x22, 0x3a, 0x32, 0x7d}, ContentEncoding:"", ContentType:"application/json"}: field is immutable`,
    );
    expect(cr.validateUpdate!({ ...old, data: null }, old, '').map((e) => e.type)).toEqual(['FieldValueRequired', 'FieldValueInvalid']);
  });

  it('never throws on garbage', () => {
    for (const v of [null, 1, 'x', [], {}]) {
      expect(() => cr.validateCreate!(v as any)).not.toThrow();
      expect(() => cr.validateUpdate!(v as any, v as any, '')).not.toThrow();
    }
  });
});
