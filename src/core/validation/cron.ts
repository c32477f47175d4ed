// Cron schedule checks with the messages of robfig/cron v3's ParseStandard, which v1.23 CronJob
// validation reports verbatim (`spec.schedule: Invalid value: "x": <parser error>`).

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DOW: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const FIELDS: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: DOW },
];
const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

class CronError extends Error {}

/** strconv.Atoi as Go reports it. */
function atoi(s: string): number {
  if (!/^[+-]?[0-9]+$/.test(s)) throw new CronError(`failed to parse int from ${s}: strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  const n = Number(s);
  if (n < 0) throw new CronError(`negative number (${n}) not allowed: ${s}`);
  return n;
}

function intOrName(s: string, names?: Record<string, number>): number {
  const byName = names?.[s.toLowerCase()];
  return byName !== undefined ? byName : atoi(s);
}

function checkRange(expr: string, b: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowHigh = rangeAndStep[0].split('-');
  let start: number;
  let end: number;
  if (lowHigh[0] === '*' || lowHigh[0] === '?') {
    start = b.min;
    end = b.max;
  } else {
    start = intOrName(lowHigh[0], b.names);
    if (lowHigh.length === 1) end = start;
    else if (lowHigh.length === 2) end = intOrName(lowHigh[1], b.names);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = atoi(rangeAndStep[1]);
    if (lowHigh.length === 1) end = b.max;
  } else if (rangeAndStep.length > 2) throw new CronError(`too many slashes: ${expr}`);
  if (start < b.min) throw new CronError(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new CronError(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
}

const GO_DURATION = /^([0-9]*(\.[0-9]*)?(ns|us|µs|ms|s|m|h))+$/;

/** Returns the parser's error message, or undefined when the schedule is valid. */
export function cronScheduleError(spec: string): string | undefined {
  try {
    let s = spec;
    if (s.length === 0) throw new CronError('empty spec string');
    const tz = /^(CRON_TZ|TZ)=(\S*)\s*/.exec(s);
    if (tz) s = s.slice(tz[0].length);
    if (s.startsWith('@')) {
      if (DESCRIPTORS.has(s)) return undefined;
      if (s.startsWith('@every ')) {
        const d = s.slice('@every '.length);
        if (!GO_DURATION.test(d) || d === '0' || !/[0-9]/.test(d)) throw new CronError(`failed to parse duration ${s}: time: invalid duration ${JSON.stringify(d)}`);
        return undefined;
      }
      throw new CronError(`unrecognized descriptor: ${s}`);
    }
    const fields = s.split(/\s+/).filter(Boolean);
    if (fields.length !== 5) throw new CronError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
    fields.forEach((f, i) => {
      for (const part of f.split(',')) checkRange(part, FIELDS[i]);
    });
    return undefined;
  } catch (e) {
    if (e instanceof CronError) return e.message;
    throw e;
  }
}
