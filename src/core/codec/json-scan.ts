// A JSON reader that keeps what JSON.parse throws away: the order of keys, repeated keys, and
// Go's encoding/json syntax error wording (kube-apiserver's messages embed it, e.g.
// `invalid character '}' looking for beginning of object key string`).

import { sortInPlace } from './sort-in-place';

export type JsonNode =
  | { kind: 'object'; entries: JsonEntry[] }
  | { kind: 'array'; items: JsonNode[] }
  | { kind: 'scalar'; value: string | number | boolean | null; /** Source text of a number. */ raw?: string };

export interface JsonEntry {
  key: string;
  value: JsonNode;
  /** An earlier entry of the same object had this key (Go keeps the last value). */
  duplicate: boolean;
}

export class JsonSyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
  }
}

/** Go's quoteChar: how a byte is shown inside `invalid character ...`. */
function quoteChar(s: string, i: number): string {
  const code = s.charCodeAt(i);
  if (s[i] === "'") return "'\\''";
  if (s[i] === '"') return "'\"'";
  // Go reports the first UTF-8 byte of a non-ASCII character, shown as a Latin-1 rune.
  const b = code < 0x80 ? code : new TextEncoder().encode(String.fromCodePoint(s.codePointAt(i)!))[0];
  const short: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 0x5c: '\\\\' };
  if (short[b]) return `'${short[b]}'`;
  if (b < 0x20 || b === 0x7f) return `'\\x${b.toString(16).padStart(2, '0')}'`;
  if (b >= 0x80 && b < 0xa0) return `'\\u00${b.toString(16).padStart(2, '0')}'`;
  return `'${String.fromCharCode(b)}'`;
}

const isWs = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

class Reader {
  pos = 0;
  constructor(readonly s: string) {}

  fail(context: string): never {
    if (this.pos >= this.s.length) throw new JsonSyntaxError('unexpected end of JSON input', this.pos);
    throw new JsonSyntaxError(`invalid character ${quoteChar(this.s, this.pos)} ${context}`, this.pos);
  }

  ws(): void {
    while (this.pos < this.s.length && isWs(this.s[this.pos])) this.pos++;
  }

  value(): JsonNode {
    this.ws();
    const c = this.s[this.pos];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return { kind: 'scalar', value: this.string() };
    if (c === '-' || isDigit(c)) return this.number();
    if (c === 't') return this.literal('true', true);
    if (c === 'f') return this.literal('false', false);
    if (c === 'n') return this.literal('null', null);
    return this.fail('looking for beginning of value');
  }

  private object(): JsonNode {
    this.pos++;
    const entries: JsonEntry[] = [];
    const seen = new Set<string>();
    this.ws();
    if (this.s[this.pos] === '}') {
      this.pos++;
      return { kind: 'object', entries };
    }
    for (;;) {
      this.ws();
      if (this.s[this.pos] !== '"') this.fail('looking for beginning of object key string');
      const key = this.string();
      this.ws();
      if (this.s[this.pos] !== ':') this.fail('after object key');
      this.pos++;
      const value = this.value();
      entries.push({ key, value, duplicate: seen.has(key) });
      seen.add(key);
      this.ws();
      const c = this.s[this.pos];
      if (c === ',') {
        this.pos++;
        continue;
      }
      if (c === '}') {
        this.pos++;
        return { kind: 'object', entries };
      }
      this.fail('after object key:value pair');
    }
  }

  private array(): JsonNode {
    this.pos++;
    const items: JsonNode[] = [];
    this.ws();
    if (this.s[this.pos] === ']') {
      this.pos++;
      return { kind: 'array', items };
    }
    for (;;) {
      items.push(this.value());
      this.ws();
      const c = this.s[this.pos];
      if (c === ',') {
        this.pos++;
        continue;
      }
      if (c === ']') {
        this.pos++;
        return { kind: 'array', items };
      }
      this.fail('after array element');
    }
  }

  private string(): string {
    this.pos++;
    let out = '';
    for (;;) {
      if (this.pos >= this.s.length) this.fail('');
      const c = this.s[this.pos];
      if (c === '"') {
        this.pos++;
        return out;
      }
      if (c.charCodeAt(0) < 0x20) this.fail('in string literal');
      if (c !== '\\') {
        out += c;
        this.pos++;
        continue;
      }
      this.pos++;
      const e = this.s[this.pos];
      const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
      if (e !== undefined && simple[e] !== undefined) {
        out += simple[e];
        this.pos++;
      } else if (e === 'u') {
        this.pos++;
        for (let k = 0; k < 4; k++) {
          if (!/[0-9a-fA-F]/.test(this.s[this.pos + k] ?? '')) {
            this.pos += k;
            this.fail('in \\u hexadecimal character escape');
          }
        }
        out += String.fromCharCode(parseInt(this.s.slice(this.pos, this.pos + 4), 16));
        this.pos += 4;
      } else {
        this.fail('in string escape code');
      }
    }
  }

