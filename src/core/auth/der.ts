// The few ASN.1 DER encodings an X.509 certificate needs (ITU-T X.690; RFC 5280 names the
// structures). Each function returns one complete TLV (tag, length, value), so a certificate is
// built by nesting calls. Only what the cluster CA uses is here; nothing is ever decoded.

const TAG = {
  boolean: 0x01,
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  oid: 0x06,
  utf8String: 0x0c,
  utcTime: 0x17,
  generalizedTime: 0x18,
  sequence: 0x30,
  set: 0x31,
} as const;

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Definite length: one byte below 128, else 0x80|count followed by the big-endian count bytes. */
function lengthBytes(n: number): Uint8Array {
  if (n < 0x80) return Uint8Array.of(n);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

export function tlv(tag: number, value: Uint8Array): Uint8Array {
  return concat([Uint8Array.of(tag), lengthBytes(value.length), value]);
}

export const sequence = (...items: Uint8Array[]): Uint8Array => tlv(TAG.sequence, concat(items));
export const set = (...items: Uint8Array[]): Uint8Array => tlv(TAG.set, concat(items));
/** A context-specific constructed tag ([n] EXPLICIT), as TBSCertificate's version and extensions use. */
export const explicit = (n: number, inner: Uint8Array): Uint8Array => tlv(0xa0 | n, inner);
export const octetString = (value: Uint8Array): Uint8Array => tlv(TAG.octetString, value);
export const utf8String = (text: string): Uint8Array => tlv(TAG.utf8String, new TextEncoder().encode(text));
/** DER allows only 0xFF for TRUE. */
export const boolean = (value: boolean): Uint8Array => tlv(TAG.boolean, Uint8Array.of(value ? 0xff : 0x00));

/** A BIT STRING: the first content byte says how many bits of the last byte are unused. */
export function bitString(value: Uint8Array, unusedBits = 0): Uint8Array {
  return tlv(TAG.bitString, concat([Uint8Array.of(unusedBits), value]));
}

/**
 * A non-negative INTEGER from its big-endian magnitude: leading zero bytes are dropped (DER wants
 * the shortest form) and one 0x00 is put back when the top bit is set, or it would read negative.
 */
export function unsignedInteger(magnitude: Uint8Array): Uint8Array {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const trimmed = magnitude.subarray(start);
  const value = trimmed.length && trimmed[0]! & 0x80 ? concat([Uint8Array.of(0), trimmed]) : trimmed.length ? trimmed : Uint8Array.of(0);
  return tlv(TAG.integer, value);
}

export const smallInteger = (n: number): Uint8Array => unsignedInteger(Uint8Array.of(n));

/** An OBJECT IDENTIFIER: the first two arcs share a byte (40*a+b), the rest are base-128 with continuation bits. */
export function oid(dotted: string): Uint8Array {
  const arcs = dotted.split('.').map(Number);
  const bytes: number[] = [40 * arcs[0]! + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const groups: number[] = [];
    for (let v = arc; ; v = Math.floor(v / 128)) {
      groups.unshift(v % 128);
      if (v < 128) break;
    }
    groups.forEach((g, i) => bytes.push(i < groups.length - 1 ? g | 0x80 : g));
  }
  return tlv(TAG.oid, Uint8Array.from(bytes));
}

/** RFC 5280 4.1.2.5: UTCTime (YYMMDDHHMMSSZ) through 2049, GeneralizedTime (YYYYMMDDHHMMSSZ) from 2050. */
export function time(ms: number): Uint8Array {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const rest = `${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}Z`;
  const year = d.getUTCFullYear();
  if (year < 2050) return tlv(TAG.utcTime, new TextEncoder().encode(`${two(year % 100)}${rest}`));
  return tlv(TAG.generalizedTime, new TextEncoder().encode(`${String(year).padStart(4, '0')}${rest}`));
}
