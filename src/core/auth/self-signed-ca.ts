// A self-signed X.509 v3 CA certificate made with WebCrypto alone (ECDSA P-256, SHA-256), for a
// cluster whose host brings no CA of its own (the browser's Service Worker, the Node host
// without --secure-port). Its shape follows what kubeadm's `ca.crt` carries: CN=kubernetes as
// subject and issuer, ten years of validity, CA:TRUE and the key usages Go's certutil sets.
// By default the private key only signs this one certificate and is dropped afterwards: a key
// that is never stored cannot leak from an export. A host that signs with its CA (the browser's
// csrsigning controller) asks for the key too, as PKCS#8, and keeps it outside the cluster's data.
import { bitString, boolean, explicit, octetString, oid, sequence, set, smallInteger, time, unsignedInteger, utf8String } from './der';

const OID = {
  commonName: '2.5.4.3',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  subjectKeyIdentifier: '2.5.29.14',
};

/** The WebCrypto calls used here; typed locally because the core's globals declare no `crypto.subtle`. */
interface Subtle {
  generateKey(alg: { name: 'ECDSA'; namedCurve: 'P-256' }, extractable: boolean, usages: string[]): Promise<{ publicKey: unknown; privateKey: unknown }>;
  exportKey(format: 'spki' | 'raw' | 'pkcs8', key: unknown): Promise<ArrayBuffer>;
  sign(alg: { name: 'ECDSA'; hash: 'SHA-256' }, key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
  digest(alg: 'SHA-1', data: Uint8Array): Promise<ArrayBuffer>;
}

function subtle(): Subtle {
  const s = (globalThis as unknown as { crypto?: { subtle?: Subtle } }).crypto?.subtle;
  if (!s) throw new Error('WebCrypto (crypto.subtle) is not available: a secure context is needed to make the cluster CA');
  return s;
}

const TEN_YEARS_MS = 10 * 365 * 24 * 60 * 60 * 1000;

export interface CaOptions {
  commonName?: string;
  /** Start of validity (ms since the epoch); defaults to now. */
  notBefore?: number;
}

/** A fresh self-signed CA certificate, as PEM. */
export async function createSelfSignedCa(opts: CaOptions = {}): Promise<string> {
  return (await makeCa(opts)).certPem;
}

/** A fresh self-signed CA that can sign: its certificate and its PKCS#8 private key, as PEM. */
export async function createSigningCa(opts: CaOptions = {}): Promise<{ certPem: string; keyPem: string }> {
  const { certPem, privateKey } = await makeCa(opts);
  return { certPem, keyPem: toPem(new Uint8Array(await subtle().exportKey('pkcs8', privateKey)), 'PRIVATE KEY') };
}

async function makeCa(opts: CaOptions): Promise<{ certPem: string; privateKey: unknown }> {
  const s = subtle();
  const cn = opts.commonName ?? 'kubernetes';
  const notBefore = opts.notBefore ?? Date.now();
  const keys = await s.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const spki = new Uint8Array(await s.exportKey('spki', keys.publicKey));
  // RFC 5280 4.2.1.2, method (1): SHA-1 of the subjectPublicKey bits (the uncompressed point).
  const point = new Uint8Array(await s.exportKey('raw', keys.publicKey));
  const keyId = new Uint8Array(await s.digest('SHA-1', point));

  const algorithm = sequence(oid(OID.ecdsaWithSha256)); // RFC 5758 3.2: no parameters for ECDSA
  const name = sequence(set(sequence(oid(OID.commonName), utf8String(cn))));
  const tbs = sequence(
    explicit(0, smallInteger(2)), // v3
    unsignedInteger(serialNumber()),
    algorithm,
    name, // issuer
    sequence(time(notBefore), time(notBefore + TEN_YEARS_MS)),
    name, // subject: the same, so the certificate is self-issued
    spki,
    explicit(3, sequence(basicConstraintsCa(), keyUsage(), extension(OID.subjectKeyIdentifier, false, octetString(keyId)))),
  );
  const raw = new Uint8Array(await s.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, tbs));
  const der = sequence(tbs, algorithm, bitString(ecdsaSignatureDer(raw)));
  return { certPem: toPem(der), privateKey: keys.privateKey };
}

function extension(id: string, critical: boolean, value: Uint8Array): Uint8Array {
  // critical is DEFAULT FALSE, and DER leaves out a value equal to its default.
  return sequence(oid(id), ...(critical ? [boolean(true)] : []), octetString(value));
}

function basicConstraintsCa(): Uint8Array {
  return extension(OID.basicConstraints, true, sequence(boolean(true)));
}

/**
 * digitalSignature (bit 0), keyEncipherment (bit 2), keyCertSign (bit 5): 1010 0100. DER drops
 * trailing zero bits of a named bit list, so bits 6 and 7 are declared unused.
 */
function keyUsage(): Uint8Array {
  return extension(OID.keyUsage, true, bitString(Uint8Array.of(0xa4), 2));
}

/** 16 random bytes with the top bit clear and the next set: positive, non-zero, always 16 bytes. */
function serialNumber(): Uint8Array {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x3f) | 0x40;
  return bytes;
}

/** WebCrypto signs as r||s (32 bytes each for P-256); X.509 wants Ecdsa-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }. */
export function ecdsaSignatureDer(raw: Uint8Array): Uint8Array {
  const half = raw.length / 2;
  return sequence(unsignedInteger(raw.subarray(0, half)), unsignedInteger(raw.subarray(half)));
}

export function toPem(der: Uint8Array, label = 'CERTIFICATE'): string {
  let binary = '';
  for (const b of der) binary += String.fromCharCode(b);
  const lines = btoa(binary).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
