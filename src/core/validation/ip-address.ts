// IP address parsing as kube-apiserver v1.23 does it (k8s.io/utils/net ParseIPSloppy: Go 1.16's
// net.ParseIP, which still took IPv4 octets with leading zeros), and the checks Endpoints and
// EndpointSlice addresses must pass: no unspecified, loopback or link-local addresses, worded as
// core/validation's ValidateNonSpecialIP words them.

/** 16 bytes, IPv4 held in the IPv4-mapped form (::ffff:a.b.c.d) as Go holds it. */
export type IPBytes = Uint8Array;

const V4_IN_V6_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/** Decimal digits at the start of `s` (any number of them, as Go 1.16's dtoi took them). */
function leadingDecimal(s: string): { value: number; length: number } | undefined {
  let i = 0;
  let value = 0;
  while (i < s.length && s[i] >= '0' && s[i] <= '9') {
    value = value * 10 + (s.charCodeAt(i) - 48);
    if (value >= 0xffffff) return undefined;
    i++;
  }
  return i === 0 ? undefined : { value, length: i };
}

function leadingHex(s: string): { value: number; length: number } | undefined {
  const m = /^[0-9a-fA-F]+/.exec(s);
  if (!m) return undefined;
  const value = parseInt(m[0], 16);
  return { value, length: m[0].length };
}

function parseIPv4(s: string): IPBytes | undefined {
  const out = new Uint8Array(16);
  out.set(V4_IN_V6_PREFIX);
  let rest = s;
  for (let i = 0; i < 4; i++) {
    if (rest.length === 0) return undefined;
    if (i > 0) {
      if (rest[0] !== '.') return undefined;
      rest = rest.slice(1);
    }
    const n = leadingDecimal(rest);
    if (!n || n.value > 0xff) return undefined;
    out[12 + i] = n.value;
    rest = rest.slice(n.length);
  }
  return rest.length === 0 ? out : undefined;
}

function parseIPv6(s: string): IPBytes | undefined {
  const out = new Uint8Array(16);
  let ellipsis = -1;
  let rest = s;
  if (rest.startsWith('::')) {
    ellipsis = 0;
    rest = rest.slice(2);
    if (rest.length === 0) return out;
  }
  let i = 0;
  while (i < 16) {
    const n = leadingHex(rest);
    if (!n || n.value > 0xffff) return undefined;
    if (n.length < rest.length && rest[n.length] === '.') {
      // A dotted IPv4 tail fills the last four bytes.
      if (ellipsis < 0 && i !== 12) return undefined;
      if (i + 4 > 16) return undefined;
      const v4 = parseIPv4(rest);
      if (!v4) return undefined;
      out.set(v4.subarray(12), i);
      i += 4;
      rest = '';
      break;
    }
    out[i] = n.value >> 8;
    out[i + 1] = n.value & 0xff;
    i += 2;
    rest = rest.slice(n.length);
    if (rest.length === 0) break;
    if (rest[0] !== ':' || rest.length === 1) return undefined;
    rest = rest.slice(1);
    if (rest[0] === ':') {
      if (ellipsis >= 0) return undefined;
      ellipsis = i;
      rest = rest.slice(1);
      if (rest.length === 0) break;
    }
  }
  if (rest.length !== 0) return undefined;
  if (i < 16) {
    if (ellipsis < 0) return undefined;
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) out[j + n] = out[j];
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) out[j] = 0;
  } else if (ellipsis >= 0) {
    // An ellipsis must stand for at least one group.
    return undefined;
  }
  return out;
}

/** ParseIPSloppy: the first '.' or ':' decides the family; undefined when Go would return nil. */
export function parseIP(s: string): IPBytes | undefined {
  for (const ch of s) {
    if (ch === '.') return parseIPv4(s);
    if (ch === ':') return parseIPv6(s);
  }
  return undefined;
}

/** net.IP.To4() != nil: an IPv4 address, including an IPv4-mapped IPv6 literal. */
export function isIPv4(ip: IPBytes): boolean {
  return V4_IN_V6_PREFIX.every((b, i) => ip[i] === b);
}

function isUnspecified(ip: IPBytes): boolean {
  return ip.every((b) => b === 0) || (isIPv4(ip) && ip[12] === 0 && ip[13] === 0 && ip[14] === 0 && ip[15] === 0);
}

function isLoopback(ip: IPBytes): boolean {
  if (isIPv4(ip)) return ip[12] === 127;
  return ip.subarray(0, 15).every((b) => b === 0) && ip[15] === 1;
}

function isLinkLocalUnicast(ip: IPBytes): boolean {
  if (isIPv4(ip)) return ip[12] === 169 && ip[13] === 254;
  return ip[0] === 0xfe && (ip[1] & 0xc0) === 0x80;
}

function isLinkLocalMulticast(ip: IPBytes): boolean {
  if (isIPv4(ip)) return ip[12] === 224 && ip[13] === 0 && ip[14] === 0;
  return ip[0] === 0xff && (ip[1] & 0x0f) === 0x02;
}

/** validation.IsValidIP's message (the odd comma is upstream's). */
export const INVALID_IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/**
 * ValidateNonSpecialIP's messages for `address`, in upstream's order. Endpoints and EndpointSlices
 * may not point at these: unspecified and loopback addresses make no sense there and link-local
 * ones are node-centric (cloud metadata services).
 */
export function nonSpecialIPMessages(address: string): string[] {
  const ip = parseIP(address);
  if (!ip) return ['must be a valid IP address'];
  const msgs: string[] = [];
  if (isUnspecified(ip)) msgs.push(`may not be unspecified (${address})`);
  if (isLoopback(ip)) msgs.push('may not be in the loopback range (127.0.0.0/8, ::1/128)');
  if (isLinkLocalUnicast(ip)) msgs.push('may not be in the link-local range (169.254.0.0/16, fe80::/10)');
  if (isLinkLocalMulticast(ip)) msgs.push('may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)');
  return msgs;
}

/** Go's net.IP.IsGlobalUnicast for an address literal (false when it does not parse). */
export function isGlobalUnicast(address: string): boolean {
  const ip = parseIP(address);
  if (!ip) return false;
  const multicast = isIPv4(ip) ? ip[12]! >= 224 && ip[12]! <= 239 : ip[0] === 0xff;
  const broadcast = isIPv4(ip) && ip[12] === 255 && ip[13] === 255 && ip[14] === 255 && ip[15] === 255;
  return !(broadcast || isUnspecified(ip) || isLoopback(ip) || multicast || isLinkLocalUnicast(ip));
}
