// A YAML writer for JSON values that knows which lines each field takes. The ownership view needs
// "which lines does this field span" for every field of an object; writing the YAML ourselves
// records that as we go, where stringifying with a library and parsing the text back to find the
// lines cost ~10× more (a 2,000-line object took hundreds of milliseconds). Layout as kubectl
// prints: keys in the given order (callers sort them), lists not indented under their key, plain
// scalars where YAML reads them back as the same string, double quotes (JSON escapes) otherwise,
// literal blocks for multi-line strings.

type Json = unknown;

export type PathKey = string;
/** The key of a JS path (`['spec', 'containers', 0]`) in the spans map. */
export const pathKey = (path: ReadonlyArray<string | number>): PathKey => JSON.stringify(path);
/** The key of a child path from its parent's key: `pathKey([...path, step])` without rebuilding the whole array's JSON (a 2,000-field object asks for thousands). */
export const childKey = (parent: PathKey, step: string | number): PathKey => (parent === '[]' ? `[${JSON.stringify(step)}]` : `${parent.slice(0, -1)},${JSON.stringify(step)}]`);

export interface YamlWithLines {
  text: string;
  /** Path key → [first line, last line] (1-based) of the field or list item. */
  spans: Map<PathKey, [number, number]>;
}

const RESERVED = /^(?:true|false|yes|no|on|off|y|n|null|~)$/i;
const NUMBER_LIKE = /^[-+]?(?:\.inf|\.nan|0x[0-9a-f_]+|0o[0-7_]+|0b[01_]+|(?:[0-9][0-9_]*)?\.?[0-9_]*(?:e[-+]?[0-9]+)?)$/i;
const BAD_FIRST = new Set([',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`']);

/** Whether `s` can be written as a plain scalar and read back as the same string. */
export function isPlainSafe(s: string): boolean {
  if (s === '' || s.trim() !== s) return false;
  if (RESERVED.test(s) || (/[0-9]/.test(s) && NUMBER_LIKE.test(s)) || /^[-+]?\.(?:inf|nan)$/i.test(s)) return false;
  const first = s[0]!;
  if (BAD_FIRST.has(first)) return false;
  if ((first === '-' || first === '?' || first === ':') && (s.length === 1 || s[1] === ' ')) return false;
  if (s.includes(': ') || s.includes(' #') || s.endsWith(':')) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029 || c === 0xfeff) return false;
  }
  return true;
}

function scalar(v: Json): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return isPlainSafe(v) ? v : JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** A literal block for a multi-line string (header and body lines), or undefined when one will not do. */
function literalBlock(s: string): { header: string; body: string[] } | undefined {
  if (!s.includes('\n') || /[\r\t\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff]/.test(s)) return undefined;
  let header = '|';
  let text = s;
  if (s.endsWith('\n\n')) {
    header = '|+';
    text = s.slice(0, -1);
  } else if (s.endsWith('\n')) text = s.slice(0, -1);
  else header = '|-';
  const body = text.split('\n');
  // A first line that starts with a space would need an indentation indicator: quote instead.
  if (body[0]!.startsWith(' ') || body.every((l) => l === '')) return undefined;
  return { header, body };
}

const isBlockMap = (v: Json): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0;
const isBlockSeq = (v: Json): v is Json[] => Array.isArray(v) && v.length > 0;
/** A value written on its key's line (scalars, `{}` and `[]`), possibly continued by a literal block. */
const inline = (v: Json): string => (Array.isArray(v) ? '[]' : v !== null && typeof v === 'object' ? '{}' : scalar(v));

export function yamlWithLines(value: Json): YamlWithLines {
  const lines: string[] = [];
  const spans = new Map<PathKey, [number, number]>();
  const pad = (n: number) => ' '.repeat(n);

  /** Writes `prefix` + the value after it, for a value that is not a block collection. */
  const writeInline = (prefix: string, v: Json, indent: number) => {
    const block = typeof v === 'string' ? literalBlock(v) : undefined;
    if (!block) {
      lines.push(`${prefix}${inline(v)}`);
      return;
    }
    lines.push(`${prefix}${block.header}`);
    for (const l of block.body) lines.push(l === '' ? '' : `${pad(indent + 2)}${l}`);
  };

  const writeMap = (map: Record<string, Json>, path: PathKey, indent: number) => {
    for (const k of Object.keys(map)) {
      const child = map[k];
      const childPath = childKey(path, k);
      const start = lines.length + 1;
      const key = scalar(k);
      if (isBlockMap(child)) {
        lines.push(`${pad(indent)}${key}:`);
        writeMap(child, childPath, indent + 2);
      } else if (isBlockSeq(child)) {
        lines.push(`${pad(indent)}${key}:`);
        writeSeq(child, childPath, indent);
      } else writeInline(`${pad(indent)}${key}: `, child, indent);
      spans.set(childPath, [start, lines.length]);
    }
  };

  const writeSeq = (seq: Json[], path: PathKey, indent: number) => {
    seq.forEach((item, i) => {
      const itemPath = childKey(path, i);
      const start = lines.length + 1;
      if (isBlockMap(item) || isBlockSeq(item)) {
        if (isBlockMap(item)) writeMap(item, itemPath, indent + 2);
        else writeSeq(item, itemPath, indent + 2);
        // The item's first line takes the dash in place of its indentation.
        lines[start - 1] = `${pad(indent)}- ${lines[start - 1]!.slice(indent + 2)}`;
      } else writeInline(`${pad(indent)}- `, item, indent);
      spans.set(itemPath, [start, lines.length]);
    });
  };

  if (isBlockMap(value)) writeMap(value, '[]', 0);
  else if (isBlockSeq(value)) writeSeq(value, '[]', 0);
  else writeInline('', value, 0);
  spans.set(pathKey([]), [1, lines.length]);
  return { text: `${lines.join('\n')}\n`, spans };
}
