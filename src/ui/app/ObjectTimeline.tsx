// The ownership timeline of one object: every revision the browser host recorded (beyond the
// API's watch window), who wrote it, which fields changed value and which changed owner, with a
// scrubber that shows the object and its ownership overlay as they were at that revision.
import { useQuery } from '@tanstack/react-query';
import { memo, useMemo, useState } from 'react';
import { ownershipView } from '../lib/ownership';
import { queryKeys } from '../lib/query-keys';
import { describeTimeline, type RecordedRevision, type TimelineEntry } from '../lib/timeline';
import { OwnershipGutter } from './OwnershipGutter';

interface Props {
  /** The host's admin prefix (`<base>__playground/`). */
  adminBase: string;
  uid: string;
  /** The live object's resourceVersion: a new one reads the timeline again. */
  resourceVersion: string;
  apiVersion: string;
  kind: string;
}

export function ObjectTimeline({ adminBase, uid, resourceVersion, apiVersion, kind }: Props) {
  const history = useQuery({
    queryKey: queryKeys.timeline(adminBase, uid, resourceVersion),
    queryFn: async (): Promise<RecordedRevision[]> => {
      const res = await fetch(`${adminBase}timeline?uid=${encodeURIComponent(uid)}`, { headers: { Accept: 'application/json' } });
      if (!res.ok) throw new Error(res.status === 404 ? 'This host records no history (the timeline is kept by the browser host).' : `timeline: ${res.status}`);
      const { revisions } = (await res.json()) as { revisions: Array<{ rev: number; type: 'put' | 'delete'; text: string }> };
      // Stored text carries no apiVersion/kind: put them back for the overlay.
      return revisions.map((r) => ({ rev: r.rev, type: r.type, object: { apiVersion, kind, ...(JSON.parse(r.text) as Record<string, unknown>) } }));
    },
  });
  const revisions = history.data ?? [];
  const entries = useMemo(() => describeTimeline(revisions), [revisions]);
  const [picked, setPicked] = useState<number>();
  const index = picked === undefined || picked >= revisions.length ? revisions.length - 1 : picked;
  const shown = revisions[index];
  const view = useMemo(() => (shown && shown.type === 'put' ? ownershipView(shown.object) : undefined), [shown]);
  if (history.error) return <p role="status">{(history.error as Error).message}</p>;
  if (!history.data) return <p aria-busy="true">Reading the history…</p>;
  if (!revisions.length) return <p role="status">No revisions recorded for this object yet.</p>;
  const entry = entries[index]!;
  return (
    <section className="timeline" aria-label="Ownership timeline">
      <label className="scrubber">
        Revision {index + 1} of {revisions.length} (resourceVersion {shown!.rev})
        <input type="range" min={1} max={revisions.length} value={index + 1} onChange={(e) => setPicked(Number(e.target.value) - 1)} aria-label="Revision" />
      </label>
      <ol className="timeline-list" aria-label="Revisions">
        {entries.map((e, i) => (
          <TimelineRow key={e.rev} entry={e} index={i} current={i === index} onPick={setPicked} />
        ))}
      </ol>
      <h3>
        As it was at rv {shown!.rev} ({entry.type})
      </h3>
      {view ? <OwnershipGutter view={view} /> : <p>The object was deleted at this revision.</p>}
    </section>
  );
}

/** One revision's row; memoised so scrubbing re-renders only the two rows whose "current" changes. */
const TimelineRow = memo(function TimelineRow({ entry: e, index, current, onPick }: { entry: TimelineEntry; index: number; current: boolean; onPick(i: number): void }) {
  return (
    <li className={current ? 'current' : undefined} data-testid="timeline-entry">
      <button type="button" onClick={() => onPick(index)} aria-current={current ? 'true' : undefined}>
        <span className="rev">rv {e.rev}</span> <span className={`kind-${e.type}`}>{e.type}</span> <strong data-testid="writers">{e.writers.join(', ') || 'no ownership change'}</strong>
      </button>
      {e.changedValues.length > 0 && (
        <div className="changed" data-testid="changed-values">
          values: {e.changedValues.slice(0, 6).map((p) => <code key={p}>{p} </code>)}
          {e.changedValues.length > 6 && `+${e.changedValues.length - 6} more`}
        </div>
      )}
      {e.ownerChanges.length > 0 && (
        <div className="changed" data-testid="owner-changes">
          owners:{' '}
          {e.ownerChanges.slice(0, 6).map((c, i) => (
            <span key={c.path}>
              {/* Separators between changes only: "a +alice; b +bob", no dangling semicolon. */}
              {i > 0 && '; '}
              <code>{c.path}</code> {[c.gained.length > 0 && `+${c.gained.join(',')}`, c.lost.length > 0 && `−${c.lost.join(',')}`].filter(Boolean).join(' ')}
            </span>
          ))}
          {e.ownerChanges.length > 6 && ' '}
          {e.ownerChanges.length > 6 && `+${e.ownerChanges.length - 6} more`}
        </div>
      )}
      {e.managersGone.length > 0 && (
        <div className="gone" data-testid="managers-gone">
          {e.managersGone.join(', ')} no longer own{e.managersGone.length === 1 ? 's' : ''} any field
        </div>
      )}
    </li>
  );
});
