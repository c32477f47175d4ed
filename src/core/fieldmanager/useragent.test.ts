import { describe, expect, it } from 'vitest';
import { FIELD_MANAGER_MAX_LENGTH, managerFromUserAgent } from './useragent';

describe('managerFromUserAgent', () => {
  it('answers each agent for itself when agents alternate (the last answer is cached)', () => {
    expect(managerFromUserAgent('kubectl/v1.34')).toBe('kubectl');
    expect(managerFromUserAgent('kubectl/v1.34')).toBe('kubectl');
    expect(managerFromUserAgent('Mozilla/5.0 (X11)')).toBe('Mozilla');
    expect(managerFromUserAgent(undefined)).toBe('');
    expect(managerFromUserAgent('kubectl/v1.34')).toBe('kubectl');
    expect(managerFromUserAgent('')).toBe('');
  });
  it('keeps printable ASCII whole up to the byte limit', () => {
    expect(managerFromUserAgent('my tool ~v2!')).toBe('my tool ~v2!');
    expect(managerFromUserAgent('y'.repeat(300) + '/1')).toBe('y'.repeat(FIELD_MANAGER_MAX_LENGTH));
  });
  it('drops unprintable characters and counts UTF-8 bytes outside ASCII', () => {
    expect(managerFromUserAgent('tab\there/1')).toBe('tabhere');
    // 'é' is two bytes: 64 of them fill the 128 bytes, the rest is cut.
    expect(managerFromUserAgent('é'.repeat(70))).toBe('é'.repeat(64));
    expect(managerFromUserAgent('a' + 'é'.repeat(64))).toBe('a' + 'é'.repeat(63));
  });
});
