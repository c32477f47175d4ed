import { describe, expect, it } from 'vitest';
import { parseGoTime, RFC3339, RFC3339_MICRO } from './go-time';

const error = (layout: typeof RFC3339 | typeof RFC3339_MICRO, v: string) => {
  const r = parseGoTime(layout, v);
  return 'error' in r ? r.error : undefined;
};
const ms = (layout: typeof RFC3339 | typeof RFC3339_MICRO, v: string) => {
  const r = parseGoTime(layout, v);
  return 'time' in r ? r.time : r.error;
};

describe('Go time.Parse with RFC3339 (metav1.Time)', () => {
  it('reads what Date reads, offsets and fractions included', () => {
    expect(ms(RFC3339, '2021-01-01T00:00:00Z')).toEqual({ ms: Date.parse('2021-01-01T00:00:00Z'), nanos: 0 });
    expect(ms(RFC3339, '2021-06-30T23:59:59+02:00')).toEqual({ ms: Date.parse('2021-06-30T21:59:59Z'), nanos: 0 });
    expect(ms(RFC3339, '2021-01-01T00:00:00.5Z')).toEqual({ ms: Date.parse('2021-01-01T00:00:00Z'), nanos: 500_000_000 });
    expect(ms(RFC3339, '2021-01-01T00:00:00,25Z')).toEqual({ ms: Date.parse('2021-01-01T00:00:00Z'), nanos: 250_000_000 });
    // One-digit hours are Go's (the layout's 15 is not fixed width); years below 100 stay as they are.
    expect(ms(RFC3339, '2021-01-01T1:02:03Z')).toEqual({ ms: Date.parse('2021-01-01T01:02:03Z'), nanos: 0 });
    expect(ms(RFC3339, '0001-01-01T00:00:00Z')).toEqual({ ms: -62135596800000, nanos: 0 });
  });

  it('words each failure as Go does', () => {
    expect(error(RFC3339, 'yesterday')).toBe('parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"');
    expect(error(RFC3339, '')).toBe('parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006"');
    expect(error(RFC3339, '2021/01/01')).toBe('parsing time "2021/01/01" as "2006-01-02T15:04:05Z07:00": cannot parse "/01/01" as "-"');
    expect(error(RFC3339, '2021-1-01T00:00:00Z')).toBe('parsing time "2021-1-01T00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "1-01T00:00:00Z" as "01"');
    expect(error(RFC3339, '2021-13-01T00:00:00Z')).toBe('parsing time "2021-13-01T00:00:00Z": month out of range');
    expect(error(RFC3339, '2021-02-29T00:00:00Z')).toBe('parsing time "2021-02-29T00:00:00Z": day out of range');
    expect(error(RFC3339, '2021-01-01T24:00:00Z')).toBe('parsing time "2021-01-01T24:00:00Z": hour out of range');
    expect(error(RFC3339, '2021-01-01T00:00:00')).toBe('parsing time "2021-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"');
    expect(error(RFC3339, '2021-01-01t00:00:00Z')).toBe('parsing time "2021-01-01t00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "t00:00:00Z" as "T"');
    expect(error(RFC3339, '2021-01-01T00:00:00Zx')).toBe('parsing time "2021-01-01T00:00:00Zx": extra text: "x"');
    expect(error(RFC3339, '日本')).toBe('parsing time "\\xe6\\x97\\xa5\\xe6\\x9c\\xac" as "2006-01-02T15:04:05Z07:00": cannot parse "\\xe6\\x97\\xa5\\xe6\\x9c\\xac" as "2006"');
  });
});

describe('Go time.Parse with RFC3339Micro (metav1.MicroTime)', () => {
  it('needs exactly six fractional digits', () => {
    expect(ms(RFC3339_MICRO, '2021-01-01T00:00:00.123456Z')).toEqual({ ms: Date.parse('2021-01-01T00:00:00Z'), nanos: 123_456_000 });
    expect(error(RFC3339_MICRO, '2021-01-01T00:00:00Z')).toBe('parsing time "2021-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"');
    expect(error(RFC3339_MICRO, '2021-01-01T00:00:00.1234567Z')).toBe('parsing time "2021-01-01T00:00:00.1234567Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "7Z" as "Z07:00"');
  });
});
