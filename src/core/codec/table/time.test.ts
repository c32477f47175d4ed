import { describe, expect, it } from 'vitest';
import { age, between, createdAt, humanDuration, parseTimestamp } from './time';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('humanDuration (Go duration.HumanDuration)', () => {
  const cases: [number, string][] = [
    [-3 * S, '<invalid>'],
    [-1500, '0s'],
    [-999, '0s'],
    [0, '0s'],
    [5 * S, '5s'],
    [119 * S + 999, '119s'],
    [2 * M, '2m'],
    [2 * M + 3 * S, '2m3s'],
    [9 * M + 59 * S, '9m59s'],
    [10 * M + 30 * S, '10m'],
    [179 * M, '179m'],
    [3 * H, '3h'],
    [3 * H + 4 * M, '3h4m'],
    [7 * H + 59 * M, '7h59m'],
    [8 * H + 30 * M, '8h'],
    [47 * H, '47h'],
    [2 * D, '2d'],
    [2 * D + 3 * H, '2d3h'],
    [7 * D + 23 * H, '7d23h'],
    [8 * D, '8d'],
    [729 * D, '729d'],
    [2 * 365 * D, '2y'],
    [2 * 365 * D + 3 * D, '2y3d'],
    [8 * 365 * D + 100 * D, '8y'],
  ];
  it.each(cases)('%d ms -> %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});

describe('timestamps', () => {
  const now = Date.parse('2024-01-01T12:00:00Z');
  it('ages timestamps and reports missing or zero ones as <unknown>', () => {
    expect(age('2024-01-01T11:55:00Z', now)).toBe('5m');
    expect(age('2024-01-01T11:59:59.500000Z', now)).toBe('0s');
    expect(age(undefined, now)).toBe('<unknown>');
    expect(age('0001-01-01T00:00:00Z', now)).toBe('<unknown>');
    expect(age('yesterday', now)).toBe('<unknown>');
  });
  it('parses RFC 3339 with offsets and rejects other text', () => {
    expect(parseTimestamp('2024-01-01T13:00:00+01:00')).toBe(Date.parse('2024-01-01T12:00:00Z'));
    expect(parseTimestamp('')).toBeNull();
    expect(parseTimestamp('2024-01-01')).toBeNaN();
  });
  it('measures between two timestamps', () => {
    expect(between('2024-01-01T00:00:00Z', '2024-01-01T00:00:42Z')).toBe('42s');
    expect(between(undefined, '2024-01-01T00:00:42Z')).toBe('');
  });
  it('formats Created At in UTC with second precision, zero time when missing', () => {
    expect(createdAt('2024-03-04T05:06:07.891Z')).toBe('2024-03-04T05:06:07Z');
    expect(createdAt('2024-03-04T07:06:07+02:00')).toBe('2024-03-04T05:06:07Z');
    expect(createdAt(undefined)).toBe('0001-01-01T00:00:00Z');
  });
});
