// The JSONPath subset CRD additionalPrinterColumns use: `.a.b`, `['a']`, `[0]`, `[-1]`, `[*]`, `.*`,
// `..name`, `[1:3]` and filters like `[?(@.type=="Ready")]` (==, !=, <, <=, >, >=, or bare existence).
// Missing keys yield no result instead of an error, as the CRD table convertor allows them.

type Segment =
  | { op: 'field'; name: string }
  | { op: 'wildcard' }
  | { op: 'index'; index: number }
  | { op: 'slice'; start?: number; end?: number }
  | { op: 'filter'; left: Segment[]; cmp?: string; right?: Operand }
  | { op: 'recursive' };

type Operand = { path: Segment[] } | { literal: unknown };

export class JsonPathError extends Error {}

const COMPARATORS = ['==', '!=', '<=', '>=', '<', '>'];

/** Index of the `]` closing the bracket opened at `open`, skipping quoted text and parentheses. */
function closingBracket(text: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let i = open + 1; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ']' && depth === 0) return i;
  }
  throw new JsonPathError(`unclosed [ in ${text}`);
}

function unquote(text: string): string | undefined {
  const t = text.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t[t.length - 1] === t[0]) {
    return t.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return undefined;
}

function parseOperand(text: string): Operand {
  const t = text.trim();
  if (t.startsWith('@')) return { path: parsePath(t.slice(1)) };
  const quoted = unquote(t);
  if (quoted !== undefined) return { literal: quoted };
  if (t === 'true' || t === 'false') return { literal: t === 'true' };
  if (t !== '' && !Number.isNaN(Number(t))) return { literal: Number(t) };
  throw new JsonPathError(`unrecognized operand ${t}`);
}

/** Finds the first comparator outside quotes. */
function findComparator(expr: string): [number, string] | undefined {
  let quote = '';
  for (let i = 0; i < expr.length; i++) {
    const ch = expr[i];
    if (quote) {
      if (ch === quote) quote = '';
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      continue;
    }
    const cmp = COMPARATORS.find((c) => expr.startsWith(c, i));
    if (cmp) return [i, cmp];
  }
  return undefined;
}

function parseBracket(inner: string): Segment {
  const t = inner.trim();
  if (t === '*') return { op: 'wildcard' };
  if (t.startsWith('?(') && t.endsWith(')')) {
    const expr = t.slice(2, -1);
    const found = findComparator(expr);
    if (!found) {
      const left = parseOperand(expr);
      if (!('path' in left)) throw new JsonPathError(`filter needs @: ${expr}`);
      return { op: 'filter', left: left.path };
    }
    const [at, cmp] = found;
    const left = parseOperand(expr.slice(0, at));
    if (!('path' in left)) throw new JsonPathError(`filter needs @ on the left: ${expr}`);
    return { op: 'filter', left: left.path, cmp, right: parseOperand(expr.slice(at + cmp.length)) };
  }
  const quoted = unquote(t);
  if (quoted !== undefined) return { op: 'field', name: quoted };
  if (/^-?\d+$/.test(t)) return { op: 'index', index: Number(t) };
  const slice = /^(-?\d*):(-?\d*)$/.exec(t);
  if (slice) {
    return { op: 'slice', start: slice[1] === '' ? undefined : Number(slice[1]), end: slice[2] === '' ? undefined : Number(slice[2]) };
  }
  throw new JsonPathError(`unsupported bracket expression [${inner}]`);
}

/** Parses a field name after a dot; `\.` escapes a dot inside the name (label keys). */
function readName(text: string, from: number): [string, number] {
  let name = '';
  let i = from;
  for (; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\' && i + 1 < text.length) {
      name += text[++i];
      continue;
    }
    if (ch === '.' || ch === '[') break;
    name += ch;
  }
  return [name, i];
}

/** Parses a path such as `.status.conditions[?(@.type=="Ready")].status` (braces and `$` optional). */
export function parsePath(path: string): Segment[] {
  let text = path.trim();
  if (text.startsWith('{') && text.endsWith('}')) text = text.slice(1, -1).trim();
  if (text.startsWith('$')) text = text.slice(1);
  const segments: Segment[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '.') {
      if (text[i + 1] === '.') {
        segments.push({ op: 'recursive' });
        i += 2;
        if (text[i] === '[') continue;
      } else i++;
      if (text[i] === '*') {
        segments.push({ op: 'wildcard' });
        i++;
        continue;
      }
      const [name, next] = readName(text, i);
      if (name !== '') segments.push({ op: 'field', name });
      i = next;
    } else if (ch === '[') {
      const close = closingBracket(text, i);
      segments.push(parseBracket(text.slice(i + 1, close)));
      i = close + 1;
    } else if (/\s/.test(ch)) {
      i++;
    } else {
      const [name, next] = readName(text, i);
      segments.push({ op: 'field', name });
      i = next;
    }
  }
  return segments;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function descendants(value: unknown, out: unknown[]): void {
  out.push(value);
  if (Array.isArray(value)) for (const v of value) descendants(v, out);
  else if (isObject(value)) for (const key of Object.keys(value).sort()) descendants(value[key], out);
}

function compare(a: unknown, b: unknown, cmp: string): boolean {
  const comparable = (typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string');
  switch (cmp) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return comparable && (a as number) < (b as number);
    case '<=':
      return comparable && (a as number) <= (b as number);
    case '>':
      return comparable && (a as number) > (b as number);
    case '>=':
      return comparable && (a as number) >= (b as number);
    default:
      return false;
  }
}

function operandValue(operand: Operand, element: unknown): unknown[] {
  return 'path' in operand ? evaluate(operand.path, element) : [operand.literal];
}

function step(segment: Segment, value: unknown): unknown[] {
  switch (segment.op) {
    case 'field':
      return isObject(value) && Object.prototype.hasOwnProperty.call(value, segment.name) ? [value[segment.name]] : [];
    case 'wildcard':
      if (Array.isArray(value)) return value;
      return isObject(value) ? Object.keys(value).sort().map((k) => value[k]) : [];
    case 'index': {
      if (!Array.isArray(value)) return [];
      const idx = segment.index < 0 ? value.length + segment.index : segment.index;
      return idx >= 0 && idx < value.length ? [value[idx]] : [];
    }
    case 'slice':
      return Array.isArray(value) ? value.slice(segment.start, segment.end) : [];
    case 'filter': {
      if (!Array.isArray(value)) return [];
      return value.filter((element) => {
        const lefts = evaluate(segment.left, element);
        if (!segment.cmp || !segment.right) return lefts.length > 0;
        const rights = operandValue(segment.right, element);
        return lefts.length > 0 && rights.length > 0 && compare(lefts[0], rights[0], segment.cmp);
      });
    }
    case 'recursive': {
      const out: unknown[] = [];
      descendants(value, out);
      return out;
    }
  }
}

/** Evaluates parsed segments against a value; returns every match in document order. */
export function evaluate(segments: Segment[], root: unknown): unknown[] {
  let current: unknown[] = [root];
  for (const segment of segments) current = current.flatMap((v) => step(segment, v));
  return current;
}

/** Parses and evaluates in one go. Throws JsonPathError for syntax it does not support. */
export function findResults(path: string, root: unknown): unknown[] {
  return evaluate(parsePath(path), root);
}
