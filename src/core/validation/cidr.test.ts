import { describe, expect, it } from 'vitest';
import { cidrContains, parseCIDR } from './cidr';

describe('parseCIDR (ParseCIDRSloppy)', () => {
  it('masks the network and keeps the prefix', () => {
    expect(parseCIDR('10.1.2.3/16')).toEqual({ ip: [10, 1, 0, 0], mask: [255, 255, 0, 0], ones: 16 });
    expect(parseCIDR('192.168.0.0/20')?.mask).toEqual([255, 255, 240, 0]);
    expect(parseCIDR('0.0.0.0/0')).toEqual({ ip: [0, 0, 0, 0], mask: [0, 0, 0, 0], ones: 0 });
  });

  it('accepts IPv4 leading zeros as decimal, as 1.23 does', () => {
    expect(parseCIDR('010.001.0.0/16')?.ip).toEqual([10, 1, 0, 0]);
  });

  it('parses IPv6, with "::" and a trailing dotted quad', () => {
    const n = parseCIDR('fd00::1/64')!;
    expect(n.ones).toBe(64);
    expect(n.ip).toEqual([0xfd, 0, ...new Array(14).fill(0)]);
    expect(parseCIDR('::/0')?.ip).toEqual(new Array(16).fill(0));
    expect(parseCIDR('::ffff:10.0.0.0/104')?.ip).toEqual([...new Array(10).fill(0), 0xff, 0xff, 10, 0, 0, 0]);
    expect(parseCIDR('2001:db8:0:0:0:0:0:0/32')?.ip.slice(0, 4)).toEqual([0x20, 0x01, 0x0d, 0xb8]);
  });

  it('rejects what Go rejects', () => {
    for (const bad of ['10.0.0.0', '10.0.0.0/33', '10.0.0/8', '256.0.0.0/8', '10.0.0.0/x', '10.0.0.0/', 'fd00::/129', '1:2:3:4:5:6:7:8::/64', 'fd00:::1/64', 'abc/8', '']) {
      expect(parseCIDR(bad), bad).toBeNull();
    }
  });
});

describe('cidrContains (IPNet.Contains)', () => {
  const net = parseCIDR('10.0.0.0/8')!;
  it('checks the network bits of the same family', () => {
    expect(cidrContains(net, parseCIDR('10.20.0.0/16')!.ip)).toBe(true);
    expect(cidrContains(net, parseCIDR('11.0.0.0/16')!.ip)).toBe(false);
    expect(cidrContains(net, parseCIDR('fd00::/16')!.ip)).toBe(false);
  });

  it('folds IPv4-mapped IPv6 addresses into IPv4', () => {
    expect(cidrContains(net, parseCIDR('::ffff:10.1.0.0/120')!.ip)).toBe(true);
  });
});
