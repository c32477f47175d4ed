// Warnings the server sent (`Warning` headers: deprecated API versions, fieldValidation=Warn,
// PodSecurity), shown the way kubectl prints them, next to the response that carried them, and
// a page-wide list of the recent ones so none is swallowed by a request nobody looks at.
import { createContext, useContext, useSyncExternalStore } from 'react';
import { WarningLog } from '../lib/warnings';

/** Warnings of one response. */
export function WarningsList({ warnings }: { warnings: readonly string[] | undefined }) {
  if (!warnings?.length) return null;
  return (
    <ul className="warnings" aria-label="Warnings" data-testid="warnings">
      {warnings.map((w, i) => (
        <li key={i}>
          <strong>Warning:</strong> {w}
        </li>
      ))}
    </ul>
  );
}

export const WarningLogContext = createContext<WarningLog>(new WarningLog());

/** The recent warnings of every request the page made (lists, watches and writes alike). */
export function RecentWarnings() {
  const log = useContext(WarningLogContext);
  const entries = useSyncExternalStore(
    (onChange) => log.subscribe(onChange),
    () => log.list(),
  );
  if (!entries.length) return null;
  return (
    <section aria-label="Recent warnings" className="recent-warnings" data-testid="recent-warnings">
      <h3>
        Warnings <button type="button" onClick={() => log.clear()}>Clear</button>
      </h3>
      <ul>
        {entries.slice(0, 8).map((e) => (
          <li key={`${e.request} ${e.text}`} title={`${e.at.toLocaleTimeString()} · ${e.request}`}>
            {e.text}
            {e.count > 1 && <small> ×{e.count}</small>}
            <br />
            <small className="muted">{e.request}</small>
          </li>
        ))}
      </ul>
    </section>
  );
}
