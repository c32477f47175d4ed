import { expect, it } from 'vitest';
import { formatAge } from './age';

it('prints ages as kubectl does', () => {
  const now = Date.parse('2026-01-02T00:00:00Z');
  const ago = (s: number) => new Date(now - s * 1000).toISOString();
  expect(formatAge(ago(5), now)).toBe('5s');
  expect(formatAge(ago(119), now)).toBe('119s');
  expect(formatAge(ago(150), now)).toBe('2m30s');
  expect(formatAge(ago(600), now)).toBe('10m');
  expect(formatAge(ago(3 * 3600), now)).toBe('3h');
  expect(formatAge(ago(3 * 86400), now)).toBe('3d');
  expect(formatAge(undefined, now)).toBe('');
  expect(formatAge('not a time', now)).toBe('');
});
