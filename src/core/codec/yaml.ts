// application/yaml as kube-apiserver writes it: json.Marshal then sigs.k8s.io/yaml.JSONToYAML
// (go-yaml v2): block style, map keys sorted the go-yaml way, sequences not indented under
// their key, strings quoted only when needed, long lines folded past column 80. A small
// emitter of our own, because byte-faithful output needs libyaml's exact rules.
import { doubleQuotedEscape, goYamlKeyLess, isBreak, stringStyle } from './yaml-scalar';

export { parseYaml, yamlDuplicateKeyErrors, type YamlParseResult } from './yaml-parse';

const BEST_WIDTH = 80;

export interface ToYamlOptions {
  /** Keep the object's own key order instead of go-yaml's sorted order. */
  keepKeyOrder?: boolean;
}

/** Go's strconv.FormatFloat(f, 'g', -1, 64) as go-yaml uses it for non-integral numbers. */
export function goFloat(n: number): string {
  if (Number.isNaN(n)) return '.nan';
  if (n === Infinity) return '.inf';
  if (n === -Infinity) return '-.inf';
  const [mant, expText] = n.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}

function formatNumber(n: number): string {
  // JSON numbers that fit int64 come back from go-yaml as ints; everything else as float64.
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return String(n);
  return goFloat(n);
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

class Emitter {
  out = '';
  col = 0;
  constructor(private readonly opts: ToYamlOptions) {}

  private write(s: string): void {
    this.out += s;
    const nl = s.lastIndexOf('\n');
    this.col = nl >= 0 ? [...s.slice(nl + 1)].length : this.col + [...s].length;
  }

  private newline(indent: number): void {
    this.out += `\n${' '.repeat(indent)}`;
    this.col = indent;
  }

  /** libyaml write_indent: start a fresh line unless we already sit at its beginning. */
  private startLine(indent: number): void {
    const fresh = this.out === '' || this.out.endsWith('\n');
    if (!fresh) this.newline(indent);
    else this.write(' '.repeat(indent));
  }

  private pad(indent: number): void {
    if (this.col < indent) this.write(' '.repeat(indent - this.col));
  }

  private keys(o: Record<string, unknown>): string[] {
    const ks = Object.keys(o);
    if (this.opts.keepKeyOrder) return ks;
    return ks.sort((a, b) => (goYamlKeyLess(a, b) ? -1 : goYamlKeyLess(b, a) ? 1 : 0));
  }

  node(v: unknown, indent: number): void {
    if (isObj(v) && Object.keys(v).length) this.map(v, indent, false);
    else if (Array.isArray(v) && v.length) this.seq(v, indent, false);
    else this.scalar(v, indent, false, false);
  }

  private map(o: Record<string, unknown>, indent: number, inline: boolean): void {
    this.keys(o).forEach((k, i) => {
      if (i === 0 && inline) this.pad(indent);
      else this.startLine(indent);
      this.scalar(k, indent + 2, true, false);
      this.write(':');
      const v = o[k];
      if (isObj(v) && Object.keys(v).length) this.map(v, indent + 2, false);
      else if (Array.isArray(v) && v.length) this.seq(v, indent, false);
      else this.scalar(v, indent + 2, false, true);
    });
  }

  private seq(a: unknown[], indent: number, inline: boolean): void {
    a.forEach((item, i) => {
      if (i === 0 && inline) this.pad(indent);
      else this.startLine(indent);
      this.write('-');
      if (isObj(item) && Object.keys(item).length) this.map(item, indent + 2, true);
      else if (Array.isArray(item) && item.length) this.seq(item, indent + 2, true);
      else this.scalar(item, indent + 2, false, true);
    });
  }

  /** `indent` is where folded or block-literal continuation lines start. */
  private scalar(v: unknown, indent: number, isKey: boolean, afterIndicator: boolean): void {
    const lead = afterIndicator ? ' ' : '';
    if (v === null || v === undefined) return this.write(`${lead}null`);
    if (typeof v === 'boolean') return this.write(`${lead}${v}`);
    if (typeof v === 'number') return this.write(`${lead}${formatNumber(v)}`);
    if (Array.isArray(v)) return this.write(`${lead}[]`);
    if (typeof v === 'object') return this.write(`${lead}{}`);
    const s = String(v);
    const allowBreaks = !isKey;
    switch (stringStyle(s, isKey)) {
      case 'plain':
        this.write(lead);
        return this.folded(s, indent, allowBreaks, false);
      case 'single':
        this.write(`${lead}'`);
        this.folded(s, indent, allowBreaks, true);
        return this.write("'");
      case 'double':
        this.write(`${lead}"`);
        this.doubleQuoted(s, indent, allowBreaks);
        return this.write('"');
      case 'literal':
        return this.literal(s, indent, lead);
    }
  }

  /** Plain and single-quoted text: a space past column 80 becomes a line break. */
  private folded(s: string, indent: number, allowBreaks: boolean, quoted: boolean): void {
    const cs = [...s];
    let spaces = false;
    cs.forEach((c, i) => {
      if (c === ' ') {
        const edge = quoted && (i === 0 || i === cs.length - 1);
        if (allowBreaks && !spaces && this.col > BEST_WIDTH && !edge && cs[i + 1] !== ' ') this.newline(indent);
        else this.write(' ');
        spaces = true;
      } else {
        this.write(quoted && c === "'" ? "''" : c);
        spaces = false;
      }
    });
  }

  private doubleQuoted(s: string, indent: number, allowBreaks: boolean): void {
    const cs = [...s];
    let spaces = false;
    cs.forEach((c, i) => {
      const esc = doubleQuotedEscape(c.codePointAt(0)!);
      if (esc !== undefined) {
        this.write(esc);
        spaces = false;
      } else if (c === ' ') {
        if (allowBreaks && !spaces && this.col > BEST_WIDTH && i !== 0 && i !== cs.length - 1) {
          this.newline(indent);
          if (cs[i + 1] === ' ') this.write('\\');
        } else {
          this.write(' ');
        }
        spaces = true;
      } else {
        this.write(c);
        spaces = false;
      }
    });
  }

  private literal(s: string, indent: number, lead: string): void {
    const cps = [...s];
    let hints = '';
    if (cps[0] === ' ' || isBreak(cps[0].codePointAt(0)!)) hints += '2';
    const last = cps.length - 1;
    if (!isBreak(cps[last].codePointAt(0)!)) hints += '-';
    else if (last === 0 || isBreak(cps[last - 1].codePointAt(0)!)) hints += '+';
    this.write(`${lead}|${hints}\n`);
    let breaks = true;
    for (const c of cps) {
      if (isBreak(c.codePointAt(0)!)) {
        this.write(c === '\n' ? '\n' : `${c}\n`);
        breaks = true;
      } else {
        if (breaks) this.write(' '.repeat(indent));
        breaks = false;
        this.write(c);
      }
    }
  }
}

/** YAML text of a JSON-compatible value, byte-compatible with kube-apiserver's application/yaml. */
export function toYaml(value: unknown, opts: ToYamlOptions = {}): string {
  const e = new Emitter(opts);
  e.node(value, 0);
  return e.out.endsWith('\n') ? e.out : `${e.out}\n`;
}
