// CronJob schedules as kube v1.23 reads them (robfig/cron v3's ParseStandard): five fields
// (minute hour day-of-month month day-of-week) with `*`, `?`, lists, ranges, steps and month/day
// names; the descriptors @yearly/@annually, @monthly, @weekly, @daily/@midnight, @hourly and
// `@every <duration>`. v1.23 has no spec.timeZone: times are the controller's, UTC here; a
// `TZ=`/`CRON_TZ=` prefix (which robfig accepts) is taken only for UTC.
// Errors are worded as robfig's, since kube puts them in the UnparseableSchedule event.

export interface Schedule {
  /** The first activation strictly after `ms` (whole seconds), or undefined if none within five years. */
  next(ms: number): number | undefined;
}

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DAYS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const MINUTE: Bounds = { min: 0, max: 59 };
const HOUR: Bounds = { min: 0, max: 23 };
const DOM: Bounds = { min: 1, max: 31 };
const MONTH: Bounds = { min: 1, max: 12, names: MONTHS };
const DOW: Bounds = { min: 0, max: 6, names: DAYS };

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** A field's allowed values, and whether it was written as `*`/`?` (robfig's star bit, which changes day matching). */
interface Field {
  values: Set<number>;
  star: boolean;
}

function parseInt10(text: string, expr: string): number {
  if (!/^-?\d+$/.test(text)) throw new Error(`failed to parse int from ${text}: strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`);
  const n = Number(text);
  if (n < 0) throw new Error(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function value(text: string, b: Bounds, expr: string): number {
  const named = b.names?.[text.toLowerCase()];
  return named ?? parseInt10(text, expr);
}

function parseField(text: string, b: Bounds): Field {
  const values = new Set<number>();
  let star = false;
  for (const expr of text.split(',')) {
    const rangeAndStep = expr.split('/');
    if (rangeAndStep.length > 2) throw new Error(`too many slashes: ${expr}`);
    const lowAndHigh = rangeAndStep[0].split('-');
    if (lowAndHigh.length > 2) throw new Error(`too many hyphens: ${expr}`);
    let start: number;
    let end: number;
    let isStar = false;
    if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
      start = b.min;
      end = b.max;
      isStar = true;
    } else {
      start = value(lowAndHigh[0], b, expr);
      end = lowAndHigh.length === 2 ? value(lowAndHigh[1], b, expr) : start;
    }
    let step = 1;
    if (rangeAndStep.length === 2) {
      step = parseInt10(rangeAndStep[1], expr);
      // "N/step" means "N-max/step".
      if (lowAndHigh.length === 1 && !isStar) end = b.max;
      if (step > 1) isStar = false;
    }
    if (start < b.min) throw new Error(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
    if (end > b.max) throw new Error(`end of range (${end}) above maximum (${b.max}): ${expr}`);
    if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
    if (step === 0) throw new Error(`step of range should be a positive number: ${expr}`);
    for (let v = start; v <= end; v += step) values.add(v);
    star ||= isStar;
  }
  return { values, star };
}

/** Go's time.ParseDuration for the units a schedule uses (h, m, s, ms). */
function parseDuration(text: string): number {
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/y;
  let total = 0;
  let at = 0;
  if (!text) throw new Error(`time: invalid duration ""`);
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) throw new Error(`time: invalid duration ${JSON.stringify(text)}`);
    total += Number(m[1]) * { h: 3_600_000, m: 60_000, s: 1000, ms: 1 }[m[2] as 'h' | 'm' | 's' | 'ms'];
    at = re.lastIndex;
  }
  return total;
}

class SpecSchedule implements Schedule {
  constructor(
    private readonly minute: Field,
    private readonly hour: Field,
    private readonly dom: Field,
    private readonly month: Field,
    private readonly dow: Field,
  ) {}

