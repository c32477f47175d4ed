// fieldValidation=Strict|Warn|Ignore for request bodies: unknown and duplicate fields worded and
// ordered as kube-apiserver reports them (`strict decoding error: unknown field "spec.foo",
// duplicate field "x"`), and the value with unknown fields dropped for storage.
import type { JsonNode } from '../../codec/json-scan';
import { FieldWalker, type FieldIssue } from './walker';
import type { FieldValidationDirective, SchemaContext } from './types';

export interface FieldCheckInput {
  /** The body as scanned from JSON text (keeps key order and repeated keys). */
  node?: JsonNode;
  /** Or an already-decoded value (e.g. from YAML); walked with keys sorted like Go's json.Marshal. */
  value?: unknown;
  /** go-yaml duplicate-key lines (`line 5: key "name" already set in map`) for YAML bodies. */
  yamlDuplicates?: string[];
}

export interface FieldCheckResult {
  /** The body without unknown fields. */
  value: unknown;
  /** `unknown field "..."` / `duplicate field "..."` in kube's order (YAML duplicates excluded). */
  errors: string[];
  yamlDuplicates: string[];
}

function phaseRank(i: FieldIssue): number {
  if (i.kind === 'duplicate') return 0;
  return { body: 1, metadata: 1, prune: 2, embedded: 3 }[i.phase];
}

export function checkFields(input: FieldCheckInput, ctx: SchemaContext): FieldCheckResult {
  const w = new FieldWalker(ctx);
  // A decoded value is walked directly: the same result as walking valueToNode(value, true).
  const value = input.node ? w.walkRoot(input.node) : w.walkValueRoot(input.value);
  let issues = w.issues;
  if (ctx.custom) {
    // The CR handler reports JSON duplicates first, then ObjectMeta's unknown fields, then the
    // (sorted) pruned paths, then unknown fields in embedded resources' metadata.
    issues = issues
      .map((i, n) => ({ i, n }))
      .sort((a, b) => {
        const ra = phaseRank(a.i);
        const rb = phaseRank(b.i);
        if (ra !== rb) return ra - rb;
        if (ra >= 2 && a.i.path !== b.i.path) return a.i.path < b.i.path ? -1 : 1;
        return a.n - b.n;
      })
      .map((x) => x.i);
  }
  // Most bodies have nothing to report: no set and copies for an empty list.
  const errors = issues.length === 0 ? [] : [...new Set(issues.map((i) => `${i.kind} field ${JSON.stringify(i.path)}`))];
  return { value, errors, yamlDuplicates: input.yamlDuplicates ?? [] };
}

export interface DirectiveOutcome {
  value: unknown;
  /** Texts for `Warning: 299 - "<text>"` headers (Warn only). */
  warnings: string[];
  /** The strict decoding error text (Strict only); wrap with decodeErrorMessage() into a 400. */
  error?: string;
}

/** Combine yaml duplicate lines and field errors into runtime.strictDecodingError's text. */
export function strictDecodingErrorText(r: FieldCheckResult): string {
  const parts: string[] = [];
  if (r.yamlDuplicates.length) parts.push(`yaml: unmarshal errors:\n${r.yamlDuplicates.map((l) => `  ${l}`).join('\n')}`);
  parts.push(...r.errors);
  return `strict decoding error: ${parts.join(', ')}`;
}

export function applyDirective(r: FieldCheckResult, directive: FieldValidationDirective): DirectiveOutcome {
  const any = r.errors.length + r.yamlDuplicates.length > 0;
  if (directive === 'Ignore' || !any) return { value: r.value, warnings: [] };
  if (directive === 'Warn') return { value: r.value, warnings: [...r.yamlDuplicates, ...r.errors] };
  return { value: r.value, warnings: [], error: strictDecodingErrorText(r) };
}

/** Parse the `fieldValidation` query value; kube rejects other values with 400 (message from caller). */
export function parseDirective(v: string | null | undefined, fallback: FieldValidationDirective = 'Warn'): FieldValidationDirective | null {
  if (v === null || v === undefined || v === '') return fallback;
  return v === 'Strict' || v === 'Warn' || v === 'Ignore' ? v : null;
}

/** Duplicate keys anywhere in a scanned body, with full paths (used for merge-patch bodies). */
export function duplicateFieldErrors(node: JsonNode, path = ''): string[] {
  const out: string[] = [];
  const visit = (n: JsonNode, p: string) => {
    if (n.kind === 'array') n.items.forEach((x, i) => visit(x, `${p}[${i}]`));
    if (n.kind !== 'object') return;
    for (const e of n.entries) {
      const cp = p ? `${p}.${e.key}` : e.key;
      if (e.duplicate) out.push(`duplicate field ${JSON.stringify(cp)}`);
      visit(e.value, cp);
    }
  };
  visit(node, path);
  return [...new Set(out)];
}
