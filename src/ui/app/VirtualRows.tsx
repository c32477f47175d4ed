// The rows of a Table page, windowed: only the rows in the scroll box (plus an overscan) are in
// the DOM, with spacers for the rest. The scroll position lives here, in whole rows, so scrolling
// re-renders this component alone and only when a row boundary is crossed; the list view around
// it (toolbar, paging facts, event log) is not touched by scrolling.
import { memo, useCallback, useLayoutEffect, useRef, useState } from 'react';
import type { TableColumn, TableRow } from '../lib/api';
import { visibleRange } from '../lib/virtual-range';
import { scheduleInFrame } from '../lib/watch-store';

/** Every row has this height (CSS `.table-scroll tbody tr`), which is what makes windowing exact. */
const ROW_HEIGHT = 26;

export interface VirtualRowsProps {
  columns: TableColumn[];
  rows: TableRow[];
  /** The link for a row's name cell. */
  objectLink(name: string, namespace?: string): string;
  /** Show the priority > 0 columns too, as `kubectl get -o wide` (a pod's IP and node). */
  wide?: boolean;
}

export const VirtualRows = memo(function VirtualRows({ columns, rows, objectLink, wide = false }: VirtualRowsProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState({ firstRow: 0, height: 400 });
  // The last viewport asked for, so an unchanged measurement schedules nothing: even a no-op
  // setState can make React render and commit once more.
  const wanted = useRef(viewport);
  const measure = useCallback((el: HTMLElement) => {
    const next = { firstRow: Math.floor(el.scrollTop / ROW_HEIGHT), height: el.clientHeight };
    if (wanted.current.firstRow === next.firstRow && wanted.current.height === next.height) return;
    wanted.current = next;
    setViewport(next);
  }, []);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    measure(el);
    // ResizeObserver callbacks run after the frame's layout, outside any frame callback: a state
    // update made there would commit on its own, a second render in the frame. It waits for the
    // next frame's shared queue instead, where it joins that frame's single commit.
    let live = true;
    const observer = new ResizeObserver(() => scheduleInFrame(() => live && measure(el)));
    observer.observe(el);
    return () => {
      live = false;
      observer.disconnect();
    };
  }, [measure]);
  const nameColumn = columns.findIndex((c) => c.format === 'name');
  const hidden = (c: TableColumn) => Boolean(c.priority) && !wide;
  const shown = columns.filter((c) => !hidden(c));
  const range = visibleRange(viewport.firstRow * ROW_HEIGHT, viewport.height, ROW_HEIGHT, rows.length);
  return (
    <div className="table-scroll" ref={scroller} tabIndex={0} aria-label="Rows (scroll)" onScroll={(e) => measure(e.currentTarget)}>
      <table aria-rowcount={rows.length + 1}>
        <thead>
          <tr>{shown.map((c) => <th key={c.name} title={c.description}>{c.name.toUpperCase()}</th>)}</tr>
        </thead>
        <tbody>
          {range.before > 0 && <tr aria-hidden="true" style={{ height: range.before }}><td colSpan={shown.length || 1} /></tr>}
          {rows.slice(range.start, range.end).map((row, offset) => {
            const i = range.start + offset;
            const meta = row.object?.metadata;
            const name = meta?.name ?? String(row.cells[nameColumn] ?? '');
            return (
              <tr key={`${meta?.namespace ?? ''}/${name}/${i}`} aria-rowindex={i + 2}>
                {columns.map((c, ci) =>
                  hidden(c) ? null : <td key={c.name}>{ci === nameColumn ? <a href={objectLink(name, meta?.namespace)}>{name}</a> : String(row.cells[ci] ?? '')}</td>,
                )}
              </tr>
            );
          })}
          {range.after > 0 && <tr aria-hidden="true" style={{ height: range.after }}><td colSpan={shown.length || 1} /></tr>}
        </tbody>
      </table>
    </div>
  );
});
