// Issuing a certificate for an approved request, as kube's csrsigning LocalSigner does
// (pkg/controller/certificates/authority): the request's subject, public key and subject
// alternative names; the key usages it asked for; CA:FALSE; the issuer's key identifier; valid
// from five minutes ago (clock skew) for the requested duration, capped by the signer's default
// (--cluster-signing-duration, a year) and by the CA's own expiry. Signed with WebCrypto, so only
// P-256 ECDSA signing keys (the Node host's CA) are supported. The request's own signature is
// checked first (x509 CheckSignature).
import { bitString, boolean, concat, explicit, octetString, oid, sequence, smallInteger, tlv, time, unsignedInteger } from '../auth/der';
import { ecdsaSignatureDer, toPem } from '../auth/self-signed-ca';
import { pemDecode } from '../validation/api-misc-pem';
import type { CertificateRequest } from './csr-request';

interface Subtle {
  importKey(format: 'pkcs8' | 'spki', data: Uint8Array, alg: object, extractable: boolean, usages: string[]): Promise<unknown>;
  sign(alg: object, key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
  verify(alg: object, key: unknown, signature: Uint8Array, data: Uint8Array): Promise<boolean>;
}

function subtle(): Subtle {
  const s = (globalThis as unknown as { crypto?: { subtle?: Subtle } }).crypto?.subtle;
  if (!s) throw new Error('WebCrypto (crypto.subtle) is not available');
  return s;
}

/** --cluster-signing-duration's default, and the backdate of LocalSigner's policy. */
export const DEFAULT_DURATION_MS = 365 * 24 * 3600 * 1000;
const BACKDATE_MS = 5 * 60 * 1000;

const KEY_USAGE_BITS: Record<string, number> = {
  'digital signature': 0,
  'content commitment': 1,
  'key encipherment': 2,
  'key agreement': 4,
  'data encipherment': 3,
  'cert sign': 5,
  'crl sign': 6,
  'encipher only': 7,
  'decipher only': 8,
};
const EXT_KEY_USAGES: Record<string, string> = {
  'server auth': '1.3.6.1.5.5.7.3.1',
  'client auth': '1.3.6.1.5.5.7.3.2',
  'code signing': '1.3.6.1.5.5.7.3.3',
  'email protection': '1.3.6.1.5.5.7.3.4',
  'timestamping': '1.3.6.1.5.5.7.3.8',
  'ocsp signing': '1.3.6.1.5.5.7.3.9',
  any: '2.5.29.37.0',
};

/** A DER element at `pos`: its tag, whole bytes and value. */
function element(buf: Uint8Array, pos: number): { tag: number; raw: Uint8Array; value: Uint8Array; end: number } {
  let len = buf[pos + 1];
  let header = 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[pos + 2 + i];
    header += n;
  }
  const end = pos + header + len;
  return { tag: buf[pos], raw: buf.subarray(pos, end), value: buf.subarray(pos + header, end), end };
}

function children(value: Uint8Array): ReturnType<typeof element>[] {
  const out = [];
  for (let pos = 0; pos < value.length; ) {
    const e = element(value, pos);
    out.push(e);
    pos = e.end;
  }
  return out;
}

export interface SigningCa {
  subjectDer: Uint8Array;
  /** The CA's SubjectKeyIdentifier, when its certificate has one. */
  keyId?: Uint8Array;
  notAfter: number;
  key: unknown;
}

function parseTime(e: { tag: number; value: Uint8Array }): number {
  const s = new TextDecoder().decode(e.value);
  const full = e.tag === 0x17 ? `${Number(s.slice(0, 2)) >= 50 ? '19' : '20'}${s}` : s;
  return Date.UTC(Number(full.slice(0, 4)), Number(full.slice(4, 6)) - 1, Number(full.slice(6, 8)), Number(full.slice(8, 10)), Number(full.slice(10, 12)), Number(full.slice(12, 14)));
}

