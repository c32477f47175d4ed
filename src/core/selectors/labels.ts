// Label selectors with the grammar and error wording of k8s.io/apimachinery/pkg/labels (v1.23):
// `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`, comma-separated.
// Parse errors are thrown as Error with kube's message; the API answers them with 400 BadRequest.
import { fieldErrorBody, type FieldError } from '../meta/status';
import { isQualifiedName, isValidLabelValue } from '../validation/names';
import { lookupTable } from '../codec/own-keys';

/** selection.Operator values as kube spells them. */
export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'gt' | 'lt' | 'exists' | '!';

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  /** Sorted and de-duplicated like sets.String.List(). */
  values: string[];
}

/** A parsed selector: requirements sorted by key, ANDed. `nothing` matches no object at all. */
export interface LabelSelector {
  requirements: LabelRequirement[];
  nothing?: boolean;
}

export type Labels = Record<string, string> | undefined | null;

const BINARY_OPERATORS: LabelOperator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];
const VALID_OPERATORS: LabelOperator[] = [...BINARY_OPERATORS, 'exists', '!'];

// ---- lexer ---------------------------------------------------------------------------------

type Tok = 'error' | 'eos' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';
interface Item {
  tok: Tok;
  lit: string;
}

const KEYWORDS = lookupTable<Tok>({
  ')': ')', ',': ',', '!': '!', '==': '==', '=': '=', '>': '>', in: 'in', '<': '<', '!=': '!=', notin: 'notin', '(': '(',
});
const SELECTOR_OPERATORS = lookupTable<LabelOperator>({ In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' });

const isWhitespace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSpecial = (c: string) => '=!(),><'.includes(c) && c !== '';

function lex(s: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  for (;;) {
    while (pos < s.length && isWhitespace(s[pos])) pos++;
    if (pos >= s.length) {
      items.push({ tok: 'eos', lit: '' });
      return items;
    }
    if (isSpecial(s[pos])) {
      // Longest run of special symbols that still forms a known operator.
      let buf = '';
      let last: Item | undefined;
      while (pos < s.length && isSpecial(s[pos])) {
        buf += s[pos];
        const t = KEYWORDS[buf];
        if (t) {
          last = { tok: t, lit: buf };
          pos++;
        } else if (last) {
          break;
        } else {
          pos++;
        }
      }
      items.push(last ?? { tok: 'error', lit: `error expected: keyword found '${buf}'` });
      continue;
    }
    let buf = '';
    while (pos < s.length && !isSpecial(s[pos]) && !isWhitespace(s[pos])) buf += s[pos++];
    const kw = KEYWORDS[buf];
    items.push({ tok: kw ?? 'id', lit: buf });
  }
}

// ---- parser --------------------------------------------------------------------------------

class Parser {
  private pos = 0;
  constructor(private readonly items: Item[]) {}

  /** In value context the words `in`/`notin` are plain identifiers (`x in (in)`). */
  private look(values: boolean): Item {
    const it = this.items[this.pos];
    return values && (it.tok === 'in' || it.tok === 'notin') ? { tok: 'id', lit: it.lit } : it;
  }
  private take(values: boolean): Item {
    const it = this.look(values);
    this.pos++;
    return it;
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.look(true);
      if (tok === 'id' || tok === '!') {
        let r: LabelRequirement;
        try {
          r = this.requirement();
        } catch (e) {
          throw new Error(`unable to parse requirement: ${(e as Error).message}`);
        }
        reqs.push(r);
        const next = this.take(true);
        if (next.tok === 'eos') return reqs;
        if (next.tok === ',') {
          const after = this.look(true);
          if (after.tok !== 'id' && after.tok !== '!') throw new Error(`found '${after.lit}', expected: identifier after ','`);
          continue;
        }
        throw new Error(`found '${next.lit}', expected: ',' or 'end of string'`);
      }
      if (tok === 'eos') return reqs;
      throw new Error(`found '${lit}', expected: !, identifier, or 'end of string'`);
    }
  }

  private requirement(): LabelRequirement {
    let op: LabelOperator | undefined;
    let it = this.take(true);
    if (it.tok === '!') {
      op = '!';
      it = this.take(true);
    }
    if (it.tok !== 'id') throw new Error(`found '${it.lit}', expected: identifier`);
    const key = it.lit;
    // The parser validates the key with a nil field path, which Go prints as `<nil>`.
    const keyErrs = isQualifiedName(key);
    if (keyErrs.length) throw new Error(`<nil>: ${fieldErrorBody({ type: 'FieldValueInvalid', field: '', value: key, detail: keyErrs.join('; ') })}`);
    // `!a` is complete whatever follows; `!a=b` then fails on the `=` in the caller.
    if (op === '!') return newRequirement(key, '!', []);
    const next = this.look(true).tok;
    if (next === 'eos' || next === ',') return newRequirement(key, 'exists', []);
    const operator = this.operator();
    const values = operator === 'in' || operator === 'notin' ? this.setValues() : this.exactValue();
    return newRequirement(key, operator, [...values].sort());
  }

  private operator(): LabelOperator {
    const { tok, lit } = this.take(false);
    switch (tok) {
      case 'in': return 'in';
      case '=': return '=';
      case '==': return '==';
      case '>': return 'gt';
      case '<': return 'lt';
      case 'notin': return 'notin';
      case '!=': return '!=';
      default:
        throw new Error(`found '${lit}', expected: ${BINARY_OPERATORS.join(', ')}`);
    }
  }

  private setValues(): Set<string> {
    const open = this.take(true);
    if (open.tok !== '(') throw new Error(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.look(true);
    if (tok === 'id' || tok === ',') {
      const s = this.identifierList();
      if (this.take(true).tok !== ')') throw new Error(`found '${lit}', expected: ')'`);
      return s;
    }
    if (tok === ')') {
      this.take(true);
      return new Set(['']);
    }
    throw new Error(`found '${lit}', expected: ',', ')' or identifier`);
  }

  private identifierList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const { tok, lit } = this.take(true);
      if (tok === 'id') {
        s.add(lit);
        const next = this.look(true);
        if (next.tok === ',') continue;
        if (next.tok === ')') return s;
        throw new Error(`found '${next.lit}', expected: ',' or ')'`);
      }
      if (tok === ',') {
        // Empty members (`(,a)`, `(a,)`, `(a,,b)`) stand for the empty value.
        if (s.size === 0) s.add('');
        const next = this.look(true).tok;
        if (next === ')') {
          s.add('');
          return s;
        }
        if (next === ',') {
          this.take(true);
          s.add('');
        }
        continue;
      }
      throw new Error(`found '${lit}', expected: ',', or identifier`);
    }
  }

  private exactValue(): Set<string> {
    const next = this.look(true).tok;
    if (next === 'eos' || next === ',') return new Set(['']);
    const { tok, lit } = this.take(true);
    if (tok === 'id') return new Set([lit]);
    throw new Error(`found '${lit}', expected: identifier`);
  }
}

