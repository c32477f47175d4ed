// JSON forms of meta.v1.Time, MicroTime and Duration, as Go's encoding/json writes them.
import { ProtobufError } from './wire';
import { parseGoTime, RFC3339 } from '../go-time';

// Objects repeat the same few timestamps (creation, managedFields, conditions): memoize both
// directions in small maps, cleared when they grow, instead of going through Date every time.
const MEMO_LIMIT = 1024;
const formatted = new Map<number, string>();
const parsed = new Map<string, { seconds: number; nanos: number }>();

/** "2006-01-02T15:04:05Z" (Time marshals to whole seconds in UTC). */
export function formatTime(seconds: number): string {
  let text = formatted.get(seconds);
  if (text === undefined) {
    if (formatted.size >= MEMO_LIMIT) formatted.clear();
    text = new Date(seconds * 1000).toISOString().slice(0, 19) + 'Z';
    formatted.set(seconds, text);
  }
  return text;
}

/** "2006-01-02T15:04:05.000000Z" (MicroTime keeps microseconds). */
export function formatMicroTime(seconds: number, nanos: number): string {
  const micros = Math.floor(nanos / 1000);
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}.${String(micros).padStart(6, '0')}Z`;
}

/** RFC 3339 text → {seconds, nanos}; throws ProtobufError for text Go's time parser rejects. */
export function parseTime(text: string): { seconds: number; nanos: number } {
  let result = parsed.get(text);
  if (result === undefined) {
    if (parsed.size >= MEMO_LIMIT) parsed.clear();
    result = parseTimeUncached(text);
    parsed.set(text, result);
  }
  return result;
}

function parseTimeUncached(text: string): { seconds: number; nanos: number } {
  // Stored times were decoded from JSON already (MicroTime's six digits included), so RFC3339's
  // any-length fraction reads both kinds.
  const parsed = parseGoTime(RFC3339, text);
  if ('error' in parsed) throw new ProtobufError(parsed.error);
  return Object.freeze({ seconds: Math.floor(parsed.time.ms / 1000), nanos: parsed.time.nanos });
}

const UNITS: [string, number][] = [
  ['h', 3600e9],
  ['m', 60e9],
  ['s', 1e9],
];

/** Go's time.Duration.String(): "1h2m3.5s", "150ms", "0s". */
export function formatDuration(ns: number): string {
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  let rest = Math.abs(ns);
  if (rest < 1e9) {
    if (rest < 1e3) return `${sign}${rest}ns`;
    if (rest < 1e6) return `${sign}${trimFraction(rest, 1e3)}µs`;
    return `${sign}${trimFraction(rest, 1e6)}ms`;
  }
  let out = sign;
  const hours = Math.floor(rest / UNITS[0][1]);
  rest -= hours * UNITS[0][1];
  const minutes = Math.floor(rest / UNITS[1][1]);
  rest -= minutes * UNITS[1][1];
  if (hours > 0) out += `${hours}h`;
  if (hours > 0 || minutes > 0) out += `${minutes}m`;
  return `${out}${trimFraction(rest, 1e9)}s`;
}

function trimFraction(value: number, unit: number): string {
  const whole = Math.floor(value / unit);
  const frac = value - whole * unit;
  if (frac === 0) return String(whole);
  const digits = String(unit).length - 1;
  return `${whole}.${String(frac).padStart(digits, '0').replace(/0+$/, '')}`;
}

const DURATION_UNITS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
const DURATION_PART = /(\d*\.?\d*)(ns|us|µs|μs|ms|s|m|h)/y;

/** Go's time.ParseDuration; throws ProtobufError for invalid text. */
export function parseDuration(text: string): number {
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    sign = s[0] === '-' ? -1 : 1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw new ProtobufError(`time: invalid duration ${JSON.stringify(text)}`);
  let total = 0;
  DURATION_PART.lastIndex = 0;
  while (DURATION_PART.lastIndex < s.length) {
    const m = DURATION_PART.exec(s);
    if (!m || m[1] === '' || m[1] === '.') throw new ProtobufError(`time: invalid duration ${JSON.stringify(text)}`);
    total += Number(m[1]) * DURATION_UNITS[m[2]];
  }
  return sign * Math.round(total);
}
