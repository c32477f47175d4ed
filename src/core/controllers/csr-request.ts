// What the certificate controllers need of a CertificateSigningRequest's spec.request: the
// PKCS#10 request (RFC 2986) parsed as Go's x509.ParseCertificateRequest exposes it — subject
// common name and organizations, the subject alternative names from the extension request, the
// public key and the signature — read with a small DER reader. A request that does not parse
// yields an error text, never an exception.
import { decodeBase64 } from '../validation/base64';
import { bytesToLatin1, pemDecode } from '../validation/api-misc-pem';

interface Tlv {
  tag: number;
  /** The whole element (header and value). */
  raw: Uint8Array;
  value: Uint8Array;
}

function readTlv(buf: Uint8Array, pos: number): Tlv & { end: number } {
  if (pos + 2 > buf.length) throw new Error('truncated');
  const tag = buf[pos];
  let len = buf[pos + 1];
  let header = 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || pos + 2 + n > buf.length) throw new Error('bad length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[pos + 2 + i];
    header += n;
  }
  const end = pos + header + len;
  if (end > buf.length) throw new Error('truncated');
  return { tag, raw: buf.subarray(pos, end), value: buf.subarray(pos + header, end), end };
}

function childrenOf(value: Uint8Array): Tlv[] {
  const out: Tlv[] = [];
  for (let pos = 0; pos < value.length; ) {
    const t = readTlv(value, pos);
    out.push(t);
    pos = t.end;
  }
  return out;
}

function oidText(value: Uint8Array): string {
  const parts: number[] = [Math.floor(value[0] / 40), value[0] % 40];
  let n = 0;
  for (let i = 1; i < value.length; i++) {
    n = n * 128 + (value[i] & 0x7f);
    if (!(value[i] & 0x80)) {
      parts.push(n);
      n = 0;
    }
  }
  return parts.join('.');
}

const OID_CN = '2.5.4.3';
const OID_O = '2.5.4.10';
const OID_EXTENSION_REQUEST = '1.2.840.113549.1.9.14';
const OID_SAN = '2.5.29.17';
export const OID_EC_PUBLIC_KEY = '1.2.840.10045.2.1';
export const OID_RSA = '1.2.840.113549.1.1.1';

export interface CertificateRequest {
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  emailAddresses: string[];
  ipAddresses: string[];
  uris: string[];
  /** The subject Name, as DER, copied into an issued certificate. */
  subjectDer: Uint8Array;
  /** SubjectPublicKeyInfo, as DER. */
  publicKeyDer: Uint8Array;
  publicKeyAlgorithm: string;
  /** The signed part, the signature algorithm's OID and the signature bits. */
  signedDer: Uint8Array;
  signatureAlgorithm: string;
  signature: Uint8Array;
}

function ipText(bytes: Uint8Array): string {
  if (bytes.length === 4) return [...bytes].join('.');
  const groups: string[] = [];
  for (let i = 0; i + 1 < bytes.length; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return groups.join(':');
}

/** Decodes spec.request (base64 of a PEM CERTIFICATE REQUEST) and parses it. */
export function parseCsr(request: unknown): CertificateRequest | { error: string } {
  if (typeof request !== 'string') return { error: 'PEM block type must be CERTIFICATE REQUEST' };
  const decoded = decodeBase64(request);
  if (!decoded.bytes) return { error: decoded.error ?? 'bad base64' };
  const { block } = pemDecode(bytesToLatin1(decoded.bytes));
  if (!block || block.type !== 'CERTIFICATE REQUEST') return { error: 'PEM block type must be CERTIFICATE REQUEST' };
  try {
    return parseDer(block.bytes);
  } catch (err) {
    return { error: `asn1: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function parseDer(der: Uint8Array): CertificateRequest {
  const [info, sigAlg, sig] = childrenOf(readTlv(der, 0).value);
  if (!info || !sigAlg || !sig) throw new Error('structure error');
  const [, subject, spki, attributes] = childrenOf(info.value);
  if (!subject || !spki) throw new Error('structure error');
  const out: CertificateRequest = {
    commonName: '',
    organizations: [],
    dnsNames: [],
    emailAddresses: [],
    ipAddresses: [],
    uris: [],
    subjectDer: subject.raw,
    publicKeyDer: spki.raw,
    publicKeyAlgorithm: oidText(childrenOf(childrenOf(spki.value)[0].value)[0].value),
    signedDer: info.raw,
    signatureAlgorithm: oidText(childrenOf(sigAlg.value)[0].value),
    // A BIT STRING: the first byte counts unused bits.
    signature: sig.value.subarray(1),
  };
  const text = (t: Tlv) => new TextDecoder().decode(t.value);
  for (const rdn of childrenOf(subject.value)) {
    for (const atv of childrenOf(rdn.value)) {
      const [type, value] = childrenOf(atv.value);
      const id = oidText(type.value);
      if (id === OID_CN) out.commonName = text(value);
      if (id === OID_O) out.organizations.push(text(value));
    }
  }
  if (attributes && attributes.tag === 0xa0) {
    for (const attr of childrenOf(attributes.value)) {
      const [type, values] = childrenOf(attr.value);
      if (oidText(type.value) !== OID_EXTENSION_REQUEST) continue;
      for (const extensions of childrenOf(values.value)) {
        for (const ext of childrenOf(extensions.value)) {
          const parts = childrenOf(ext.value);
          if (oidText(parts[0].value) !== OID_SAN) continue;
          const names = childrenOf(readTlv(parts[parts.length - 1].value, 0).value);
          for (const n of names) {
            if (n.tag === 0x82) out.dnsNames.push(text(n));
            else if (n.tag === 0x81) out.emailAddresses.push(text(n));
            else if (n.tag === 0x87) out.ipAddresses.push(ipText(n.value));
            else if (n.tag === 0x86) out.uris.push(text(n));
          }
        }
      }
    }
  }
  return out;
}

/** certificates.IsKubeletClientCSR (v1.23): why the request is not a kubelet client certificate request, or undefined. */
export function kubeletClientProblem(req: CertificateRequest, usages: readonly string[]): string | undefined {
  if (req.organizations.length !== 1 || req.organizations[0] !== 'system:nodes') return 'subject organization is not system:nodes';
  if (req.dnsNames.length) return 'dnsNames are not allowed';
  if (req.emailAddresses.length) return 'email addresses are not allowed';
  if (req.ipAddresses.length) return 'IP addresses are not allowed';
  if (req.uris.length) return 'URIs are not allowed';
  if (!req.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  const set = new Set(usages);
  const equals = (want: string[]) => set.size === want.length && want.every((u) => set.has(u));
  if (!equals(['digital signature', 'key encipherment', 'client auth']) && !equals(['digital signature', 'client auth'])) {
    return 'usages did not match [client auth digital signature key encipherment]';
  }
  return undefined;
}
