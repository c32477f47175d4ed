import { describe, expect, it } from 'vitest';
import { MAX_WRONG_CODES, Pairing } from './pairing';

describe('pairing codes and sessions', () => {
  it('a code pairs once, with or without its dash, and is replaced at once', () => {
    const p = new Pairing();
    const code = p.displayCode;
    expect(code).toMatch(/^\d{4}-\d{4}$/);
    const first = p.pair(code.replace('-', ''));
    expect(first.ok).toBe(true);
    expect(p.displayCode).not.toBe(code);
    expect(p.pair(code)).toEqual({ ok: false, message: 'that is not the pairing code the bridge printed', codeChanged: false });
  });

  it(`replaces the code after ${MAX_WRONG_CODES} wrong ones`, () => {
    const p = new Pairing();
    const code = p.displayCode;
    for (let i = 1; i < MAX_WRONG_CODES; i++) expect(p.pair('0').ok).toBe(false);
    expect(p.displayCode).toBe(code);
    expect(p.pair('0')).toEqual({ ok: false, message: `${MAX_WRONG_CODES} wrong codes: the bridge printed a new pairing code`, codeChanged: true });
    expect(p.displayCode).not.toBe(code);
  });

  it('a newer pairing supersedes the older session; unknown sessions are refused', () => {
    const p = new Pairing();
    const a = p.pair(p.displayCode);
    const b = p.pair(p.displayCode);
    if (!a.ok || !b.ok) throw new Error('pairing failed');
    expect(p.resume(b.session)).toBe('resumed');
    expect(p.resume(a.session)).toBe('superseded');
    expect(p.resume('made-up')).toBe('unknown');
  });
});
