import { expect, it } from 'vitest';
import { clusterTime } from './clock-format';

it('writes cluster time in UTC to the second, with the date only when it is not today', () => {
  const today = Date.UTC(2026, 10, 28, 6, 0, 0);
  expect(clusterTime(Date.UTC(2026, 10, 28, 6, 20, 5, 900), today)).toBe('06:20:05');
  expect(clusterTime(Date.UTC(2022, 0, 1, 0, 0, 1), today)).toBe('2022-01-01 00:00:01');
});
