import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentHash, storageVersionHash } from './hashes';
import { sha256 } from './sha256';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('sha256', () => {
  it('matches a reference implementation across block boundaries', () => {
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const data = new Uint8Array(length).map((_, i) => (i * 31 + 7) & 0xff);
      expect(hex(sha256(data)), `length ${length}`).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });
});

describe('storageVersionHash', () => {
  it('reproduces the values real kube-apiserver publishes', () => {
    expect(storageVersionHash('', 'v1', 'Pod')).toBe('xPOwRZ+Yhw8=');
    expect(storageVersionHash('', 'v1', 'ConfigMap')).toBe('qFsyl6wFWjQ=');
    expect(storageVersionHash('apps', 'v1', 'Deployment')).toBe('8aSe+NMegvE=');
  });
});

describe('contentHash', () => {
  it('is stable, 16 upper-case hex digits, and sensitive to content', () => {
    expect(contentHash('abc')).toBe(contentHash('abc'));
    expect(contentHash('abc')).toMatch(/^[0-9A-F]{16}$/);
    expect(contentHash('abc')).not.toBe(contentHash('abd'));
    expect(contentHash('')).not.toBe(contentHash(' '));
  });
});
