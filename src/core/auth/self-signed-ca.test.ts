import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSelfSignedCa, ecdsaSignatureDer, toPem } from './self-signed-ca';
import { oid, time, unsignedInteger } from './der';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('self-signed cluster CA', () => {
  it('is a certificate Node (OpenSSL) parses: self-signed, verifies with its own key, CA:TRUE, CN=kubernetes', async () => {
    const notBefore = Date.UTC(2026, 0, 2, 3, 4, 5);
    const pem = await createSelfSignedCa({ notBefore });
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n([A-Za-z0-9+/=]{64}\n)*[A-Za-z0-9+/=]{1,64}\n-----END CERTIFICATE-----\n$/);
    const cert = new X509Certificate(pem);
    expect(cert.subject).toBe('CN=kubernetes');
    expect(cert.issuer).toBe('CN=kubernetes');
    expect(cert.ca).toBe(true);
    expect(cert.checkIssued(cert)).toBe(true);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.publicKey.asymmetricKeyType).toBe('ec');
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(new Date(cert.validFrom).toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(new Date(cert.validTo).toISOString()).toBe('2035-12-31T03:04:05.000Z'); // 3650 days
    expect(cert.serialNumber).toMatch(/^[0-9A-F]{32}$/);
  });

  it('carries the key usages, critical flags and subject key identifier OpenSSL reports', async () => {
    const cert = new X509Certificate(await createSelfSignedCa());
    const der = cert.raw.toString('hex');
    // basicConstraints, critical, CA:TRUE
    expect(der).toContain('0603551d130101ff040530030101ff');
    // keyUsage, critical, BIT STRING 02 a4
    expect(der).toContain('0603551d0f0101ff0404030202a4');
    // subjectKeyIdentifier, not critical, OCTET STRING of 20 bytes
    expect(der).toMatch(/0603551d0e04160414[0-9a-f]{40}/);
    // signature algorithm ecdsa-with-SHA256 with no parameters
    expect(der).toContain('300a06082a8648ce3d040302');
  });

  it('makes a different key and serial each time', async () => {
    const [a, b] = await Promise.all([createSelfSignedCa(), createSelfSignedCa()]);
    const ca = new X509Certificate(a);
    const cb = new X509Certificate(b);
    expect(ca.serialNumber).not.toBe(cb.serialNumber);
    expect(ca.verify(cb.publicKey)).toBe(false);
  });
});

describe('DER pieces', () => {
  it('encodes integers minimally and positive', () => {
    expect(hex(unsignedInteger(Uint8Array.of(0, 0, 0x7f)))).toBe('02017f');
    expect(hex(unsignedInteger(Uint8Array.of(0x80)))).toBe('02020080');
    expect(hex(unsignedInteger(Uint8Array.of(0, 0)))).toBe('020100');
  });

  it('encodes object identifiers with base-128 arcs', () => {
    expect(hex(oid('1.2.840.10045.4.3.2'))).toBe('06082a8648ce3d040302');
    expect(hex(oid('2.5.29.19'))).toBe('0603551d13');
  });

  it('uses UTCTime before 2050 and GeneralizedTime from 2050 (RFC 5280 4.1.2.5)', () => {
    expect(Buffer.from(time(Date.UTC(2049, 11, 31, 23, 59, 59))).toString('latin1')).toBe('\x17\x0d491231235959Z');
    expect(Buffer.from(time(Date.UTC(2050, 0, 1))).toString('latin1')).toBe('\x18\x0f20500101000000Z');
  });

  it('turns r||s into SEQUENCE { INTEGER r, INTEGER s }, padding a high bit and dropping leading zeros', () => {
    const r = new Uint8Array(32).fill(0x80);
    const s = new Uint8Array(32);
    s[31] = 1;
    const der = ecdsaSignatureDer(new Uint8Array([...r, ...s]));
    expect(hex(der)).toBe(`3026022100${'80'.repeat(32)}020101`);
  });

  it('wraps PEM at 64 characters', () => {
    const pem = toPem(new Uint8Array(100).fill(1));
    const lines = pem.trim().split('\n');
    expect(lines[0]).toBe('-----BEGIN CERTIFICATE-----');
    expect(lines.slice(1, -1).map((l) => l.length)).toEqual([64, 64, 8]);
  });
});
