// Go's encoding/pem Decode and the outermost step of encoding/asn1's Unmarshal into a struct, as
// certificates.k8s.io validation (v1.23 ParseCSR / validateCertificate) runs them. Bytes are
// handled as latin1 strings so that string offsets are byte offsets.
import { decodeBase64 } from './base64';
import { setOwnKey } from '../codec/own-keys';

export interface PemBlock {
  type: string;
  headers: Record<string, string>;
  bytes: Uint8Array;
}

const PEM_START = '\n-----BEGIN ';
const PEM_END = '\n-----END ';
const PEM_END_OF_LINE = '-----';

export function bytesToLatin1(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

export function latin1ToBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

const trimRightSpaceTab = (s: string): string => s.replace(/[ \t]+$/, '');

/** pem's getLine: the line without its `\n` / `\r\n` and trailing spaces/tabs, and the rest. */
function getLine(data: string): [string, string] {
  let i = data.indexOf('\n');
  let j: number;
  if (i < 0) {
    i = data.length;
    j = i;
  } else {
    j = i + 1;
    if (i > 0 && data[i - 1] === '\r') i--;
  }
  return [trimRightSpaceTab(data.slice(0, i)), data.slice(j)];
}

/** pem.Decode: the first well-formed block and the data after it, or null when there is none. */
export function pemDecode(data: string): { block: PemBlock | null; rest: string } {
  let rest = data;
  for (;;) {
    if (rest.startsWith(PEM_START.slice(1))) rest = rest.slice(PEM_START.length - 1);
    else {
      const at = rest.indexOf(PEM_START);
      if (at < 0) return { block: null, rest: data };
      rest = rest.slice(at + PEM_START.length);
    }
    let typeLine: string;
    [typeLine, rest] = getLine(rest);
    if (!typeLine.endsWith(PEM_END_OF_LINE)) continue;
    typeLine = typeLine.slice(0, typeLine.length - PEM_END_OF_LINE.length);
    const headers: Record<string, string> = {};
    let truncated = false;
    for (;;) {
      if (rest.length === 0) {
        truncated = true;
        break;
      }
      const [line, next] = getLine(rest);
      const colon = line.indexOf(':');
      if (colon < 0) break;
      setOwnKey(headers, line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      rest = next;
    }
    if (truncated) return { block: null, rest: data };
    let endIndex: number;
    let endTrailerIndex: number;
    if (Object.keys(headers).length === 0 && rest.startsWith(PEM_END.slice(1))) {
      endIndex = 0;
      endTrailerIndex = PEM_END.length - 1;
    } else {
      endIndex = rest.indexOf(PEM_END);
      endTrailerIndex = endIndex + PEM_END.length;
    }
    if (endIndex < 0) continue;
    let endTrailer = rest.slice(endTrailerIndex);
    const endTrailerLen = typeLine.length + PEM_END_OF_LINE.length;
    if (endTrailer.length < endTrailerLen) continue;
    const restOfEndLine = endTrailer.slice(endTrailerLen);
    endTrailer = endTrailer.slice(0, endTrailerLen);
    if (!endTrailer.startsWith(typeLine) || !endTrailer.endsWith(PEM_END_OF_LINE)) continue;
    if (getLine(restOfEndLine)[0].length !== 0) continue;
    const base64Data = rest.slice(0, endIndex).replace(/[ \t]/g, '');
    const decoded = decodeBase64(base64Data);
    if (!decoded.bytes) continue;
    return { block: { type: typeLine, headers, bytes: decoded.bytes }, rest: getLine(rest.slice(endIndex + PEM_END.length - 1))[1] };
  }
}

const FIELD_PARAMS = '{optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false}';

/**
 * The checks asn1.Unmarshal(der, &struct) makes on the outer TLV, plus x509's `trailing data`:
 * returns Go's error text, or '' when the outer SEQUENCE is well-formed. The contents are not
 * parsed (a left-out part of x509.ParseCertificateRequest).
 */
export function checkOuterSequence(der: Uint8Array, typeName: string): string {
  if (der.length === 0) return 'asn1: syntax error: sequence truncated';
  let offset = 0;
  const b = der[offset++]!;
  const cls = b >> 6;
  const isCompound = (b & 0x20) === 0x20;
  let tag = b & 0x1f;
  if (tag === 0x1f) {
    // High-tag-number form (base-128), as parseBase128Int reads it.
    let ret = 0;
    for (let shifted = 0; ; shifted++) {
      if (offset >= der.length) return 'asn1: syntax error: truncated base 128 integer';
      if (shifted === 5) return 'asn1: structure error: base 128 integer too large';
      const c = der[offset++]!;
      if (shifted === 0 && c === 0x80) return 'asn1: syntax error: integer is not minimally encoded';
      ret = ret * 128 + (c & 0x7f);
      if ((c & 0x80) === 0) break;
    }
    if (ret < 0x1f) return 'asn1: syntax error: non-minimal tag';
    tag = ret;
  }
  if (offset >= der.length) return 'asn1: syntax error: truncated tag or length';
  const lb = der[offset++]!;
  let length: number;
  if ((lb & 0x80) === 0) length = lb & 0x7f;
  else {
    const numBytes = lb & 0x7f;
    if (numBytes === 0) return 'asn1: syntax error: indefinite length found (not DER)';
    length = 0;
    for (let i = 0; i < numBytes; i++) {
      if (offset >= der.length) return 'asn1: syntax error: truncated tag or length';
      const c = der[offset++]!;
      if (length >= 1 << 23) return 'asn1: structure error: length too large';
      length = length * 256 + c;
      if (length === 0) return 'asn1: structure error: superfluous leading zeros in length';
    }
    if (length < 0x80) return 'asn1: structure error: non-minimal length';
  }
  if (cls !== 0 || tag !== 16 || !isCompound) {
    return `asn1: structure error: tags don't match (16 vs {class:${cls} tag:${tag} length:${length} isCompound:${isCompound}}) ${FIELD_PARAMS} ${typeName} @${offset}`;
  }
  if (offset + length > der.length) return 'asn1: syntax error: data truncated';
  if (offset + length < der.length) return 'asn1: syntax error: trailing data';
  return '';
}

/** %#v of a []byte at top level: `[]byte{0x2d, 0xa}`; nil → `[]byte(nil)`. */
export function goBytes(bytes: Uint8Array | null, type = 'byte'): string {
  if (!bytes) return `[]${type}(nil)`;
  return `[]${type}{${Array.from(bytes, (c) => `0x${c.toString(16)}`).join(', ')}}`;
}
