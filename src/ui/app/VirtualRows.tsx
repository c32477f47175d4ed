// The rows of a Table page, windowed with @tanstack/react-virtual: only the rows in the scroll box
// (plus an overscan) are in the DOM, with spacers for the rest. Every row has one fixed height, so
// nothing is measured; scrolling re-renders this component alone, and the list view around it
// (toolbar, paging facts, event log) is not touched by scrolling.
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useRef } from 'react';
import type { TableColumn, TableRow } from '../lib/api';

/** Every row has this height (CSS `.table-scroll tbody tr`), which is what makes windowing exact. */
const ROW_HEIGHT = 26;
/** Rows kept in the DOM beyond each edge of the scroll box, so a quick scroll shows no blank. */
const OVERSCAN = 10;

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
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    // No flushSync on scroll: its updates join React's batching, so a burst of watch events and a
    // scroll in the same frame still make one commit (issue 24's budget).
    useFlushSync: false,
    // Before the first measurement (and in a test without layout) assume a 400 px box.
    initialRect: { width: 0, height: 400 },
  });
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = items.length ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  const nameColumn = columns.findIndex((c) => c.format === 'name');
  const hidden = (c: TableColumn) => Boolean(c.priority) && !wide;
  const shown = columns.filter((c) => !hidden(c));
  return (
    <div className="table-scroll" ref={scroller} tabIndex={0} aria-label="Rows (scroll)">
      <table aria-rowcount={rows.length + 1}>
        <thead>
          <tr>{shown.map((c) => <th key={c.name} title={c.description}>{c.name.toUpperCase()}</th>)}</tr>
        </thead>
        <tbody>
          {before > 0 && <tr aria-hidden="true" style={{ height: before }}><td colSpan={shown.length || 1} /></tr>}
          {items.map(({ index: i }) => {
            const row = rows[i]!;
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
          {after > 0 && <tr aria-hidden="true" style={{ height: after }}><td colSpan={shown.length || 1} /></tr>}
        </tbody>
      </table>
    </div>
  );
});
