// `Warning` response headers (RFC 7234 warn-value lists, as kube-apiserver sends them:
// `299 - "batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob"`)
// turned into the texts a person reads, and a small log of recent ones for the page.

/**
 * A header value as fetch hands it over (one char per byte) read as the UTF-8 the server wrote:
 * kube-apiserver sends a warning's non-ASCII text as raw UTF-8 bytes. A value that is not such a
 * byte string, or not valid UTF-8, is kept as it is.
 */
export function decodeHeaderBytes(value: string): string {
  let ascii = true;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c > 0xff) return value;
    if (c > 0x7f) ascii = false;
  }
  if (ascii) return value;
  const bytes = new Uint8Array(value.length);
  for (let i = 0; i < value.length; i++) bytes[i] = value.charCodeAt(i);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return value;
  }
}

/**
 * The warning texts of a header value. Several warnings arrive joined by ", "; texts are quoted
 * with `\"` and `\\` escapes. A value that is not in that form is kept whole rather than dropped.
 */
export function parseWarningHeader(header: string | null | undefined): string[] {
  if (!header) return [];
  const value = decodeHeaderBytes(header);
  const out: string[] = [];
  let i = 0;
  const skipSpace = () => {
    while (value[i] === ' ' || value[i] === '\t') i++;
  };
  const quoted = (): string | undefined => {
    if (value[i] !== '"') return undefined;
    let text = '';
    for (i++; i < value.length; i++) {
      const c = value[i];
      if (c === '\\' && i + 1 < value.length) text += value[++i];
      else if (c === '"') {
        i++;
        return text;
      } else text += c;
    }
    return undefined;
  };
  while (i < value.length) {
    skipSpace();
    const code = /^\d{3} /.exec(value.slice(i));
    if (!code) return [value.trim()];
    i += 4;
    const agentEnd = value.indexOf(' ', i);
    if (agentEnd === -1) return [value.trim()];
    i = agentEnd + 1;
    const text = quoted();
    if (text === undefined) return [value.trim()];
    out.push(text);
    skipSpace();
    // An optional warn-date, also quoted.
    if (value[i] === '"' && quoted() === undefined) return [value.trim()];
    skipSpace();
    if (i < value.length && value[i] !== ',') return [value.trim()];
    i++;
  }
  return out;
}

export interface WarningEntry {
  /** What was asked: `GET /apis/batch/v1beta1/...`. */
  request: string;
  text: string;
  /** How many times in a row this request got this warning (lists refresh and watches reconnect). */
  count: number;
  at: Date;
}

/** The most recent warnings the page received, newest first; repeats fold into a count. */
export class WarningLog {
  private entries: WarningEntry[] = [];
  private listeners = new Set<() => void>();

  constructor(readonly capacity = 50) {}

  add(request: string, texts: readonly string[], at = new Date()): void {
    if (!texts.length) return;
    // A new array each time: React reads the list as an external-store snapshot.
    const next = [...this.entries];
    for (const text of texts) {
      const same = next.findIndex((e) => e.request === request && e.text === text);
      const previous = same === -1 ? undefined : next.splice(same, 1)[0];
      next.unshift({ request, text, count: (previous?.count ?? 0) + 1, at });
    }
    this.entries = next.slice(0, this.capacity);
    for (const l of this.listeners) l();
  }

  list(): readonly WarningEntry[] {
    return this.entries;
  }

  clear(): void {
    this.entries = [];
    for (const l of this.listeners) l();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
