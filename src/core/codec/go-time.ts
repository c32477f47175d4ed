// Go's time.Parse for the two layouts Kubernetes times use, with Go's error texts: metav1.Time
// decodes with time.RFC3339 and metav1.MicroTime with RFC3339Micro (exactly six fractional
// digits), and a body whose time does not parse is refused with the parser's own words:
//   parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"
//   parsing time "2021-13-01T00:00:00Z": month out of range
// Only what these two layouts reach of Go's parser is here (go1.17, which built v1.23).

export const RFC3339 = '2006-01-02T15:04:05Z07:00';
export const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

/** One element of a layout: a literal to skip, or a value to read. */
type Chunk = { literal: string } | { std: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'frac6' | 'tz'; text: string };

const CHUNKS: Record<string, Chunk[]> = {
  [RFC3339]: layoutChunks(false),
  [RFC3339_MICRO]: layoutChunks(true),
};

function layoutChunks(micro: boolean): Chunk[] {
  return [
    { std: 'year', text: '2006' },
    { literal: '-' },
    { std: 'month', text: '01' },
    { literal: '-' },
    { std: 'day', text: '02' },
    { literal: 'T' },
    { std: 'hour', text: '15' },
    { literal: ':' },
    { std: 'minute', text: '04' },
    { literal: ':' },
    { std: 'second', text: '05' },
    ...(micro ? [{ std: 'frac6', text: '.000000' } as Chunk] : []),
    { std: 'tz', text: 'Z07:00' },
  ];
}

/** Go's time.quote: double quotes, `"` and `\` escaped, bytes of non-ASCII and control characters as \xNN. */
function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0x80 || c < 0x20) {
      // A lone surrogate cannot come from UTF-8 text; Go would see U+FFFD's three bytes.
      const bytes = new TextEncoder().encode(ch);
      for (const b of bytes) out += `\\x${b.toString(16).padStart(2, '0')}`;
    } else {
      out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
    }
  }
  return `${out}"`;
}

/** Go 1.17 reads a comma as well as a period before fractional seconds. */
const isCommaOrPeriod = (c: string | undefined) => c === '.' || c === ',';
const isDigit = (s: string, i: number) => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** Go's time.atoi: an optional sign, then digits only; undefined for anything else. */
function atoi(s: string): number | undefined {
  let i = 0;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    i = 1;
  }
  if (i === s.length) return undefined;
  let x = 0;
  for (; i < s.length; i++) {
    if (!isDigit(s, i)) return undefined;
    x = x * 10 + (s.charCodeAt(i) - 48);
    if (x > 2 ** 63) return undefined;
  }
  return neg ? -x : x;
}

/** Go's getnum: one or two digits (two when fixed). */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : [s.charCodeAt(0) - 48, s.slice(1)];
  return [(s.charCodeAt(0) - 48) * 10 + (s.charCodeAt(1) - 48), s.slice(2)];
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export interface GoTime {
  /** Milliseconds since the epoch (UTC). */
  ms: number;
  nanos: number;
}

