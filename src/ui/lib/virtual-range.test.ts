import { describe, expect, it } from 'vitest';
import { visibleRange } from './virtual-range';

describe('virtual row range', () => {
  it('renders the viewport plus overscan at the top', () => {
    expect(visibleRange(0, 260, 26, 1000, 5)).toEqual({ start: 0, end: 16, before: 0, after: 984 * 26 });
  });

  it('follows the scroll position and keeps the total height', () => {
    const r = visibleRange(26 * 500, 260, 26, 1000, 5);
    expect(r).toEqual({ start: 495, end: 516, before: 495 * 26, after: 484 * 26 });
    expect(r.before + (r.end - r.start) * 26 + r.after).toBe(1000 * 26);
  });

  it('clamps at the end and for short or empty lists', () => {
    expect(visibleRange(26 * 995, 260, 26, 1000, 5)).toMatchObject({ start: 990, end: 1000, after: 0 });
    expect(visibleRange(0, 500, 26, 3)).toEqual({ start: 0, end: 3, before: 0, after: 0 });
    expect(visibleRange(100, 500, 26, 0)).toEqual({ start: 0, end: 0, before: 0, after: 0 });
  });
});
