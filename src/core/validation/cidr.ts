// CIDR parsing and containment as v1.23 NetworkPolicy validation sees them. kube 1.23 parses
// with k8s.io/utils/net's ParseCIDRSloppy, which keeps Go 1.16's net.ParseCIDR rules: IPv4
// octets may have leading zeros ("010" is 10), the prefix is decimal, host bits may be set (the
// network is masked). Containment follows Go's IPNet.Contains, including its IPv4-in-IPv6 folding.
import { isIPv4, parseIP } from './ip-address';

export interface IpNet {
  /** Network number (masked), 4 bytes for an IPv4 CIDR, 16 for IPv6. */
  ip: number[];
  /** Mask bytes, same length as the parsed address family. */
  mask: number[];
  /** Prefix length (IPMask.Size's ones). */
  ones: number;
}

/** ParseCIDRSloppy; null where Go returns an error. */
export function parseCIDR(s: string): IpNet | null {
  const slash = s.indexOf('/');
  if (slash < 0) return null;
  const addr = s.slice(0, slash);
  const prefix = s.slice(slash + 1);
  const parsed = parseIP(addr);
  if (!parsed) return null;
  // Go tries the dotted IPv4 form first; only it gives a 4-byte network (an IPv4-mapped IPv6
  // literal stays 16 bytes with a prefix of up to 128).
  const ip = addr.includes(':') ? [...parsed] : [...parsed.subarray(12)];
  const ones = /^[0-9]+$/.test(prefix) ? Number(prefix) : NaN;
  if (!(ones <= ip.length * 8)) return null;
  const mask = ip.map((_, i) => {
    const bits = Math.max(0, Math.min(8, ones - i * 8));
    return (0xff << (8 - bits)) & 0xff;
  });
  return { ip: ip.map((b, i) => b & mask[i]), mask, ones };
}

/** IP.To4: a 4-byte address, or the IPv4 inside an IPv4-mapped IPv6 address. */
function to4(ip: number[]): number[] | null {
  if (ip.length === 4) return ip;
  return ip.length === 16 && isIPv4(Uint8Array.from(ip)) ? ip.slice(12) : null;
}

/** IPNet.Contains(ip). */
export function cidrContains(net: IpNet, ip: number[]): boolean {
  const nn = to4(net.ip) ?? (net.ip.length === 16 ? net.ip : null);
  if (!nn) return false;
  let mask = net.mask;
  if (mask.length === 4 && nn.length !== 4) return false;
  if (mask.length === 16 && nn.length === 4) mask = mask.slice(12);
  const addr = to4(ip) ?? ip;
  if (addr.length !== nn.length) return false;
  return addr.every((b, i) => (b & mask[i]) === (nn[i] & mask[i]));
}
