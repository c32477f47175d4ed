import { describe, expect, it } from 'vitest';
import { mostRecentScheduleTime, parseSchedule } from './cronjob-schedule';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

describe('cron schedules (robfig ParseStandard, UTC)', () => {
  it('finds the next activation strictly after a time', () => {
    expect(iso(parseSchedule('*/5 * * * *').next(at('2022-01-01T00:00:00Z')))).toBe('2022-01-01T00:05:00.000Z');
    expect(iso(parseSchedule('*/5 * * * *').next(at('2022-01-01T00:04:59Z')))).toBe('2022-01-01T00:05:00.000Z');
    expect(iso(parseSchedule('30 2 * * *').next(at('2022-01-01T03:00:00Z')))).toBe('2022-01-02T02:30:00.000Z');
    expect(iso(parseSchedule('0 9 * * mon-fri').next(at('2022-01-01T00:00:00Z')))).toBe('2022-01-03T09:00:00.000Z');
    expect(iso(parseSchedule('0 0 1 feb,JUN *').next(at('2022-03-01T00:00:00Z')))).toBe('2022-06-01T00:00:00.000Z');
    expect(iso(parseSchedule('5/20 * * * *').next(at('2022-01-01T00:30:00Z')))).toBe('2022-01-01T00:45:00.000Z');
    expect(iso(parseSchedule('@hourly').next(at('2022-01-01T00:00:00Z')))).toBe('2022-01-01T01:00:00.000Z');
    expect(iso(parseSchedule('@weekly').next(at('2022-01-01T00:00:00Z')))).toBe('2022-01-02T00:00:00.000Z');
    expect(iso(parseSchedule('@yearly').next(at('2022-01-01T00:00:00Z')))).toBe('2023-01-01T00:00:00.000Z');
    expect(iso(parseSchedule('@every 90s').next(at('2022-01-01T00:00:00.500Z')))).toBe('2022-01-01T00:01:30.000Z');
    expect(iso(parseSchedule('TZ=UTC 0 * * * *').next(at('2022-01-01T00:00:00Z')))).toBe('2022-01-01T01:00:00.000Z');
  });

  it('matches either day field when both are restricted, both when one is *', () => {
    // The 13th or any Friday.
    expect(iso(parseSchedule('0 0 13 * 5').next(at('2022-01-01T00:00:00Z')))).toBe('2022-01-07T00:00:00.000Z');
    // Only the 13th (day of week is *).
    expect(iso(parseSchedule('0 0 13 * *').next(at('2022-01-01T00:00:00Z')))).toBe('2022-01-13T00:00:00.000Z');
    expect(parseSchedule('0 0 30 2 *').next(at('2022-01-01T00:00:00Z'))).toBeUndefined();
  });

  it('rejects bad schedules with robfig\'s words', () => {
    expect(() => parseSchedule('* * * *')).toThrow('expected exactly 5 fields, found 4: [* * * *]');
    expect(() => parseSchedule('60 * * * *')).toThrow('end of range (60) above maximum (59): 60');
    expect(() => parseSchedule('* * * * 7')).toThrow('end of range (7) above maximum (6): 7');
    expect(() => parseSchedule('5-1 * * * *')).toThrow('beginning of range (5) beyond end of range (1): 5-1');
    expect(() => parseSchedule('*/0 * * * *')).toThrow('step of range should be a positive number: */0');
    expect(() => parseSchedule('@fortnightly')).toThrow('unrecognized descriptor: @fortnightly');
    expect(() => parseSchedule('x * * * *')).toThrow('failed to parse int from x');
  });

  it('gives the most recent missed time and how many were missed, as v1.23 counts them', () => {
    const s = parseSchedule('*/1 * * * *');
    expect(mostRecentScheduleTime(s, at('2022-01-01T00:00:00Z'), at('2022-01-01T00:00:59Z'))).toEqual({ missed: 0 });
    expect(mostRecentScheduleTime(s, at('2022-01-01T00:00:00Z'), at('2022-01-01T00:01:00Z'))).toEqual({ time: at('2022-01-01T00:01:00Z'), missed: 1 });
    expect(mostRecentScheduleTime(s, at('2022-01-01T00:00:00Z'), at('2022-01-01T00:10:30Z'))).toEqual({ time: at('2022-01-01T00:10:00Z'), missed: 10 });
  });
});
