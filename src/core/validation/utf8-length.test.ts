import { describe, expect, it } from 'vitest';
import { utf8Length } from './meta';

describe('utf8Length', () => {
  it('equals the length of the UTF-8 encoding', () => {
    const enc = new TextEncoder();
    for (const s of ['', 'abc', 'é', '€uro', '😀', 'a😀b€c', '\ud800x', 'x\udc00', '\u07ff\u0800']) {
      expect(utf8Length(s), JSON.stringify(s)).toBe(enc.encode(s).length);
    }
  });
});