function aggregate(msgs: string[]): string {
  const uniq = [...new Set(msgs)];
  return uniq.length === 1 ? uniq[0] : `[${uniq.join(', ')}]`;
}

function invalidMsg(field: string, value: string | string[], detail: string): string {
  // Go prints a []string bad value with %#v, even when empty.
  if (Array.isArray(value)) return `${field}: Invalid value: []string{${value.map((v) => JSON.stringify(v)).join(', ')}}: ${detail}`;
  const e: FieldError = { type: 'FieldValueInvalid', field, value, detail };
  return `${field}: ${fieldErrorBody(e)}`;
}

/** labels.NewRequirement: validates the key, the operator's value count and each value. */
export function newRequirement(key: string, operator: LabelOperator, values: string[]): LabelRequirement {
  const errs: string[] = [];
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length) errs.push(invalidMsg('key', key, keyErrs.join('; ')));
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) errs.push(invalidMsg('values', values, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) errs.push(invalidMsg('values', values, 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) errs.push(invalidMsg('values', values, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) errs.push(invalidMsg('values', values, "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (!isGoInt64(v)) errs.push(invalidMsg(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
    default: {
      const e: FieldError = { type: 'FieldValueNotSupported', field: 'operator', value: operator, supported: VALID_OPERATORS };
      errs.push(`operator: ${fieldErrorBody(e)}`);
    }
  }
  values.forEach((v, i) => {
    const ve = isValidLabelValue(v);
    if (ve.length) errs.push(invalidMsg(`values[${i}][${key}]`, v, ve.join('; ')));
  });
  if (errs.length) throw new Error(aggregate(errs));
  return { key, operator, values };
}

/** strconv.ParseInt(s, 10, 64) succeeds. */
function isGoInt64(s: string): boolean {
  if (!/^[+-]?[0-9]+$/.test(s)) return false;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n < 2n ** 63n;
}

function byKey(a: LabelRequirement, b: LabelRequirement): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** labels.Parse. Throws Error with kube's message for malformed selectors. */
export function parseLabelSelector(selector: string): LabelSelector {
  const reqs = new Parser(lex(selector)).parse();
  return { requirements: reqs.sort(byKey) };
}

/** metav1.LabelSelectorAsSelector: `null`/absent matches nothing, `{}` matches everything. */
export function labelSelectorFromObject(sel: unknown): LabelSelector {
  if (sel === null || sel === undefined) return { requirements: [], nothing: true };
  const s = sel as { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] };
  const reqs: LabelRequirement[] = [];
  for (const [k, v] of Object.entries(s.matchLabels ?? {})) reqs.push(newRequirement(k, '=', [v]));
  for (const e of s.matchExpressions ?? []) {
    const op = SELECTOR_OPERATORS[e.operator];
    if (!op) throw new Error(`${JSON.stringify(e.operator)} is not a valid label selector operator`);
    reqs.push(newRequirement(e.key, op, [...(e.values ?? [])]));
  }
  return { requirements: reqs.sort(byKey) };
}

function has(labels: Labels, key: string): boolean {
  return !!labels && Object.prototype.hasOwnProperty.call(labels, key);
}

export function requirementMatches(r: LabelRequirement, labels: Labels): boolean {
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has(labels, r.key) && r.values.includes(labels![r.key]);
    case 'notin':
    case '!=':
      return !has(labels, r.key) || !r.values.includes(labels![r.key]);
    case 'exists':
      return has(labels, r.key);
    case '!':
      return !has(labels, r.key);
    case 'gt':
    case 'lt': {
      if (!has(labels, r.key) || r.values.length !== 1) return false;
      const lv = labels![r.key];
      if (!isGoInt64(lv) || !isGoInt64(r.values[0])) return false;
      const a = BigInt(lv);
      const b = BigInt(r.values[0]);
      return r.operator === 'gt' ? a > b : a < b;
    }
  }
}

export function matchesLabels(sel: LabelSelector, labels: Labels): boolean {
  if (sel.nothing) return false;
  return sel.requirements.every((r) => requirementMatches(r, labels));
}

/** True when the selector places no restriction (labels.Everything). */
export function isEverything(sel: LabelSelector): boolean {
  return !sel.nothing && sel.requirements.length === 0;
}

/** Selector.String(): the canonical text kube prints, e.g. in Scale `status.selector`. */
export function labelSelectorToString(sel: LabelSelector): string {
  return sel.requirements
    .map((r) => {
      if (r.operator === '!') return `!${r.key}`;
      if (r.operator === 'exists') return r.key;
      const vals = r.values.length === 1 ? r.values[0] : [...r.values].sort().join(',');
      switch (r.operator) {
        case 'in': return `${r.key} in (${vals})`;
        case 'notin': return `${r.key} notin (${vals})`;
        case 'gt': return `${r.key}>${vals}`;
        case 'lt': return `${r.key}<${vals}`;
        default: return `${r.key}${r.operator}${vals}`;
      }
    })
    .join(',');
}
