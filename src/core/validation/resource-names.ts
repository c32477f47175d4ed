// Resource names and quantities in resource lists (ResourceQuota hard/used, LimitRange items),
// as v1.23's core validation and its helper package judge them: which names are standard, which
// are extended (domain-prefixed) and counted in whole units, and how a quantity is printed when
// validation hands the Go value itself to field.Invalid.
import { type FieldError, invalid, IS_NEGATIVE } from './errors';
import { isQualifiedName } from './names';
import { type Quantity, canonicalQuantity, parseQuantity } from './quantity';

const STANDARD_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services',
  'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims', 'storage', 'requests.storage',
  'services.nodeports', 'services.loadbalancers',
]);

// The standard names minus `storage`: quota tracks claims through `requests.storage`.
const STANDARD_QUOTA_RESOURCES = new Set([...STANDARD_RESOURCES].filter((r) => r !== 'storage'));

const INTEGER_RESOURCES = new Set([
  'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps',
  'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers',
]);

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

const isQuotaHugePages = (name: string) => name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');

/** Unprefixed names and names under kubernetes.io/ belong to Kubernetes itself. */
export function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** Domain-prefixed, no `requests.` prefix, and `requests.<name>` still a qualified name. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

/** Resources that may be requested below their limit: native ones other than hugepages. */
export function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !name.startsWith('hugepages-');
}

export function isStandardQuotaResourceName(name: string): boolean {
  return STANDARD_QUOTA_RESOURCES.has(name) || isQuotaHugePages(name);
}

function isIntegerResourceName(name: string): boolean {
  return INTEGER_RESOURCES.has(name) || isExtendedResourceName(name);
}

/** validateResourceName: a qualified name; unprefixed names must be standard ones. */
export function validateResourceName(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalid(path, name, m));
  if (errs.length) return errs;
  if (!name.includes('/') && !STANDARD_RESOURCES.has(name) && !isQuotaHugePages(name)) {
    errs.push(invalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

/** ValidateResourceQuotaResourceName: the above, and unprefixed names must be quota resources. */
export function validateQuotaResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/') && !isStandardQuotaResourceName(name)) errs.push(invalid(path, name, 'must be a standard resource for quota'));
  return errs;
}

/** validateContainerResourceName (LimitRange items of type Pod and Container). */
export function validateContainerResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !name.startsWith('hugepages-')) errs.push(invalid(path, name, 'must be a standard resource for containers'));
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

const BINARY_EXP: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_EXP: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const INT64_MAX = (1n << 63n) - 1n;

/**
 * A resource.Quantity as field.Error prints it when validation passes the value itself (Go's %#v
 * of the struct: Quantity's String method has a pointer receiver, so fmt never calls it), e.g.
 * `resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m", Format:"DecimalSI"}`.
 * The int64 amount is what ParseQuantity makes of the canonical text; values too big for it
 * (which Go keeps as an inf.Dec behind a pointer address) are given as their canonical text.
 */
export function goQuantity(raw: unknown): string {
  const text = canonicalQuantity(raw);
  const m = /^(-?)([0-9]+)(.*)$/.exec(text);
  if (!m || !parseQuantity(raw)) return JSON.stringify(text);
  const [, sign, digits, suffix] = m;
  let value = BigInt(digits);
  let scale = 0;
  let format: string;
  if (Object.hasOwn(BINARY_EXP, suffix)) {
    format = 'BinarySI';
    const exp = BINARY_EXP[suffix];
    // ParseQuantity's precision budget for binary suffixes; past it Go falls back to inf.Dec.
    if (15 - digits.length - Math.trunc((exp * 3) / 10) - 1 < 0) return JSON.stringify(text);
    value <<= BigInt(exp);
  } else if (Object.hasOwn(DECIMAL_EXP, suffix)) {
    format = 'DecimalSI';
    scale = DECIMAL_EXP[suffix];
  } else {
    format = 'DecimalExponent';
    scale = Number(suffix.slice(1));
  }
  if (digits.length > 18 || value > INT64_MAX) return JSON.stringify(text);
  return `resource.Quantity{i:resource.int64Amount{value:${sign}${value}, scale:${scale}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:${JSON.stringify(text)}, Format:"${format}"}`;
}

/** ValidateResourceQuantityValue: non-negative, and whole units for countable resources. */
export function validateResourceQuantityValue(name: string, raw: unknown, path: string): FieldError[] {
  const q = parseQuantity(raw);
  if (!q) return [];
  const errs: FieldError[] = [];
  if (q.unscaled < 0n) errs.push(invalid(path, canonicalQuantity(raw), IS_NEGATIVE));
  // MilliValue() % 1000: a whole number of units (sub-milli parts round up to a milli first).
  if (isIntegerResourceName(name) && !(q.scale >= 0 || milli(q) % 1000n === 0n)) {
    errs.push(invalid(path, canonicalQuantity(raw), 'must be an integer', goQuantity(raw)));
  }
  return errs;
}

/**
 * Quantity.ScaledValue: the value in units of 10^scale, rounded away from zero as Go documents
 * Value() and MilliValue() (`milli` is scale -3, `wholeUnits` scale 0).
 */
function scaled(q: Quantity, to: number): bigint {
  const s = q.scale - to;
  if (s >= 0) return q.unscaled * 10n ** BigInt(s);
  const div = 10n ** BigInt(-s);
  const v = q.unscaled / div;
  if (q.unscaled % div === 0n) return v;
  return q.unscaled > 0n ? v + 1n : v - 1n;
}

export const milli = (q: Quantity): bigint => scaled(q, -3);
export const wholeUnits = (q: Quantity): bigint => scaled(q, 0);