  private dayMatches(d: Date): boolean {
    const domMatch = this.dom.values.has(d.getUTCDate());
    const dowMatch = this.dow.values.has(d.getUTCDay());
    // robfig: a `*` in either day field means both must match; otherwise either may.
    if (this.dom.star || this.dow.star) return domMatch && dowMatch;
    return domMatch || dowMatch;
  }

  /** robfig's SpecSchedule.Next: move to the next matching month, then day, hour and minute, wrapping as needed. */
  next(ms: number): number | undefined {
    let t = new Date((Math.floor(ms / 1000) + 1) * 1000);
    // Standard schedules fire at second 0: round up to the next whole minute.
    if (t.getUTCSeconds() !== 0) t = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), t.getUTCHours(), t.getUTCMinutes() + 1));
    const yearLimit = t.getUTCFullYear() + 5;
    wrap: for (;;) {
      if (t.getUTCFullYear() > yearLimit) return undefined;
      while (!this.month.values.has(t.getUTCMonth() + 1)) {
        t = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 1));
        if (t.getUTCMonth() === 0) continue wrap;
      }
      while (!this.dayMatches(t)) {
        t = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate() + 1));
        if (t.getUTCDate() === 1) continue wrap;
      }
      while (!this.hour.values.has(t.getUTCHours())) {
        t = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), t.getUTCHours() + 1));
        if (t.getUTCHours() === 0) continue wrap;
      }
      while (!this.minute.values.has(t.getUTCMinutes())) {
        t = new Date(t.getTime() + 60_000);
        if (t.getUTCMinutes() === 0) continue wrap;
      }
      return t.getTime();
    }
  }
}

/** `@every d`: d after the given time (whole seconds, at least one second). */
class ConstantDelay implements Schedule {
  constructor(private readonly delayMs: number) {}
  next(ms: number): number {
    return Math.floor(ms / 1000) * 1000 + this.delayMs;
  }
}

/** cron.ParseStandard; throws with robfig's message on bad input. */
export function parseSchedule(spec: string): Schedule {
  let text = spec.trim();
  const tz = /^(?:CRON_TZ|TZ)=(\S*)\s*/.exec(text);
  if (tz) {
    if (tz[1] !== 'UTC' && tz[1] !== 'Etc/UTC') throw new Error(`provided bad location ${tz[1]}: unknown time zone ${tz[1]}`);
    text = text.slice(tz[0].length);
  }
  if (text.startsWith('@')) {
    if (text.startsWith('@every ')) {
      const d = parseDuration(text.slice('@every '.length).trim());
      const whole = Math.max(1000, d - (d % 1000));
      return new ConstantDelay(whole);
    }
    const expanded = DESCRIPTORS[text];
    if (!expanded) throw new Error(`unrecognized descriptor: ${text}`);
    text = expanded;
  }
  const fields = text.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) throw new Error(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  return new SpecSchedule(parseField(fields[0], MINUTE), parseField(fields[1], HOUR), parseField(fields[2], DOM), parseField(fields[3], MONTH), parseField(fields[4], DOW));
}

/**
 * getMostRecentScheduleTime (v1.23): the latest activation in (earliest, now], and how many were
 * missed. Like kube's, it assumes evenly spaced activations after the first two.
 */
export function mostRecentScheduleTime(schedule: Schedule, earliest: number, now: number): { time?: number; missed: number } {
  const t1 = schedule.next(earliest);
  if (t1 === undefined) throw new Error('time difference between two schedules less than 1 second');
  const t2 = schedule.next(t1);
  if (now < t1) return { missed: 0 };
  if (t2 === undefined || now < t2) return { time: t1, missed: 1 };
  const between = Math.round((t2 - t1) / 1000);
  if (between < 1) throw new Error('time difference between two schedules less than 1 second');
  const elapsed = Math.floor((now - t1) / 1000);
  const missed = Math.floor(elapsed / between) + 1;
  return { time: t1 + (missed - 1) * between * 1000, missed };
}