/** Reads the CA certificate's subject, key identifier and expiry, and imports its P-256 key. */
export async function loadSigningCa(certPem: string, keyPem: string): Promise<SigningCa> {
  const cert = pemDecode(certPem).block;
  const key = pemDecode(keyPem).block;
  if (!cert || cert.type !== 'CERTIFICATE') throw new Error('the signing certificate is not a PEM CERTIFICATE');
  if (!key || key.type !== 'PRIVATE KEY') throw new Error('the signing key must be a PKCS#8 PEM PRIVATE KEY');
  const tbs = children(element(cert.bytes, 0).value)[0];
  const fields = children(tbs.value);
  const offset = fields[0].tag === 0xa0 ? 1 : 0;
  const validity = children(fields[offset + 3].value);
  const ca: SigningCa = { subjectDer: fields[offset + 4].raw, notAfter: parseTime(validity[1]), key: await subtle().importKey('pkcs8', key.bytes, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']) };
  const extensions = fields.find((f) => f.tag === 0xa3);
  for (const ext of extensions ? children(children(extensions.value)[0].value) : []) {
    const parts = children(ext.value);
    if (bytesEqual(parts[0].raw, oid('2.5.29.14'))) ca.keyId = element(parts[parts.length - 1].value, 0).value;
  }
  return ca;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Ecdsa-Sig-Value (DER) to WebCrypto's r||s of `size` bytes each. */
function ecdsaRaw(der: Uint8Array, size: number): Uint8Array {
  const [r, s] = children(element(der, 0).value).map((e) => {
    const v = e.value[0] === 0 ? e.value.subarray(1) : e.value;
    const out = new Uint8Array(size);
    out.set(v.subarray(Math.max(0, v.length - size)), size - Math.min(size, v.length));
    return out;
  });
  return concat([r, s]);
}

const SIGNATURE_ALGORITHMS: Record<string, { verify: object; import: object; ecSize?: number }> = {
  '1.2.840.10045.4.3.2': { verify: { name: 'ECDSA', hash: 'SHA-256' }, import: { name: 'ECDSA', namedCurve: 'P-256' }, ecSize: 32 },
  '1.2.840.10045.4.3.3': { verify: { name: 'ECDSA', hash: 'SHA-384' }, import: { name: 'ECDSA', namedCurve: 'P-384' }, ecSize: 48 },
  '1.2.840.113549.1.1.11': { verify: { name: 'RSASSA-PKCS1-v1_5' }, import: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } },
};

/** CheckSignature: undefined when the request is signed by its own key, else why not. */
export async function signatureProblem(req: CertificateRequest): Promise<string | undefined> {
  const alg = SIGNATURE_ALGORITHMS[req.signatureAlgorithm];
  if (!alg) return 'x509: cannot verify signature: algorithm unimplemented';
  try {
    const key = await subtle().importKey('spki', req.publicKeyDer, alg.import, false, ['verify']);
    const signature = alg.ecSize ? ecdsaRaw(req.signature, alg.ecSize) : req.signature;
    return (await subtle().verify(alg.verify, key, signature, req.signedDer)) ? undefined : `x509: ${alg.ecSize ? 'ECDSA' : 'RSA'} verification failure`;
  } catch (err) {
    return `x509: ${err instanceof Error ? err.message : String(err)}`;
  }
}

function extension(id: string, critical: boolean, value: Uint8Array): Uint8Array {
  return sequence(oid(id), ...(critical ? [boolean(true)] : []), octetString(value));
}

function keyUsageExtension(usages: readonly string[]): Uint8Array | undefined {
  let bits = 0;
  for (const u of usages) if (u in KEY_USAGE_BITS) bits |= 1 << KEY_USAGE_BITS[u];
  if (!bits) return undefined;
  // A named bit list, most significant bit first, trailing zero bits dropped.
  const highest = 31 - Math.clz32(bits);
  const bytes = new Uint8Array(Math.floor(highest / 8) + 1);
  for (let b = 0; b <= highest; b++) if (bits & (1 << b)) bytes[Math.floor(b / 8)] |= 0x80 >> b % 8;
  return extension('2.5.29.15', true, bitString(bytes, 7 - (highest % 8)));
}

function sanExtension(req: CertificateRequest): Uint8Array | undefined {
  const names: Uint8Array[] = [];
  const text = (tag: number, s: string) => tlv(tag, new TextEncoder().encode(s));
  for (const d of req.dnsNames) names.push(text(0x82, d));
  for (const e of req.emailAddresses) names.push(text(0x81, e));
  for (const u of req.uris) names.push(text(0x86, u));
  for (const ip of req.ipAddresses) names.push(tlv(0x87, ip.includes(':') ? ipv6Bytes(ip) : Uint8Array.from(ip.split('.').map(Number))));
  return names.length ? extension('2.5.29.17', false, sequence(...names)) : undefined;
}

function ipv6Bytes(ip: string): Uint8Array {
  const [head, tail = ''] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    const n = parseInt(g, 16);
    out[i * 2] = n >> 8;
    out[i * 2 + 1] = n & 0xff;
  });
  return out;
}

/** The certificate, as PEM, for an approved and validated request. */
export async function issueCertificate(ca: SigningCa, req: CertificateRequest, usages: readonly string[], now: number, expirationSeconds?: number): Promise<string> {
  const duration = expirationSeconds ? Math.min(expirationSeconds * 1000, DEFAULT_DURATION_MS) : DEFAULT_DURATION_MS;
  const notAfter = Math.min(now + duration, ca.notAfter);
  const serial = crypto.getRandomValues(new Uint8Array(16));
  serial[0] = (serial[0] & 0x3f) | 0x40;
  const extKeyUsages = usages.filter((u) => u in EXT_KEY_USAGES).map((u) => oid(EXT_KEY_USAGES[u]));
  const extensions = [
    keyUsageExtension(usages),
    extKeyUsages.length ? extension('2.5.29.37', false, sequence(...extKeyUsages)) : undefined,
    // BasicConstraintsValid with IsCA false: an empty sequence, marked critical as Go marks it.
    extension('2.5.29.19', true, sequence()),
    ca.keyId ? extension('2.5.29.35', false, sequence(tlv(0x80, ca.keyId))) : undefined,
    sanExtension(req),
  ].filter((e): e is Uint8Array => e !== undefined);
  const algorithm = sequence(oid('1.2.840.10045.4.3.2'));
  const tbs = sequence(explicit(0, smallInteger(2)), unsignedInteger(serial), algorithm, ca.subjectDer, sequence(time(now - BACKDATE_MS), time(notAfter)), req.subjectDer, req.publicKeyDer, explicit(3, sequence(...extensions)));
  const raw = new Uint8Array(await subtle().sign({ name: 'ECDSA', hash: 'SHA-256' }, ca.key, tbs));
  return toPem(sequence(tbs, algorithm, bitString(ecdsaSignatureDer(raw))));
}
