import { describe, expect, it } from 'vitest';
import { newUuid } from './uuid';

describe('newUuid', () => {
  it('gives RFC 4122 version-4 UUIDs', () => {
    for (let i = 0; i < 600; i++) expect(newUuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('never repeats across refills of its pool', () => {
    // 256 UUIDs per pool: 2000 spans several refills.
    const seen = new Set(Array.from({ length: 2000 }, () => newUuid()));
    expect(seen.size).toBe(2000);
  });

  it('uses every hex digit in the random positions', () => {
    const digits = new Set(Array.from({ length: 200 }, () => newUuid()).join('').replace(/-/g, ''));
    expect([...digits].sort().join('')).toBe('0123456789abcdef');
  });
});
