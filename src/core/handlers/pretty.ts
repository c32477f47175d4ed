// Pretty-printed JSON as kube-apiserver chooses it (negotiation's isPrettyPrint): `?pretty=` read
// with Go's strconv.ParseBool when given a value; otherwise the User-Agent of a human's tool —
// curl, Wget or a browser (`Mozilla/5.0`) — gets indented JSON. Indentation is done on the text
// (as Go's json.Indent does) so string escapes and key order stay byte for byte as encoded.
import type { ApiRequest } from '../meta/types';
import { parseGoBool } from '../meta/query-bool';

const HUMAN_AGENTS = ['curl', 'Wget', 'Mozilla/5.0'];

export function isPrettyPrint(req: ApiRequest, query: URLSearchParams): boolean {
  const pp = query.get('pretty');
  // An unparsable value is false, not a fall-through to the User-Agent (ParseBool's error ignored).
  if (pp) return parseGoBool(pp) ?? false;
  const agent = req.headers['user-agent'] ?? '';
  return HUMAN_AGENTS.some((prefix) => agent.startsWith(prefix));
}

/** Two-space indented JSON (json.MarshalIndent's layout) from compact or pretty JSON text; no trailing newline. */
export function indentJson(text: string): string {
  let out = '';
  let depth = 0;
  let i = 0;
  const n = text.length;
  const newline = (): string => '\n' + '  '.repeat(depth);
  while (i < n) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === ' ' || c === '\n' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      let j = i + 1;
      while (j < n && ' \n\t\r'.includes(text[j])) j++;
      if (text[j] === close) {
        out += c + close;
        i = j + 1;
        continue;
      }
      depth++;
      out += c + newline();
    } else if (c === '}' || c === ']') {
      depth--;
      out += newline() + c;
    } else if (c === ',') {
      out += ',' + newline();
    } else if (c === ':') {
      out += ': ';
    } else {
      out += c;
    }
    i++;
  }
  return out;
}
