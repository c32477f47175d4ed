// Event objects as kubectl describe lists them: oldest first, with the reporting component (and
// its host for a kubelet) as "From", and the age of the last occurrence ("(x3 over 10s)" when
// an event repeated).
import { formatAge } from '../../lib/age';
import type { KubeObject } from '../../lib/watch';

export interface EventRow {
  name: string;
  type: string;
  reason: string;
  message: string;
  from: string;
  count: number;
  firstTimestamp: string;
  lastTimestamp: string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function eventRows(items: readonly KubeObject[]): EventRow[] {
  return items
    .map((e) => {
      const source = (e.source ?? {}) as { component?: string; host?: string };
      const series = (e.series ?? {}) as { lastObservedTime?: string; count?: number };
      const last = str(series.lastObservedTime) || str(e.lastTimestamp) || str(e.eventTime) || str(e.metadata?.creationTimestamp);
      const first = str(e.firstTimestamp) || str(e.eventTime) || last;
      const component = str(source.component) || str(e.reportingComponent);
      return {
        name: str(e.metadata?.name),
        type: str(e.type),
        reason: str(e.reason),
        message: str(e.message),
        from: source.host ? `${component}, ${source.host}` : component,
        count: typeof e.count === 'number' ? e.count : typeof series.count === 'number' ? series.count : 1,
        firstTimestamp: first,
        lastTimestamp: last,
      };
    })
    .sort((a, b) => (a.lastTimestamp < b.lastTimestamp ? -1 : a.lastTimestamp > b.lastTimestamp ? 1 : a.name < b.name ? -1 : 1));
}

/** `5s`, or `5s (x3 over 20s)` for a repeated event, against the given time. */
export function eventAge(row: EventRow, now = Date.now()): string {
  const last = formatAge(row.lastTimestamp, now);
  if (row.count <= 1) return last;
  return `${last} (x${row.count} over ${formatAge(row.firstTimestamp, now)})`;
}
