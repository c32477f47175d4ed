// JSON value helpers shared by the field-management modules: type tests, deep equality, the
// total ordering structured-merge-diff uses to sort set items and keys, and Go's JSON string
// encoding (fieldsV1 keys are written by Go, which escapes <, > and & inside strings).

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonMap = { [key: string]: JsonValue };

export function isMap(v: unknown): v is JsonMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Structural equality of two JSON values; object key order does not matter. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ak = Object.keys(a);
  if (ak.length !== Object.keys(b).length) return false;
  for (const k of ak) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!deepEqual((a as JsonMap)[k], (b as JsonMap)[k])) return false;
  }
  return true;
}

// Type ranks of the Go ordering: floats and ints compare numerically with each other and sort
// before strings, then booleans, lists, maps and null.
function rank(v: unknown): number {
  if (typeof v === 'number') return Number.isInteger(v) ? 1 : 0;
  if (typeof v === 'string') return 2;
  if (typeof v === 'boolean') return 3;
  if (Array.isArray(v)) return 4;
  if (isMap(v)) return 5;
  return 6;
}

function cmp<T>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The total ordering of values used by structured-merge-diff (value.Compare). */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra <= 1 && rb <= 1) return cmp(a as number, b as number);
  if (ra !== rb) return ra - rb < 0 ? -1 : 1;
  switch (ra) {
    case 2:
      return cmp(a as string, b as string);
    case 3:
      return cmp(a ? 1 : 0, b ? 1 : 0);
    case 4: {
      const la = a as unknown[];
      const lb = b as unknown[];
      for (let i = 0; i < la.length && i < lb.length; i++) {
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
      return cmp(la.length, lb.length);
    }
    case 5: {
      // Maps compare by their sorted key/value pairs.
      const ka = Object.keys(a as JsonMap).sort();
      const kb = Object.keys(b as JsonMap).sort();
      for (let i = 0; i < ka.length && i < kb.length; i++) {
        const c = cmp(ka[i]!, kb[i]!) || compareValues((a as JsonMap)[ka[i]!], (b as JsonMap)[kb[i]!]);
        if (c !== 0) return c;
      }
      return cmp(ka.length, kb.length);
    }
    default:
      return 0;
  }
}

/** JSON text as Go's encoding/json writes it (HTML-safe escapes, map keys sorted). */
export function goJson(v: unknown): string {
  if (typeof v === 'string') return PLAIN.test(v) ? `"${v}"` : escapeHtml(JSON.stringify(v));
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (isMap(v)) {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${goJson(k)}:${goJson(v[k])}`).join(',')}}`;
  }
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  const text = JSON.stringify(v ?? null);
  return typeof v === 'string' ? escapeHtml(text) : text;
}

// Strings that JSON writes verbatim between quotes (the common case for names and keys).
const PLAIN = /^[^"\\<>&\u0000-\u001f\u2028\u2029\u007f-\uffff]*$/;

function escapeHtml(s: string): string {
  return s.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Go's %v/%q rendering of a value inside a printed path (`[name="x"]`, `[port=80]`). */
export function valueToString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueToString).join(',')}]`;
  const m = v as JsonMap;
  return `{${Object.keys(m).map((k) => `${k}=${valueToString(m[k])}`).join(',')}}`;
}
