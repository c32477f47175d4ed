// ObjectMeta validation common to every kind (apimachinery/pkg/api/validation/objectmeta.go and
// the core wrapper that adds the finalizer-name rule), plus label and selector helpers.
import { type FieldError, child, forbidden, index, invalid, nonNegative, required, tooLong, FIELD_IMMUTABLE } from './errors';
import { goStringSlice, semanticEqual } from './gofmt';
import { type NameRule, isDNS1123Label, isQualifiedName, isValidLabelValue, validateName } from './names';

export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;
const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

function sortedEntries(m: unknown): [string, unknown][] {
  if (!m || typeof m !== 'object') return [];
  return Object.entries(m as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

// Label keys repeat from object to object (`app`, `app.kubernetes.io/name`; isQualifiedName
// remembers the valid ones): a map whose keys and values are all valid is answered without
// sorting it.
function isValidLabelKey(k: string): boolean {
  return isQualifiedName(k).length === 0;
}

function allLabelsValid(labels: unknown): boolean {
  if (!labels || typeof labels !== 'object') return true;
  const m = labels as Record<string, unknown>;
  for (const k of Object.keys(m)) if (!isValidLabelKey(k) || isValidLabelValue(String(m[k] ?? '')).length > 0) return false;
  return true;
}

/** ValidateLabels: key must be a qualified name, value a label value; the path has no key index. */
export function validateLabels(labels: unknown, field: string): FieldError[] {
  if (allLabelsValid(labels)) return [];
  const errs: FieldError[] = [];
  for (const [k, v] of sortedEntries(labels)) {
    for (const m of isQualifiedName(k)) errs.push(invalid(field, k, m));
    for (const m of isValidLabelValue(String(v ?? ''))) errs.push(invalid(field, v, m));
  }
  return errs;
}

export function validateAnnotations(annotations: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of sortedEntries(annotations)) {
    // Annotation keys are qualified names, except that case does not matter.
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(invalid(field, k, m));
    total += utf8Length(k) + utf8Length(String(v ?? ''));
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(tooLong(field, TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}

/** Byte length of `s` in UTF-8, counted without encoding it (validation runs on every write). */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: 2 UTF-16 units, 4 UTF-8 bytes.
      n += 2;
      i++;
    } else n += 2; // 3 bytes (lone surrogates encode as U+FFFD, also 3 bytes)
  }
  return n;
}

function validateOwnerReferences(refs: unknown, field: string): FieldError[] {
  if (!Array.isArray(refs)) return [];
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs) {
    const apiVersion = String(ref?.apiVersion ?? '');
    const version = apiVersion.includes('/') ? apiVersion.split('/')[1] : apiVersion;
    if (!version) errs.push(invalid(child(field, 'apiVersion'), apiVersion, 'version must not be empty'));
    if (!ref?.kind) errs.push(invalid(child(field, 'kind'), ref?.kind ?? '', 'must not be empty'));
    if (!ref?.name) errs.push(invalid(child(field, 'name'), ref?.name ?? '', 'must not be empty'));
    if (!ref?.uid) errs.push(invalid(child(field, 'uid'), ref?.uid ?? '', 'must not be empty'));
    if (apiVersion === 'v1' && ref?.kind === 'Event') errs.push(invalid(field, ref, '/v1, Kind=Event is disallowed from being an owner'));
    if (ref?.controller === true) {
      const cur = `${ref.kind}/${ref.name}`;
      if (firstController) {
        errs.push(invalid(field, refs, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${cur}`));
      } else firstController = cur;
    }
  }
  return errs;
}

/** Finalizer names: qualified names; built-in kinds also require a '/' unless the name is standard. */
export function validateFinalizers(finalizers: unknown, field: string, builtin: boolean): FieldError[] {
  if (!Array.isArray(finalizers)) return [];
  const errs: FieldError[] = [];
  for (const f of finalizers) {
    const s = String(f);
    for (const m of isQualifiedName(s)) errs.push(invalid(field, s, m));
    if (builtin && !s.includes('/') && !STANDARD_FINALIZERS.has(s)) {
      errs.push(invalid(field, s, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  }
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(invalid(field, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set', goStringSlice(finalizers.map(String))));
  }
  return errs;
}

export interface ObjectMetaOptions {
  namespaced: boolean;
  nameRule: NameRule;
  /** Custom resources skip the core rule that bare finalizer names must be standard ones. */
  custom?: boolean;
}

/**
 * Metadata checks for a create (ValidateObjectMeta): generateName and name against the kind's name
 * rule, namespace present or absent by scope, generation, labels, annotations (incl. total size),
 * ownerReferences and finalizers.
 */
export function validateObjectMeta(meta: any, opts: ObjectMetaOptions): FieldError[] {
  const m = meta && typeof meta === 'object' ? meta : {};
  const errs: FieldError[] = [];
  const generateName = typeof m.generateName === 'string' ? m.generateName : '';
  if (generateName) for (const msg of validateName(opts.nameRule, generateName, true)) errs.push(invalid('metadata.generateName', generateName, msg));
  const name = typeof m.name === 'string' ? m.name : '';
  if (!name) errs.push(required('metadata.name', 'name or generateName is required'));
  else for (const msg of validateName(opts.nameRule, name, false)) errs.push(invalid('metadata.name', name, msg));
  errs.push(...validateMetaCommon(m, opts));
  return errs;
}

function validateMetaCommon(m: any, opts: ObjectMetaOptions): FieldError[] {
  const errs: FieldError[] = [];
  const ns = typeof m.namespace === 'string' ? m.namespace : '';
  if (opts.namespaced) {
    if (!ns) errs.push(required('metadata.namespace'));
    else for (const msg of isDNS1123Label(ns)) errs.push(invalid('metadata.namespace', ns, msg));
  } else if (ns) {
    errs.push(forbidden('metadata.namespace', 'not allowed on this type'));
  }
  errs.push(...nonNegative(m.generation, 'metadata.generation'));
  errs.push(...validateLabels(m.labels, 'metadata.labels'));
  errs.push(...validateAnnotations(m.annotations, 'metadata.annotations'));
  errs.push(...validateOwnerReferences(m.ownerReferences, 'metadata.ownerReferences'));
  errs.push(...validateFinalizers(m.finalizers, 'metadata.finalizers', !opts.custom));
  return errs;
}

/** ValidateImmutableField: `<field>: Invalid value: <new>: field is immutable`. */
export function validateImmutable(newVal: unknown, oldVal: unknown, field: string, valueText?: string): FieldError[] {
  return semanticEqual(newVal, oldVal) ? [] : [invalid(field, newVal ?? null, FIELD_IMMUTABLE, valueText)];
}

/**
 * Metadata checks for an update (ValidateObjectMetaUpdate) beyond re-validating the new metadata:
 * name, namespace, uid, creationTimestamp, deletionTimestamp and deletionGracePeriodSeconds are
 * immutable, generation may not go down, and no finalizer may be added once deletion started.
 * resourceVersion presence is left to the store (unconditional updates copy the stored one).
 */
export function validateObjectMetaUpdate(meta: any, oldMeta: any): FieldError[] {
  const m = meta ?? {};
  const o = oldMeta ?? {};
  const errs: FieldError[] = [];
  if (o.deletionTimestamp && Array.isArray(m.finalizers)) {
    const old = new Set<string>(Array.isArray(o.finalizers) ? o.finalizers : []);
    const extra = [...new Set<string>(m.finalizers)].filter((f) => !old.has(f)).sort();
    if (extra.length) {
      errs.push(forbidden('metadata.finalizers', `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(extra)}`));
    }
  }
  if (typeof m.generation === 'number' && typeof o.generation === 'number' && m.generation < o.generation) {
    errs.push(invalid('metadata.generation', m.generation, 'must not be decremented'));
  }
  errs.push(...validateImmutable(m.name ?? '', o.name ?? '', 'metadata.name'));
  errs.push(...validateImmutable(m.namespace ?? '', o.namespace ?? '', 'metadata.namespace'));
  errs.push(...validateImmutable(m.uid ?? '', o.uid ?? '', 'metadata.uid'));
  errs.push(...validateImmutable(m.creationTimestamp, o.creationTimestamp, 'metadata.creationTimestamp', goTime(m.creationTimestamp)));
  errs.push(...validateImmutable(m.deletionTimestamp, o.deletionTimestamp, 'metadata.deletionTimestamp', goTime(m.deletionTimestamp)));
  errs.push(...validateImmutable(m.deletionGracePeriodSeconds, o.deletionGracePeriodSeconds, 'metadata.deletionGracePeriodSeconds'));
  return errs;
}

/** metav1.Time prints through time.Time.String(): `2024-01-02 03:04:05 +0000 UTC`. */
function goTime(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})Z$/.exec(v);
  return m ? `${m[1]} ${m[2]} +0000 UTC` : undefined;
}

// ---- label selectors ----

/** ValidateLabelSelector (metav1 unversioned validation). */
export function validateLabelSelector(sel: any, field: string): FieldError[] {
  if (!sel || typeof sel !== 'object') return [];
  const errs = validateLabels(sel.matchLabels, child(field, 'matchLabels'));
  const exprs = Array.isArray(sel.matchExpressions) ? sel.matchExpressions : [];
  exprs.forEach((r: any, i: number) => {
    const p = index(child(field, 'matchExpressions'), i);
    const values = Array.isArray(r?.values) ? r.values : [];
    switch (r?.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(required(child(p, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(forbidden(child(p, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(invalid(child(p, 'operator'), r?.operator ?? '', 'not a valid selector operator'));
    }
    for (const m of isQualifiedName(String(r?.key ?? ''))) errs.push(invalid(child(p, 'key'), r?.key ?? '', m));
  });
  return errs;
}

/** True when the selector can be turned into a labels.Selector (LabelSelectorAsSelector succeeds). */
export function selectorIsValid(sel: any): boolean {
  return sel === undefined || sel === null || validateLabelSelector(sel, 's').length === 0;
}

/** LabelSelectorAsSelector(sel).Matches(labels): nil matches nothing, {} matches everything. */
export function selectorMatches(sel: any, labels: Record<string, string> | undefined): boolean {
  if (!sel || typeof sel !== 'object') return false;
  const l = labels ?? {};
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const r of Array.isArray(sel.matchExpressions) ? sel.matchExpressions : []) {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    const vals: string[] = r.values ?? [];
    if (r.operator === 'In' && !(has && vals.includes(l[r.key]))) return false;
    if (r.operator === 'NotIn' && has && vals.includes(l[r.key])) return false;
    if (r.operator === 'Exists' && !has) return false;
    if (r.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** A selector with neither matchLabels nor matchExpressions. */
export function selectorIsEmpty(sel: any): boolean {
  return Object.keys(sel?.matchLabels ?? {}).length + (sel?.matchExpressions?.length ?? 0) === 0;
}
