import { describe, expect, it } from 'vitest';
import { isIPv4, nonSpecialIPMessages, parseIP } from './ip-address';

const hex = (ip: Uint8Array | undefined) => (ip ? Array.from(ip, (b) => b.toString(16).padStart(2, '0')).join('') : undefined);

describe('parseIP (ParseIPSloppy)', () => {
  it('holds IPv4 in the IPv4-mapped form and takes leading zeros', () => {
    expect(hex(parseIP('10.1.2.3'))).toBe('00000000000000000000ffff0a010203');
    expect(hex(parseIP('010.001.2.3'))).toBe('00000000000000000000ffff0a010203');
    expect(parseIP('256.1.1.1')).toBeUndefined();
    expect(parseIP('1.2.3')).toBeUndefined();
    expect(parseIP('1.2.3.4.')).toBeUndefined();
    expect(parseIP('example.com')).toBeUndefined();
    expect(parseIP('')).toBeUndefined();
  });

  it('parses IPv6 with an ellipsis and a dotted tail', () => {
    expect(hex(parseIP('2001:db8::1'))).toBe('20010db8000000000000000000000001');
    expect(hex(parseIP('::'))).toBe('00000000000000000000000000000000');
    expect(hex(parseIP('fe80::'))).toBe('fe800000000000000000000000000000');
    expect(hex(parseIP('::ffff:1.2.3.4'))).toBe('00000000000000000000ffff01020304');
    expect(parseIP('1::2::3')).toBeUndefined();
    expect(parseIP('1:2:3:4:5:6:7:8:9')).toBeUndefined();
    expect(parseIP('1:2:3:4:5:6:7::8')).toBeUndefined();
    expect(parseIP('12345::')).toBeUndefined();
    expect(parseIP('fe80::1%eth0')).toBeUndefined();
  });

  it('an IPv4-mapped IPv6 literal counts as IPv4, as net.IP.To4 says', () => {
    expect(isIPv4(parseIP('::ffff:10.0.0.1')!)).toBe(true);
    expect(isIPv4(parseIP('2001:db8::1')!)).toBe(false);
  });
});

describe('nonSpecialIPMessages (ValidateNonSpecialIP)', () => {
  it('accepts ordinary addresses', () => {
    expect(nonSpecialIPMessages('10.244.0.5')).toEqual([]);
    expect(nonSpecialIPMessages('2001:db8::5')).toEqual([]);
    expect(nonSpecialIPMessages('224.0.1.1')).toEqual([]);
  });

  it('names each special range, both families', () => {
    expect(nonSpecialIPMessages('0.0.0.0')).toEqual(['may not be unspecified (0.0.0.0)']);
    expect(nonSpecialIPMessages('::')).toEqual(['may not be unspecified (::)']);
    expect(nonSpecialIPMessages('127.0.0.2')).toEqual(['may not be in the loopback range (127.0.0.0/8, ::1/128)']);
    expect(nonSpecialIPMessages('::1')).toEqual(['may not be in the loopback range (127.0.0.0/8, ::1/128)']);
    expect(nonSpecialIPMessages('169.254.169.254')).toEqual(['may not be in the link-local range (169.254.0.0/16, fe80::/10)']);
    expect(nonSpecialIPMessages('fe80::1')).toEqual(['may not be in the link-local range (169.254.0.0/16, fe80::/10)']);
    expect(nonSpecialIPMessages('224.0.0.251')).toEqual(['may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)']);
    expect(nonSpecialIPMessages('ff02::fb')).toEqual(['may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)']);
    expect(nonSpecialIPMessages('nope')).toEqual(['must be a valid IP address']);
  });
});
