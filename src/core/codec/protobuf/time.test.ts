import { describe, expect, it } from 'vitest';
import { formatDuration, formatMicroTime, formatTime, parseDuration, parseTime } from './time';
import { ProtobufError } from './wire';

describe('Time and MicroTime', () => {
  it('formats UTC RFC 3339 with whole seconds or six fractional digits', () => {
    expect(formatTime(1700000000)).toBe('2023-11-14T22:13:20Z');
    expect(formatMicroTime(1700000000, 5_000)).toBe('2023-11-14T22:13:20.000005Z');
    expect(formatTime(-1)).toBe('1969-12-31T23:59:59Z');
  });

  it('parses RFC 3339 with offsets and fractions', () => {
    expect(parseTime('2023-11-14T22:13:20Z')).toEqual({ seconds: 1700000000, nanos: 0 });
    expect(parseTime('2023-11-14T23:13:20+01:00')).toEqual({ seconds: 1700000000, nanos: 0 });
    expect(parseTime('2023-11-14T22:13:20.123456Z')).toEqual({ seconds: 1700000000, nanos: 123456000 });
    expect(() => parseTime('yesterday')).toThrow(ProtobufError);
  });
});

describe('Go durations', () => {
  it('formats like time.Duration.String()', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(90e9)).toBe('1m30s');
    expect(formatDuration(3600e9)).toBe('1h0m0s');
    expect(formatDuration(1.5e9)).toBe('1.5s');
    expect(formatDuration(150e6)).toBe('150ms');
    expect(formatDuration(2500)).toBe('2.5µs');
    expect(formatDuration(-5e9)).toBe('-5s');
  });

  it('parses like time.ParseDuration', () => {
    expect(parseDuration('1h0m0s')).toBe(3600e9);
    expect(parseDuration('1.5s')).toBe(1.5e9);
    expect(parseDuration('-2m')).toBe(-120e9);
    expect(parseDuration('0')).toBe(0);
    expect(() => parseDuration('5 minutes')).toThrow(ProtobufError);
    expect(() => parseDuration('')).toThrow(ProtobufError);
  });
});
