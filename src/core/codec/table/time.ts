// Durations and timestamps the way kube-apiserver renders them in Table cells.

/**
 * Go's k8s.io/apimachinery duration.HumanDuration: about two significant units, with a
 * 2-second tolerance for clock skew (slightly negative counts as "0s").
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / 60_000);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / 3_600_000);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.trunc(hours / 24) % 365;
    const years = Math.trunc(hours / 24 / 365);
    return days === 0 ? `${years}y` : `${years}y${days}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Parses an RFC 3339 timestamp. Returns null for absent/empty values and for Go's zero time
 * (0001-01-01), which Go code treats as "unset"; NaN when the text is not a timestamp.
 */
export function parseTimestamp(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || !RFC3339.test(value)) return NaN;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return NaN;
  if (new Date(ms).getUTCFullYear() <= 1) return null;
  return ms;
}

/** translateTimestampSince: human age of a timestamp, "<unknown>" when unset or unreadable. */
export function age(timestamp: unknown, now: number): string {
  const ms = parseTimestamp(timestamp);
  if (ms === null || Number.isNaN(ms)) return '<unknown>';
  return humanDuration(now - ms);
}

/** Elapsed time between two timestamps (job durations); "" when either is unusable. */
export function between(start: unknown, end: unknown): string {
  const a = parseTimestamp(start);
  const b = parseTimestamp(end);
  if (a === null || b === null || Number.isNaN(a) || Number.isNaN(b)) return '';
  return humanDuration(b - a);
}

/**
 * The generic "Created At" cell: RFC 3339 in UTC with second precision. A missing timestamp
 * prints as Go's zero time, as the real default table convertor does.
 */
export function createdAt(timestamp: unknown): string {
  const ms = parseTimestamp(timestamp);
  if (ms === null || Number.isNaN(ms)) return '0001-01-01T00:00:00Z';
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
