// The object's YAML with its owners on every line, as kubectl-blame prints them (managers,
// operation, age), each manager marked by a colour from a colour-blind-safe palette and a letter.
// Clicking a manager in the legend highlights exactly its fields. Hovering a line, or moving
// through the lines with the arrow keys (the list is one tab stop), shows every owner's full
// entry: operation, apiVersion, subresource and time. Conflict lines are marked.
import { useMemo, useState, type KeyboardEvent } from 'react';
import { formatAge } from '../lib/age';
import type { LegendEntry, OwnedLine, OwnershipView } from '../lib/ownership';

export function OwnershipGutter({ view, conflicts = [], now = Date.now() }: { view: OwnershipView; conflicts?: readonly number[]; now?: number }) {
  const legend = useMemo(() => new Map(view.legend.map((e) => [e.manager, e])), [view]);
  const marked = new Set(conflicts);
  const text = view.yaml.split('\n');
  const [selected, setSelected] = useState<string>();
  const [active, setActive] = useState<number>();
  const activeLine = active === undefined ? undefined : view.lines[active - 1];
  const move = (e: KeyboardEvent) => {
    const last = view.lines.length;
    const at = active ?? 0;
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 1, End: last, PageDown: at + 20, PageUp: at - 20 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const line = Math.min(last, Math.max(1, to));
    setActive(line);
    document.getElementById(`owned-line-${line}`)?.scrollIntoView({ block: 'nearest' });
  };
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
        className={`owned-lines ${selected ? 'highlighting' : ''}`}
        aria-label="Object with field ownership"
        tabIndex={0}
        aria-activedescendant={active ? `owned-line-${active}` : undefined}
        onKeyDown={move}
        onFocus={() => active === undefined && setActive(1)}
      >
        {view.lines.map((l) => {
          const owners = [...new Set(l.owners.map((o) => o.manager))];
          const cls = [marked.has(l.line) ? 'conflict' : '', selected && owners.includes(selected) ? 'selected' : '', active === l.line ? 'active' : ''].filter(Boolean).join(' ');
          return (
            <li key={l.line} id={`owned-line-${l.line}`} className={cls || undefined} data-owners={owners.join(' ')} onMouseEnter={() => setActive(l.line)}>
              <span className="gutter" aria-hidden="true">
                {owners.map((m) => (
                  <Mark key={m} entry={legend.get(m)} />
                ))}
              </span>
              <code>{text[l.line - 1]}</code>
              {l.owners.length > 0 && (
                <span className="blame">
                  {owners.join(', ')} · {[...new Set(l.owners.map((o) => o.operation))].join('/')} · {formatAge(latest(l), now)}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

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
