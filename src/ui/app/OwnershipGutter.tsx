// The object's YAML with a gutter colour per owning manager on every line, all co-owners in the
// line's tooltip (operation, apiVersion, subresource, time), conflict lines marked, and a legend.
import { describeOwner, type OwnershipView } from '../lib/ownership';

export function OwnershipGutter({ view, conflicts = [] }: { view: OwnershipView; conflicts?: readonly number[] }) {
  const colour = new Map(view.legend.map((e) => [e.manager, e.colour]));
  const marked = new Set(conflicts);
  const text = view.yaml.split('\n');
  return (
    <div className="ownership">
      <ul className="legend" aria-label="Field managers">
        {view.legend.map((e) => (
          <li key={e.manager}>
            <span className="swatch" style={{ background: e.colour }} aria-hidden="true" /> {e.manager} <small>{e.operations.join(', ')}{e.subresources.some(Boolean) ? ` · ${e.subresources.filter(Boolean).join(', ')}` : ''}</small>
          </li>
        ))}
      </ul>
      <ol className="owned-lines" aria-label="Object with field ownership">
        {view.lines.map((l) => {
          const title = l.owners.length ? `${l.paths.join(', ')}\nowned by:\n${l.owners.map(describeOwner).join('\n')}` : l.paths.length ? `${l.paths.join(', ')}\nnot managed by anyone` : undefined;
          return (
            <li key={l.line} tabIndex={l.owners.length ? 0 : -1} title={title} className={marked.has(l.line) ? 'conflict' : undefined} data-owners={l.owners.map((o) => o.manager).join(' ')}>
              <span className="gutter" aria-hidden="true">
                {l.owners.map((o, i) => <span key={i} style={{ background: colour.get(o.manager) }} />)}
              </span>
              <code>{text[l.line - 1]}</code>
              {l.owners.length > 0 && <span className="sr-only"> owned by {l.owners.map((o) => o.manager).join(', ')}</span>}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
