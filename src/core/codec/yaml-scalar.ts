// How go-yaml v2 (behind sigs.k8s.io/yaml, which kube-apiserver uses for application/yaml)
// decides to quote a string: would the plain text read back as something else (bool, number,
// null, timestamp), and does libyaml's scalar analysis allow plain or single-quoted output.

const RESOLVE_MAP = new Set([
  '', '~', 'null', 'Null', 'NULL',
  'y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'true', 'True', 'TRUE',
  'n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF', 'false', 'False', 'FALSE',
  '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF', '.nan', '.NaN', '.NAN',
]);

const GO_INT = /^[+-]?(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO]?[0-7]+|[1-9][0-9]*|0)$/;
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

function goIntInRange(s: string): boolean {
  const neg = s.startsWith('-');
  const body = s.replace(/^[+-]/, '');
  let n: bigint;
  if (/^0[xX]/.test(body)) n = BigInt(body);
  else if (/^0[bB]/.test(body)) n = BigInt(body);
  else if (/^0[oO]/.test(body)) n = BigInt(`0o${body.slice(2)}`);
  else if (body.length > 1 && body.startsWith('0')) n = BigInt(`0o${body.slice(1)}`);
  else n = BigInt(body);
  if (neg) n = -n;
  // ParseInt (int64) or, unsigned and without a sign, ParseUint (uint64).
  if (n >= -(2n ** 63n) && n < 2n ** 63n) return true;
  return !/^[+-]/.test(s) && n < 2n ** 64n;
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isTimestamp(s: string): boolean {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))|(?: (\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?))?$/.exec(s);
  if (!m) return false;
  const year = +m[1];
  const month = +m[2];
  const day = +m[3];
  if (month < 1 || month > 12 || day < 1 || day > DAYS[month - 1]) return false;
  if (month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0))) return false;
  const h = m[4] ?? m[7];
  const mi = m[5] ?? m[8];
  const se = m[6] ?? m[9];
  if (h !== undefined && (+h > 23 || +mi > 59 || +se > 59)) return false;
  return true;
}

/** go-yaml v2 resolve(): true when the plain text would not read back as a string. */
export function resolvesToNonString(s: string): boolean {
  if (RESOLVE_MAP.has(s)) return true;
  const c = s[0];
  if (c === '.') return /^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s);
  if (c === '+' || c === '-' || (c >= '0' && c <= '9')) {
    if (isTimestamp(s)) return true;
    const plain = s.replace(/_/g, '');
    if (GO_INT.test(plain) && goIntInRange(plain)) return true;
    if (YAML_STYLE_FLOAT.test(plain) && Number.isFinite(Number(plain))) return true;
  }
  return false;
}

export function isBase60Float(s: string): boolean {
  if (s === '' || !/^[-+0-9]/.test(s) || !s.includes(':')) return false;
  return BASE60_FLOAT.test(s);
}

// ---- libyaml scalar analysis --------------------------------------------------------------

export const isBreak = (cp: number) => cp === 0x0a || cp === 0x0d || cp === 0x85 || cp === 0x2028 || cp === 0x2029;

/** libyaml's is_printable, by code point (four-byte UTF-8 characters are not printable). */
export function isPrintable(cp: number): boolean {
  return cp === 0x0a || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff);
}

export interface ScalarAnalysis {
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
  multiline: boolean;
}

export function analyzeScalar(s: string): ScalarAnalysis {
  const cps = [...s].map((c) => c.codePointAt(0)!);
  if (cps.length === 0) return { blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false, multiline: false };
  let blockIndicators = s.startsWith('---') || s.startsWith('...');
  let leadingSpace = false, leadingBreak = false, trailingSpace = false, trailingBreak = false;
  let breakSpace = false, spaceBreak = false, previousSpace = false, previousBreak = false;
  let lineBreaks = false, special = false;
  const blankz = (i: number) => i >= cps.length || cps[i] === 0x20 || cps[i] === 0x09 || isBreak(cps[i]);
  let precededByWs = true;
  for (let i = 0; i < cps.length; i++) {
    const ch = String.fromCodePoint(cps[i]);
    const followedByWs = blankz(i + 1);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) blockIndicators = true;
      if ((ch === '?' || ch === ':') && followedByWs) blockIndicators = true;
      if (ch === '-' && followedByWs) blockIndicators = true;
    } else {
      if (ch === ':' && followedByWs) blockIndicators = true;
      if (ch === '#' && precededByWs) blockIndicators = true;
    }
    if (!isPrintable(cps[i])) special = true;
    if (isBreak(cps[i])) lineBreaks = true;
    if (cps[i] === 0x20) {
      if (i === 0) leadingSpace = true;
      if (i === cps.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(cps[i])) {
      if (i === 0) leadingBreak = true;
      if (i === cps.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousBreak = true;
      previousSpace = false;
    } else {
      previousSpace = previousBreak = false;
    }
    precededByWs = blankz(i);
  }
  let blockPlain = true, single = true, block = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlain = false;
  if (trailingSpace) block = false;
  if (breakSpace) blockPlain = single = false;
  if (spaceBreak || special) blockPlain = single = block = false;
  if (lineBreaks) blockPlain = false;
  if (blockIndicators) blockPlain = false;
  return { blockPlainAllowed: blockPlain, singleQuotedAllowed: single, blockAllowed: block, multiline: lineBreaks };
}

export type ScalarStyle = 'plain' | 'single' | 'double' | 'literal';

/** encoder.stringv's choice refined by yaml_emitter_select_scalar_style (block context). */
export function stringStyle(s: string, isKey: boolean): ScalarStyle {
  let style: ScalarStyle;
  if (s.includes('\n')) style = 'literal';
  else if (!resolvesToNonString(s) && !isBase60Float(s)) style = 'plain';
  else style = 'double';
  const a = analyzeScalar(s);
  if (style === 'plain' && !a.blockPlainAllowed) style = 'single';
  if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
  if (style === 'literal' && (!a.blockAllowed || isKey)) style = 'double';
  return style;
}

/** A double-quoted scalar's escape for one code point, or undefined when written as is. */
export function doubleQuotedEscape(cp: number): string | undefined {
  if (isPrintable(cp) && cp !== 0xfeff && !isBreak(cp) && cp !== 0x22 && cp !== 0x5c) return undefined;
  const named: Record<number, string> = {
    0x00: '0', 0x07: 'a', 0x08: 'b', 0x09: 't', 0x0a: 'n', 0x0b: 'v', 0x0c: 'f', 0x0d: 'r', 0x1b: 'e',
    0x22: '"', 0x5c: '\\', 0x85: 'N', 0xa0: '_', 0x2028: 'L', 0x2029: 'P',
  };
  if (named[cp] !== undefined) return `\\${named[cp]}`;
  const hex = cp.toString(16).toUpperCase();
  if (cp <= 0xff) return `\\x${hex.padStart(2, '0')}`;
  if (cp <= 0xffff) return `\\u${hex.padStart(4, '0')}`;
  return `\\U${hex.padStart(8, '0')}`;
}

/** go-yaml v2 map key order (keyList.Less) for string keys: digit runs compare numerically, letters after other characters. */
export function goYamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  const isLetter = (c: string) => /\p{L}/u.test(c);
  const isDigit = (c: string | undefined) => c !== undefined && /\p{Nd}/u.test(c);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al && bl) return ar[i] < br[i];
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + (ar[ai].charCodeAt(0) - 48);
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + (br[bi].charCodeAt(0) - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i] < br[i];
  }
  return ar.length < br.length;
}
