// The object's YAML with its owners on every line, as kubectl-blame prints them (managers,
// operation, age), each manager marked by a colour from a colour-blind-safe palette and a letter.
// Clicking a manager in the legend highlights exactly its fields. Hovering a line, or moving
// through the lines with the arrow keys (the list is one tab stop), shows every owner's full
// entry: operation, apiVersion, subresource and time. Conflict lines are marked.
import { memo, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { formatAge } from '../lib/age';
import type { LegendEntry, OwnedLine, OwnershipView } from '../lib/ownership';

/** Objects longer than this are windowed (only the lines in view are in the DOM); shorter ones are whole, so find-in-page works. */
const WINDOW_FROM = 300;
/** Every line's height (CSS `.owned-lines`: 12px type, line-height 1.5). */
const LINE_PX = 18;

export function OwnershipGutter({ view, conflicts = [], now: nowGiven }: { view: OwnershipView; conflicts?: readonly number[]; now?: number }) {
  // Ages are as of the object's arrival: a fixed "now" per view keeps the memoised lines still.
  const now = useMemo(() => nowGiven ?? Date.now(), [view, nowGiven]);
  const legend = useMemo(() => new Map(view.legend.map((e) => [e.manager, e])), [view]);
  const marked = new Set(conflicts);
  const text = useMemo(() => view.yaml.split('\n'), [view]);
  const [selected, setSelected] = useState<string>();
  const [active, setActive] = useState<number>();
  const activeLine = active === undefined ? undefined : view.lines[active - 1];
  const list = useRef<HTMLOListElement>(null);
  const windowed = view.lines.length > WINDOW_FROM;
  // initialRect: the first render already holds the lines of a typical box (the list is not
  // measured yet), so a long object is on screen in one commit rather than two.
  const virtualizer = useVirtualizer({ count: windowed ? view.lines.length : 0, getScrollElement: () => list.current, estimateSize: () => LINE_PX, overscan: 30, initialRect: { width: 0, height: 600 } });
  const move = (e: KeyboardEvent) => {
    const last = view.lines.length;
    const at = active ?? 0;
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 1, End: last, PageDown: at + 20, PageUp: at - 20 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const line = Math.min(last, Math.max(1, to));
    setActive(line);
    if (windowed) virtualizer.scrollToIndex(line - 1, { align: 'auto' });
    else document.getElementById(`owned-line-${line}`)?.scrollIntoView({ block: 'nearest' });
  };
  const row = (l: OwnedLine) => (
    <LineRow key={l.line} line={l} text={text[l.line - 1] ?? ''} legend={legend} now={now} conflict={marked.has(l.line)} selected={selected} active={active === l.line} onPoint={setActive} />
  );
  const items = windowed ? virtualizer.getVirtualItems() : [];
  const before = windowed && items.length ? items[0]!.start : 0;
  const after = windowed && items.length ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  return (
    <div className="ownership">
      <ul className="legend" aria-label="Field managers">
        {view.legend.map((e) => (
          <li key={e.manager}>
            <button type="button" className="legend-entry" aria-pressed={selected === e.manager} onClick={() => setSelected(selected === e.manager ? undefined : e.manager)} title={`Highlight the fields ${e.manager} owns`}>
              <Mark entry={e} /> {e.manager}{' '}
              <small>
                {e.operations.join(', ')}
                {e.subresources.some(Boolean) ? ` · ${e.subresources.filter(Boolean).join(', ')}` : ''}
              </small>
            </button>
          </li>
        ))}
      </ul>
      <FieldDetail line={activeLine} legend={legend} now={now} />
      <ol
        ref={list}
        data-lines={view.lines.length}
        className={`owned-lines ${windowed ? 'windowed' : ''} ${selected ? 'highlighting' : ''}`}
        aria-label="Object with field ownership"
        tabIndex={0}
        aria-activedescendant={active ? `owned-line-${active}` : undefined}
        onKeyDown={move}
        onFocus={() => active === undefined && setActive(1)}
      >
        {windowed ? (
          <>
            {before > 0 && <li aria-hidden="true" className="spacer" style={{ height: before }} />}
            {items.map((v) => row(view.lines[v.index]!))}
            {after > 0 && <li aria-hidden="true" className="spacer" style={{ height: after }} />}
          </>
        ) : (
          view.lines.map(row)
        )}
      </ol>
    </div>
  );
}

/** One line: its owners' marks, the text, and the blame column; memoised so pointing re-renders two lines. */
const LineRow = memo(function LineRow({ line: l, text, legend, now, conflict, selected, active, onPoint }: { line: OwnedLine; text: string; legend: Map<string, LegendEntry>; now: number; conflict: boolean; selected: string | undefined; active: boolean; onPoint(line: number): void }) {
  const owners = [...new Set(l.owners.map((o) => o.manager))];
  const cls = [conflict ? 'conflict' : '', selected && owners.includes(selected) ? 'selected' : '', active ? 'active' : ''].filter(Boolean).join(' ');
  return (
    <li id={`owned-line-${l.line}`} className={cls || undefined} data-owners={owners.join(' ')} onMouseEnter={() => onPoint(l.line)}>
      <span className="gutter" aria-hidden="true">
        {owners.map((m) => (
          <Mark key={m} entry={legend.get(m)} />
        ))}
      </span>
      <code>{text}</code>
      {l.owners.length > 0 && (
        <span className="blame">
          {owners.join(', ')} · {[...new Set(l.owners.map((o) => o.operation))].join('/')} · {formatAge(latest(l), now)}
        </span>
      )}
    </li>
  );
});

function Mark({ entry }: { entry: LegendEntry | undefined }) {
  if (!entry) return null;
  return (
    <span className="mark" style={{ background: entry.colour, color: entry.ink }} aria-hidden="true">
      {entry.mark}
    </span>
  );
}

/** The newest time among a line's owners (what the blame column's age shows). */
function latest(l: OwnedLine): string | undefined {
  return l.owners.map((o) => o.time).filter(Boolean).sort().at(-1);
}

/** The full entries of the line under the pointer or the keyboard: who owns it, and how. */
function FieldDetail({ line, legend, now }: { line: OwnedLine | undefined; legend: Map<string, LegendEntry>; now: number }) {
  return (
    <div className="field-detail" role="status" aria-live="polite" data-testid="field-detail">
      {!line ? (
        <span className="muted">Point at a line (or focus the object and use the arrow keys) to see who owns it.</span>
      ) : !line.paths.length ? (
        <span className="muted">Line {line.line}: no field starts here.</span>
      ) : (
        <>
          <code>{line.paths.join(', ')}</code>{' '}
          {line.owners.length === 0 ? (
            <span className="muted">— not managed by anyone</span>
          ) : (
            <ul>
              {line.owners.map((o, i) => (
                <li key={i}>
                  <Mark entry={legend.get(o.manager)} /> <strong>{o.manager}</strong> · {o.operation || 'no operation'} · {o.apiVersion}
                  {o.subresource ? ` · subresource ${o.subresource}` : ''} · {o.time ? `${o.time} (${formatAge(o.time, now)} ago)` : 'no time'}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
