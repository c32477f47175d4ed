// Go's strconv.Quote, which `%q` prints: kube-apiserver's messages quote client input with it
// (`parsing "abc": invalid syntax`), and it escapes differently from JSON.stringify.

const NAMED: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '"': '\\"', '\\': '\\\\' };

export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (NAMED[ch]) out += NAMED[ch];
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (ch !== ' ' && /[\p{C}\p{Z}]/u.test(ch)) out += c > 0xffff ? `\\U${c.toString(16).padStart(8, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}
