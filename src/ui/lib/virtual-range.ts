// Which rows of a long fixed-height list to put in the DOM: the ones in the viewport plus an
// overscan on each side, so a 1,000-row table renders a few dozen rows and still scrolls the full
// height (spacers stand in for the rest).
export interface VirtualRange {
  start: number;
  /** Exclusive. */
  end: number;
  /** Heights of the spacers above and below the rendered rows. */
  before: number;
  after: number;
}

export function visibleRange(scrollTop: number, viewportHeight: number, rowHeight: number, count: number, overscan = 10): VirtualRange {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0, before: 0, after: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const shown = Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1;
  const start = Math.min(count, Math.max(0, first - overscan));
  const end = Math.min(count, first + shown + overscan);
  return { start, end: Math.max(start, end), before: start * rowHeight, after: (count - Math.max(start, end)) * rowHeight };
}
