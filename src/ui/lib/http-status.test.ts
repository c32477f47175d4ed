import { describe, expect, it } from 'vitest';
import { statusLine } from './http-status';

describe('status line', () => {
  it('uses the response text, else the standard phrase, else the bare code', () => {
    expect(statusLine(200, '')).toBe('200 OK');
    expect(statusLine(422, '')).toBe('422 Unprocessable Entity');
    expect(statusLine(404, 'Nope')).toBe('404 Nope');
    expect(statusLine(299, '')).toBe('299');
  });
});
