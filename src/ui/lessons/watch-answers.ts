// Readers for what a watch answers when a lesson sends one: the body is the whole stream the watch
// wrote before its timeoutSeconds ended it, one JSON event per line ({"type","object"}). The
// checks of the watches lesson and the "fill in the token" step of a learner (or a test) use them.

export interface WatchEventSummary {
  type: string;
  name?: string;
  resourceVersion?: string;
  /** For ERROR events: the Status code (410 for a resourceVersion older than the history window). */
  code?: number;
}

/** Every event of a watch answer, in order; lines that are not events are skipped. */
export function watchEvents(body: string): WatchEventSummary[] {
  const events: WatchEventSummary[] = [];
  for (const line of body.split('\n')) {
    if (!line.trim()) continue;
    try {
      const ev = JSON.parse(line) as { type?: unknown; object?: { code?: number; metadata?: { name?: string; resourceVersion?: string } } };
      if (typeof ev.type !== 'string') continue;
      events.push({ type: ev.type, name: ev.object?.metadata?.name, resourceVersion: ev.object?.metadata?.resourceVersion, code: ev.type === 'ERROR' ? ev.object?.code : undefined });
    } catch {
      /* not a JSON line */
    }
  }
  return events;
}

/**
 * The value a learner copies from an earlier answer into a path ending in `param=`: a list's
 * `metadata.continue` or `metadata.resourceVersion`, or the resourceVersion of a watch's last
 * BOOKMARK. '' when the answer has none.
 */
export function tokenFromAnswer(body: string, param: 'continue' | 'resourceVersion'): string {
  try {
    // A list's; a single object's resourceVersion is not a point to resume a watch from.
    const list = JSON.parse(body) as { items?: unknown; metadata?: Record<string, unknown> };
    const value = list.metadata?.[param];
    return Array.isArray(list.items) && typeof value === 'string' ? value : '';
  } catch {
    if (param !== 'resourceVersion') return '';
    const bookmark = watchEvents(body).filter((e) => e.type === 'BOOKMARK').pop();
    return bookmark?.resourceVersion ?? '';
  }
}

/** The query parameter a request path leaves empty at its end for the learner to fill in, if any. */
export function tokenToFill(path: string): 'continue' | 'resourceVersion' | undefined {
  const m = /[?&](continue|resourceVersion)=$/.exec(path);
  return m ? (m[1] as 'continue' | 'resourceVersion') : undefined;
}
