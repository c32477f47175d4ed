// ResourceQuota and LimitRange rules (core/v1 SetDefaults_LimitRangeItem, ValidateResourceQuota
// [Update|StatusUpdate] and ValidateLimitRange, v1.23). The LimitRanger and ResourceQuota
// admission plug-ins read these objects as stored, so what is defaulted here is what they see.
import { type FieldError, child, duplicate, forbidden, index, invalid, key, required } from './errors';
import { goStringSlice } from './gofmt';
import type { KindRules } from './kind-rules';
import { isQualifiedName } from './names';
import { type Quantity, canonicalQuantity, compareQuantity, parseQuantity } from './quantity';
import {
  goQuantity,
  isOvercommitAllowed,
  isStandardQuotaResourceName,
  milli,
  wholeUnits,
  validateContainerResourceName,
  validateQuotaResourceName,
  validateResourceName,
  validateResourceQuantityValue,
} from './resource-names';
import { isObj, type Obj } from './values';
import { setOwnKey } from '../codec/own-keys';


const sortedKeys = (m: unknown): string[] => (isObj(m) ? Object.keys(m).sort() : []);

// ---- ResourceQuota ----

// CrossNamespacePodAffinity is allowed: its feature gate (PodAffinityNamespaceSelector) is on in v1.23.
const QUOTA_SCOPES = new Set(['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity']);
const POD_COMPUTE = new Set(['pods', 'cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);
const EXISTS_ONLY_SCOPES = new Set(['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity']);
const CONFLICTING_SCOPES = [
  ['BestEffort', 'NotBestEffort'],
  ['NotTerminating', 'Terminating'],
];

/** IsResourceQuotaScopeValidForResource: which standard quota resources a scope can count. */
function scopeAppliesTo(scope: string, resource: string): boolean {
  if (scope === 'BestEffort') return resource === 'pods';
  if (QUOTA_SCOPES.has(scope)) return POD_COMPUTE.has(resource);
  return true;
}

function validateResourceList(list: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of sortedKeys(list)) {
    const p = key(path, k);
    errs.push(...validateQuotaResourceName(k, p), ...validateResourceQuantityValue(k, (list as Obj)[k], p));
  }
  return errs;
}

const goScopes = (scopes: unknown) => goStringSlice(Array.isArray(scopes) ? scopes.map(String) : null, 'core.ResourceQuotaScope');

function goScopeSelector(sel: Obj): string {
  const exprs = Array.isArray(sel.matchExpressions)
    ? `[]core.ScopedResourceSelectorRequirement{${sel.matchExpressions
        .map((r: Obj) => `core.ScopedResourceSelectorRequirement{ScopeName:${JSON.stringify(String(r?.scopeName ?? ''))}, Operator:${JSON.stringify(String(r?.operator ?? ''))}, Values:${goStringSlice(Array.isArray(r?.values) ? r.values : null)}}`)
        .join(', ')}}`
    : '[]core.ScopedResourceSelectorRequirement(nil)';
  return `core.ScopeSelector{MatchExpressions:${exprs}}`;
}

/** The standard quota resources in spec.hard a scope cannot count: one error per pair. */
function unsupportedForScope(scope: string, hard: string[]): number {
  return hard.filter((k) => isStandardQuotaResourceName(k) && !scopeAppliesTo(scope, k)).length;
}

function validateScopes(spec: Obj, hard: string[]): FieldError[] {
  const scopes: unknown[] = Array.isArray(spec.scopes) ? spec.scopes : [];
  if (scopes.length === 0) return [];
  const errs: FieldError[] = [];
  const text = goScopes(spec.scopes);
  for (const s of scopes) {
    const scope = String(s);
    if (!QUOTA_SCOPES.has(scope)) errs.push(invalid('spec.scopes', spec.scopes, 'unsupported scope', text));
    for (let i = unsupportedForScope(scope, hard); i > 0; i--) errs.push(invalid('spec.scopes', spec.scopes, 'unsupported scope applied to resource', text));
  }
  const set = new Set(scopes.map(String));
  for (const pair of CONFLICTING_SCOPES) if (pair.every((s) => set.has(s))) errs.push(invalid('spec.scopes', spec.scopes, 'conflicting scopes', text));
  return errs;
}

function validateScopeSelector(spec: Obj, hard: string[]): FieldError[] {
  if (!isObj(spec.scopeSelector)) return [];
  const path = 'spec.scopeSelector.matchExpressions';
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const exprs: unknown[] = Array.isArray(spec.scopeSelector.matchExpressions) ? spec.scopeSelector.matchExpressions : [];
  for (const e of exprs) {
    const req: Obj = isObj(e) ? e : {};
    const scope = String(req.scopeName ?? '');
    const op = String(req.operator ?? '');
    const values: unknown[] = Array.isArray(req.values) ? req.values : [];
    if (!QUOTA_SCOPES.has(scope)) errs.push(invalid(`${path}.scopeName`, scope, 'unsupported scope'));
    for (let i = unsupportedForScope(scope, hard); i > 0; i--) {
      errs.push(invalid(path, spec.scopeSelector, 'unsupported scope applied to resource', goScopeSelector(spec.scopeSelector)));
    }
    if (EXISTS_ONLY_SCOPES.has(scope) && op !== 'Exists') {
      errs.push(
        invalid(
          `${path}.operator`,
          op,
          "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    }
    if (op === 'In' || op === 'NotIn') {
      if (values.length === 0) errs.push(required(`${path}.values`, "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
    } else if (op === 'Exists' || op === 'DoesNotExist') {
      if (values.length !== 0) {
        errs.push(invalid(`${path}.values`, values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector", goStringSlice(values.map(String))));
      }
    } else {
      errs.push(invalid(`${path}.operator`, op, 'not a valid selector operator'));
    }
    seen.add(scope);
  }
  // Upstream reports this pair on the selector's path with spec.scopes as the value.
  for (const pair of CONFLICTING_SCOPES) if (pair.every((s) => seen.has(s))) errs.push(invalid(path, spec.scopes ?? null, 'conflicting scopes', goScopes(spec.scopes)));
  return errs;
}

function validateQuotaSpec(quota: Obj): FieldError[] {
  const spec: Obj = isObj(quota.spec) ? quota.spec : {};
  const hard = sortedKeys(spec.hard);
  return [...validateResourceList(spec.hard, 'spec.hard'), ...validateScopes(spec, hard), ...validateScopeSelector(spec, hard)];
}

function validateQuotaStatus(quota: Obj): FieldError[] {
  const status: Obj = isObj(quota.status) ? quota.status : {};
  return [...validateResourceList(status.hard, 'status.hard'), ...validateResourceList(status.used, 'status.used')];
}

function validateQuotaUpdate(quota: Obj, old: Obj, subresource = ''): FieldError[] {
  if (subresource === 'status') return validateQuotaStatus(quota);
  const errs = validateQuotaSpec(quota);
  // Scopes compare as sets: reordering them is not a change.
  const now = new Set<string>(Array.isArray(quota.spec?.scopes) ? quota.spec.scopes.map(String) : []);
  const before = new Set<string>(Array.isArray(old?.spec?.scopes) ? old.spec.scopes.map(String) : []);
  if (now.size !== before.size || [...now].some((s) => !before.has(s))) {
    errs.push(invalid('spec.scopes', quota.spec?.scopes ?? null, 'field is immutable', goScopes(quota.spec?.scopes)));
  }
  return errs;
}

export const resourceQuotaRules: KindRules = {
  // Create resets status (the strategy), so validating it here only matters for status writes.
  validateCreate: (quota) => [...validateQuotaSpec(quota), ...validateQuotaStatus(quota)],
  validateUpdate: validateQuotaUpdate,
};

// ---- LimitRange ----

const LIMIT_TYPES = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);

/** SetDefaults_LimitRangeItem: a Container item's default ← max, defaultRequest ← default, then min. */
function defaultLimitRange(lr: Obj): void {
  const limits: unknown[] = Array.isArray(lr.spec?.limits) ? lr.spec.limits : [];
  for (const item of limits) {
    if (!isObj(item) || item.type !== 'Container') continue;
    const def: Obj = isObj(item.default) ? { ...item.default } : {};
    const req: Obj = isObj(item.defaultRequest) ? { ...item.defaultRequest } : {};
    for (const [k, v] of Object.entries(isObj(item.max) ? item.max : {})) if (!Object.hasOwn(def, k)) setOwnKey(def, k, v);
    for (const [k, v] of Object.entries(def)) if (!Object.hasOwn(req, k)) setOwnKey(req, k, v);
    for (const [k, v] of Object.entries(isObj(item.min) ? item.min : {})) if (!Object.hasOwn(req, k)) setOwnKey(req, k, v);
    // Empty maps are omitted when Go marshals the item (omitempty).
    if (Object.keys(def).length) item.default = def;
    if (Object.keys(req).length) item.defaultRequest = req;
  }
}

function validateLimitType(type: string, path: string): FieldError[] {
  const errs = isQualifiedName(type).map((m) => invalid(path, type, m));
  if (errs.length === 0 && !type.includes('/') && !LIMIT_TYPES.has(type)) errs.push(invalid(path, type, 'must be a standard limit type or fully qualified'));
  return errs;
}

type Bounds = Record<'min' | 'max' | 'default' | 'defaultRequest' | 'maxLimitRequestRatio', Map<string, { q: Quantity; raw: unknown }>>;

/** Go's %f: six decimals, and infinities as +Inf/-Inf. */
function goFloat(f: number): string {
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  return Number.isNaN(f) ? 'NaN' : f.toFixed(6);
}

const MAX_MILLI_VALUE = 9223372036854775n; // math.MaxInt64 / 1000

/** The pairwise checks of one resource of one item (min ≤ defaultRequest ≤ default ≤ max, ratios). */
function validateBounds(b: Bounds, k: string, ip: string): FieldError[] {
  const errs: FieldError[] = [];
  const [min, max, def, req, ratio] = [b.min.get(k), b.max.get(k), b.default.get(k), b.defaultRequest.get(k), b.maxLimitRequestRatio.get(k)];
  const s = (v: { raw: unknown }) => canonicalQuantity(v.raw);
  const bad = (field: string, v: { raw: unknown }, detail: string) => errs.push(invalid(key(child(ip, field), k), s(v), detail, goQuantity(v.raw)));
  if (min && max && compareQuantity(min.q, max.q) > 0) bad('min', min, `min value ${s(min)} is greater than max value ${s(max)}`);
  if (req && min && compareQuantity(min.q, req.q) > 0) bad('defaultRequest', req, `min value ${s(min)} is greater than default request value ${s(req)}`);
  if (req && max && compareQuantity(req.q, max.q) > 0) bad('defaultRequest', req, `default request value ${s(req)} is greater than max value ${s(max)}`);
  if (req && def && compareQuantity(req.q, def.q) > 0) bad('defaultRequest', req, `default request value ${s(req)} is greater than default limit value ${s(def)}`);
  if (def && min && compareQuantity(min.q, def.q) > 0) bad('default', min, `min value ${s(min)} is greater than default value ${s(def)}`);
  if (def && max && compareQuantity(def.q, max.q) > 0) bad('default', max, `default value ${s(def)} is greater than max value ${s(max)}`);
  if (ratio && compareQuantity(ratio.q, { unscaled: 1n, scale: 0, format: 'DecimalSI' }) < 0) bad('maxLimitRequestRatio', ratio, `ratio ${s(ratio)} is less than 1`);
  if (ratio && min && max) {
    // Upstream compares in thousandths when every value fits, else in whole units.
    let r = Number(wholeUnits(ratio.q));
    let lo = wholeUnits(min.q);
    let hi = wholeUnits(max.q);
    if (wholeUnits(ratio.q) < MAX_MILLI_VALUE && lo < MAX_MILLI_VALUE && hi < MAX_MILLI_VALUE) {
      r = Number(milli(ratio.q)) / 1000;
      lo = milli(min.q);
      hi = milli(max.q);
    }
    const limit = Number(hi) / Number(lo);
    if (r > limit) bad('maxLimitRequestRatio', ratio, `ratio ${s(ratio)} is greater than max/min = ${goFloat(limit)}`);
  }
  if (!isOvercommitAllowed(k) && def && req && compareQuantity(def.q, req.q) !== 0) {
    bad('defaultRequest', req, `default value ${s(def)} must equal to defaultRequest value ${s(req)} in ${k}`);
  }
  return errs;
}

function validateLimitItem(item: Obj, ip: string, seen: Set<string>): FieldError[] {
  const type = String(item.type ?? '');
  const errs = validateLimitType(type, child(ip, 'type'));
  if (seen.has(type)) errs.push(duplicate(child(ip, 'type'), type));
  seen.add(type);
  const b: Bounds = { min: new Map(), max: new Map(), default: new Map(), defaultRequest: new Map(), maxLimitRequestRatio: new Map() };
  const keys = new Set<string>();
  const collect = (field: keyof Bounds) => {
    for (const k of sortedKeys(item[field])) {
      const p = key(child(ip, field), k);
      errs.push(...(type === 'Pod' || type === 'Container' ? validateContainerResourceName(k, p) : validateResourceName(k, p)));
      keys.add(k);
      const q = parseQuantity(item[field][k]);
      if (q) b[field].set(k, { q, raw: item[field][k] });
    }
  };
  collect('max');
  collect('min');
  if (type === 'Pod') {
    if (sortedKeys(item.default).length) errs.push(forbidden(child(ip, 'default'), "may not be specified when `type` is 'Pod'"));
    if (sortedKeys(item.defaultRequest).length) errs.push(forbidden(child(ip, 'defaultRequest'), "may not be specified when `type` is 'Pod'"));
  } else {
    collect('default');
    collect('defaultRequest');
  }
  if (type === 'PersistentVolumeClaim' && !(isObj(item.min) && 'storage' in item.min) && !(isObj(item.max) && 'storage' in item.max)) {
    errs.push(required(child(ip, 'limits'), 'either minimum or maximum storage value is required, but neither was provided'));
  }
  collect('maxLimitRequestRatio');
  // Upstream walks a Go map here (random order); sorted keys keep the message stable.
  for (const k of [...keys].sort()) errs.push(...validateBounds(b, k, ip));
  return errs;
}

function validateLimitRange(lr: Obj): FieldError[] {
  const limits: unknown[] = Array.isArray(lr.spec?.limits) ? lr.spec.limits : [];
  const seen = new Set<string>();
  return limits.flatMap((item, i) => validateLimitItem(isObj(item) ? item : {}, index('spec.limits', i), seen));
}

export const limitRangeRules: KindRules = {
  defaults: defaultLimitRange,
  validateCreate: validateLimitRange,
  validateUpdate: validateLimitRange,
};
