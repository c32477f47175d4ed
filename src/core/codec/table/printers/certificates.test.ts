import { describe, expect, it } from 'vitest';
import { certificateSigningRequestPrinter } from './certificates';
import { printerFor } from '../../../kinds';

const NOW = Date.parse('2024-01-01T12:00:00Z');
const meta = { name: 'alice', creationTimestamp: '2024-01-01T11:59:00Z' };
const cells = (obj: Record<string, unknown>) => certificateSigningRequestPrinter.print(obj, NOW).cells;

describe('CertificateSigningRequest printer', () => {
  it('is the printer of certificates.k8s.io CSRs, with v1.23 columns', () => {
    expect(printerFor('certificates.k8s.io', 'CertificateSigningRequest')).toBe(certificateSigningRequestPrinter);
    expect(certificateSigningRequestPrinter.columns.map((c) => c.name)).toEqual(['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']);
  });

  it('prints signer, requestor, duration and the condition summary', () => {
    const spec = { signerName: 'example.com/signer', username: 'kubernetes-admin', expirationSeconds: 86400 };
    expect(cells({ metadata: meta, spec, status: {} })).toEqual(['alice', '60s', 'example.com/signer', 'kubernetes-admin', '24h', 'Pending']);
    expect(cells({ metadata: meta, spec: {}, status: { conditions: [{ type: 'Approved' }, { type: 'Denied' }] } }).slice(2)).toEqual(['<none>', '', '<none>', 'Denied']);
    expect(cells({ metadata: meta, spec, status: { conditions: [{ type: 'Approved' }, { type: 'Failed' }], certificate: 'Zm9v' } })[5]).toBe('Approved,Failed,Issued');
  });
});