  private number(): JsonNode {
    const start = this.pos;
    if (this.s[this.pos] === '-') {
      this.pos++;
      if (!isDigit(this.s[this.pos])) this.fail('in numeric literal');
    }
    if (this.s[this.pos] === '0') this.pos++;
    else while (isDigit(this.s[this.pos])) this.pos++;
    if (this.s[this.pos] === '.') {
      this.pos++;
      if (!isDigit(this.s[this.pos])) this.fail('after decimal point in numeric literal');
      while (isDigit(this.s[this.pos])) this.pos++;
    }
    if (this.s[this.pos] === 'e' || this.s[this.pos] === 'E') {
      this.pos++;
      if (this.s[this.pos] === '+' || this.s[this.pos] === '-') this.pos++;
      if (!isDigit(this.s[this.pos])) this.fail('in exponent of numeric literal');
      while (isDigit(this.s[this.pos])) this.pos++;
    }
    const raw = this.s.slice(start, this.pos);
    return { kind: 'scalar', value: Number(raw), raw };
  }

  private literal(word: string, value: boolean | null): JsonNode {
    for (let k = 0; k < word.length; k++) {
      if (this.s[this.pos] !== word[k]) this.fail(`in literal ${word} (expecting '${word[k]}')`);
      this.pos++;
    }
    return { kind: 'scalar', value };
  }
}

/**
 * How deep a body may nest. Go's decoder refuses more than 10000 levels (`invalid character '['
 * exceeded max depth`); our readers, patchers and field walkers recurse, and a few thousand
 * levels overflow the stack (a Service Worker's is no bigger than Node's). No real object comes
 * near either, so we refuse with Go's words from a lower depth.
 */
export const MAX_NESTING = 512;

/**
 * The offset of the bracket that opens level MAX_NESTING + 1 (outside strings), or -1. Iterative,
 * and skipped for texts too short to nest that deep, so the common body costs nothing.
 */
export function tooDeepAt(text: string): number {
  if (text.length <= MAX_NESTING) return -1;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > MAX_NESTING) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return -1;
}

/** Go's error for a body that nests too deep, or undefined. */
export function nestingError(text: string): JsonSyntaxError | undefined {
  const at = tooDeepAt(text);
  return at < 0 ? undefined : new JsonSyntaxError(`invalid character '${text[at]}' exceeded max depth`, at);
}

/** Parse JSON text into an ordered node tree. Throws JsonSyntaxError with Go's message. */
export function scanJson(text: string): JsonNode {
  const deep = nestingError(text);
  if (deep) throw deep;
  const r = new Reader(text);
  const node = r.value();
  r.ws();
  if (r.pos < text.length) r.fail('after top-level value');
  return node;
}

/** The plain value, with Go's last-one-wins for repeated keys. */
export function nodeToValue(node: JsonNode): unknown {
  switch (node.kind) {
    case 'scalar':
      return node.value;
    case 'array':
      return node.items.map(nodeToValue);
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const e of node.entries) {
        // defineProperty keeps `__proto__` an ordinary key.
        Object.defineProperty(o, e.key, { value: nodeToValue(e.value), enumerable: true, writable: true, configurable: true });
      }
      return o;
    }
  }
}

/** A node tree for an already-parsed value (keys in the given order, no duplicates). */
export function valueToNode(value: unknown, sortKeys = false): JsonNode {
  if (Array.isArray(value)) return { kind: 'array', items: value.map((v) => valueToNode(v, sortKeys)) };
  if (value !== null && typeof value === 'object') {
    let keys = Object.keys(value);
    if (sortKeys) keys = sortInPlace(keys, compareUtf8);
    return { kind: 'object', entries: keys.map((k) => ({ key: k, value: valueToNode((value as Record<string, unknown>)[k], sortKeys), duplicate: false })) };
  }
  return { kind: 'scalar', value: value as string | number | boolean | null };
}

/**
 * Go sorts map keys by bytes; for UTF-16 strings code-point order gives the same result. Compared
 * code unit by code unit without copying (this runs for every map key of every decoded body):
 * UTF-16 order is code-point order except between a surrogate (part of a character above U+FFFF)
 * and U+E000–U+FFFF, where the code points are compared instead. Only the sign is meaningful.
 */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (isSurrogate(x) || isSurrogate(y)) return a.codePointAt(i)! - b.codePointAt(i)!;
    return x - y;
  }
  return a.length - b.length;
}

function isSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdfff;
}
