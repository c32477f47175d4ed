import { describe, expect, it } from 'vitest';
import { parseHistoryWindow } from './history-window';
import { StartupError } from './runtime-config';

describe('parseHistoryWindow', () => {
  it('parses Go durations into milliseconds', () => {
    expect(parseHistoryWindow('5m')).toBe(300_000);
    expect(parseHistoryWindow('90s')).toBe(90_000);
    expect(parseHistoryWindow('250ms')).toBe(250);
    expect(parseHistoryWindow('1.5h')).toBe(5_400_000);
    expect(parseHistoryWindow('1h2m3s')).toBe(3_723_000);
  });

  it('refuses text that is not a positive duration', () => {
    for (const text of ['', '5', '5x', 'm5', '5 m']) expect(() => parseHistoryWindow(text)).toThrow(new StartupError(`time: invalid duration ${JSON.stringify(text)}`));
    for (const text of ['0', '-1m', '0s']) expect(() => parseHistoryWindow(text)).toThrow(new StartupError('must be positive'));
  });
});
