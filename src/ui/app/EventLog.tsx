// The watch event log: newest first, with the resourceVersion each event carried.
import { memo } from 'react';
import type { EventLogEntry } from '../lib/watch-store';

/** Memoised: the table around it re-renders on scrolling and paging, the log only on events. */
export const EventLog = memo(function EventLog({ entries, resourceVersion }: { entries: readonly EventLogEntry[]; resourceVersion: string }) {
  const newest = entries.slice(-200).reverse();
  return (
    <section aria-label="Watch events" className="event-log">
      <h3>
        Watch events <small>at resourceVersion {resourceVersion || '—'}</small>
      </h3>
      <ol aria-live="polite">
        {newest.map((e) => (
          <li key={e.seq} className={`event event-${e.type.toLowerCase()}`}>
            <code>{e.type}</code> {e.key} <small>rv {e.resourceVersion}</small>
            {e.type === 'RELIST' && <small> ({e.count} objects)</small>}
          </li>
        ))}
      </ol>
    </section>
  );
});