/** Parses `value` with one of the two layouts; the result, or Go's error text. */
export function parseGoTime(layout: typeof RFC3339 | typeof RFC3339_MICRO, value: string): { time: GoTime } | { error: string } {
  const chunks = CHUNKS[layout]!;
  const whole = value;
  const fail = (elem: string, rest: string) => ({ error: `parsing time ${quote(whole)} as ${quote(layout)}: cannot parse ${quote(rest)} as ${quote(elem)}` });
  const outOfRange = (what: string) => ({ error: `parsing time ${quote(whole)}: ${what} out of range` });
  let [year, month, day, hour, min, sec, nanos, offset] = [0, -1, -1, 0, 0, 0, 0, 0];
  let rest = value;
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i]!;
    if ('literal' in chunk) {
      // Go's skip: the literal must match byte for byte; it reports where the match failed.
      for (const c of chunk.literal) {
        if (rest[0] !== c) return fail(chunk.literal, rest);
        rest = rest.slice(1);
      }
      continue;
    }
    switch (chunk.std) {
      case 'year': {
        if (rest.length < 4 || !isDigit(rest, 0)) return fail(chunk.text, rest);
        const p = rest.slice(0, 4);
        rest = rest.slice(4);
        const y = atoi(p);
        if (y === undefined) return fail(chunk.text, rest);
        year = y;
        break;
      }
      case 'month':
      case 'day':
      case 'minute':
      case 'second':
      case 'hour': {
        const got = getnum(rest, chunk.std !== 'hour');
        if (!got) return fail(chunk.text, rest);
        const [n, after] = got;
        rest = after;
        if (chunk.std === 'month') {
          month = n;
          if (n <= 0 || n > 12) return outOfRange('month');
        } else if (chunk.std === 'day') day = n;
        else if (chunk.std === 'hour') {
          hour = n;
          if (n >= 24) return outOfRange('hour');
        } else if (chunk.std === 'minute') {
          min = n;
          if (n >= 60) return outOfRange('minute');
        } else {
          sec = n;
          if (n >= 60) return outOfRange('second');
          // A fraction the layout does not declare is read here (RFC3339), any number of digits.
          const next = chunks[i + 1];
          if (rest.length >= 2 && isCommaOrPeriod(rest[0]) && isDigit(rest, 1) && !(next && 'std' in next && next.std === 'frac6')) {
            let n2 = 2;
            while (n2 < rest.length && isDigit(rest, n2)) n2++;
            const frac = parseNanoseconds(rest, n2);
            if ('range' in frac) return outOfRange('fractional second');
            if ('bad' in frac) return fail(chunk.text, rest.slice(n2));
            nanos = frac.ns;
            rest = rest.slice(n2);
          }
        }
        break;
      }
      case 'frac6': {
        if (rest.length < 7) return fail(chunk.text, rest);
        const frac = parseNanoseconds(rest, 7);
        const after = rest.slice(7);
        if ('range' in frac) return outOfRange('fractional second');
        if ('bad' in frac) return fail(chunk.text, after);
        nanos = frac.ns;
        rest = after;
        break;
      }
      case 'tz': {
        if (rest[0] === 'Z') {
          rest = rest.slice(1);
          offset = 0;
          break;
        }
        if (rest.length < 6 || rest[3] !== ':') return fail(chunk.text, rest);
        const [sign, hh, mm] = [rest[0], rest.slice(1, 3), rest.slice(4, 6)];
        rest = rest.slice(6);
        const [h, m] = [atoi(hh), atoi(mm)];
        if (h === undefined || m === undefined || (sign !== '+' && sign !== '-')) return fail(chunk.text, rest);
        offset = (h * 60 + m) * 60 * (sign === '-' ? -1 : 1);
        break;
      }
    }
  }
  if (rest.length) return { error: `parsing time ${quote(whole)}: extra text: ${quote(rest)}` };
  if (day < 1 || day > daysIn(month, year)) return outOfRange('day');
  // Date.UTC would read years 0-99 as 1900-1999; setUTCFullYear takes them as they are.
  const date = new Date(Date.UTC(2000, 0, 1, hour, min, sec));
  date.setUTCFullYear(year, month - 1, day);
  return { time: { ms: date.getTime() - offset * 1000, nanos } };
}

/** Go's parseNanoseconds: `.digits` of `n` bytes (dot included) → nanoseconds. */
function parseNanoseconds(value: string, n: number): { ns: number } | { range: true } | { bad: true } {
  if (!isCommaOrPeriod(value[0])) return { bad: true };
  const ns = atoi(value.slice(1, n));
  if (ns === undefined) return { bad: true };
  if (ns < 0 || ns >= 1e9) return { range: true };
  let scaled = ns;
  for (let i = 0; i < 10 - n; i++) scaled *= 10;
  return { ns: scaled };
}

/**
 * time.Time's String() for a UTC time (`2006-01-02 15:04:05.999999999 -0700 MST`): how
 * field.Error prints a metav1.Time or MicroTime value (both are Stringers through the embedded
 * time.Time; the apiserver decodes times into its local zone, UTC in a cluster).
 */
export function goTimeString(t: GoTime): string {
  const d = new Date(t.ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const frac = t.nanos ? '.' + pad(t.nanos, 9).replace(/0+$/, '') : '';
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac} +0000 UTC`;
}
