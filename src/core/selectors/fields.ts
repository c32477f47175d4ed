// Field selectors as k8s.io/apimachinery/pkg/fields parses them (`a=b`, `a==b`, `a!=b`,
// comma-separated, values escaped with `\,` `\=` `\\`), plus the per-kind label conversion of
// kube-apiserver v1.23 that rejects unsupported fields (400 BadRequest with the thrown message).
import { lookupTable } from '../codec/own-keys';

export interface FieldRequirement {
  field: string;
  /** `=` and `==` both mean equality (kube's hasTerm); `!=` is notHasTerm. */
  operator: '=' | '!=';
  value: string;
}

export interface FieldSelector {
  /** ANDed; sorted by the raw term text like kube does before parsing. */
  requirements: FieldRequirement[];
}

/** Split on commas that are not escaped, keeping escapes in place (fields.splitTerms). */
function splitTerms(s: string): string[] {
  if (s.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

const TERM_OPERATORS = ['!=', '==', '='] as const;

function splitTerm(term: string): { lhs: string; op: string; rhs: string } | null {
  for (let i = 0; i < term.length; i++) {
    for (const op of TERM_OPERATORS) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return null;
}

/** fields.UnescapeValue with its two error messages. */
export function unescapeFieldValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c === '\\' || c === ',' || c === '=') out += c;
      else throw new Error(`invalid field selector: invalid escape sequence: \\${c}`);
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') throw new Error(`invalid field selector: unescaped character in value: ${c}`);
    else out += c;
  }
  if (inSlash) throw new Error('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** fields.EscapeValue, for printing selectors. */
export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** fields.ParseSelector. Throws Error with kube's message. */
export function parseFieldSelector(selector: string): FieldSelector {
  const parts = splitTerms(selector).sort();
  const requirements: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (!t) throw new Error(`invalid selector: '${selector}'; can't understand '${part}'`);
    const value = unescapeFieldValue(t.rhs);
    requirements.push({ field: t.lhs, operator: t.op === '!=' ? '!=' : '=', value });
  }
  return { requirements };
}

export function matchesFields(sel: FieldSelector, fields: Record<string, string>): boolean {
  // A field missing from the set reads as "" (fields.Set.Get).
  return sel.requirements.every((r) => (((Object.hasOwn(fields, r.field) ? fields[r.field] : undefined) ?? '') === r.value) === (r.operator === '='));
}

export function fieldSelectorToString(sel: FieldSelector): string {
  return sel.requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
}

/** The field name a requirement on the metadata.name of one object (`metadata.name=x`) asks for, if any. */
export function requiresExactName(sel: FieldSelector): string | undefined {
  return sel.requirements.find((r) => r.field === 'metadata.name' && r.operator === '=')?.value;
}

// ---- per-kind label conversion (runtime.Scheme.ConvertFieldLabel) ---------------------------

/** runtime.Scheme.ConvertFieldLabel of one kind: checks a label, renames it to the internal field (the kind's spec names it, kinds/). */
export type FieldLabelConverter = (label: string) => string;
type Converter = FieldLabelConverter;

function allowList(labels: string[], renames: Record<string, string> = {}): Converter {
  return (label) => {
    if (labels.includes(label)) return label;
    if (Object.hasOwn(renames, label)) return renames[label]!;
    throw new Error(`field label not supported: ${label}`);
  };
}

const EVENTS_K8S_IO = lookupTable<string>({
  reason: 'reason',
  'regarding.kind': 'involvedObject.kind',
  'regarding.namespace': 'involvedObject.namespace',
  'regarding.name': 'involvedObject.name',
  'regarding.uid': 'involvedObject.uid',
  'regarding.apiVersion': 'involvedObject.apiVersion',
  'regarding.resourceVersion': 'involvedObject.resourceVersion',
  'regarding.fieldPath': 'involvedObject.fieldPath',
  reportingController: 'reportingComponent',
  type: 'type',
  'metadata.namespace': 'metadata.namespace',
  'metadata.name': 'metadata.name',
});

export const POD_FIELD_LABELS: Converter = allowList(
  ['metadata.name', 'metadata.namespace', 'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName',
    'status.phase', 'status.podIP', 'status.podIPs', 'status.nominatedNodeName'],
  // Old v1 clients send spec.host.
  { 'spec.host': 'spec.nodeName' },
);
export const NODE_FIELD_LABELS: Converter = allowList(['metadata.name', 'spec.unschedulable']);
/** ReplicationController and ReplicaSet. */
export const REPLICAS_FIELD_LABELS: Converter = allowList(['metadata.name', 'metadata.namespace', 'status.replicas']);
export const CORE_EVENT_FIELD_LABELS: Converter = allowList([
  'involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion',
  'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type',
  'metadata.namespace', 'metadata.name',
]);
export const NAMESPACE_FIELD_LABELS: Converter = allowList(['status.phase', 'metadata.name']);
export const SECRET_FIELD_LABELS: Converter = allowList(['type', 'metadata.namespace', 'metadata.name']);
export const JOB_FIELD_LABELS: Converter = allowList(['metadata.name', 'metadata.namespace', 'status.successful']);
export const CSR_FIELD_LABELS: Converter = allowList(['metadata.name', 'spec.signerName']);
export const EVENTS_V1_FIELD_LABELS: Converter = (label) => {
  const mapped = EVENTS_K8S_IO[label];
  if (!mapped) throw new Error(`field label not supported: ${label}`);
  return mapped;
};

/** What kube does for kinds without their own conversion (runtime.DefaultMetaV1FieldSelectorConversion). */
function defaultConversion(label: string): string {
  if (label === 'metadata.name' || label === 'metadata.namespace') return label;
  throw new Error(`"${label}" is not a known field selector: only "metadata.name", "metadata.namespace"`);
}

export interface FieldKindInfo {
  /** The built-in kind's label conversion (its spec's); kube's default conversion when absent. */
  convertLabel?: FieldLabelConverter;
  /** CRD-backed: only metadata.name and (namespaced) metadata.namespace, worded like the CR handler. */
  custom?: boolean;
  namespaced?: boolean;
}

/**
 * Check every field against what the kind supports and rename to the internal field names
 * (events.k8s.io `regarding.name` → `involvedObject.name`). Throws kube's message on unsupported
 * fields; match the result against fieldsFor().
 */
export function convertFieldSelector(sel: FieldSelector, info: FieldKindInfo): FieldSelector {
  let convert: Converter;
  if (info.custom) {
    convert = (label) => {
      if (label === 'metadata.name' || (info.namespaced !== false && label === 'metadata.namespace')) return label;
      throw new Error(`field label not supported: ${label}`);
    };
  } else {
    convert = info.convertLabel ?? defaultConversion;
  }
  return { requirements: sel.requirements.map((r) => ({ ...r, field: convert(r.field) })) };
}
