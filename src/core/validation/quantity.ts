// resource.Quantity: parsing, comparison and the canonical string form kube-apiserver prints
// (k8s.io/apimachinery/pkg/api/resource). Values are kept exact as BigInt * 10^scale.

export const QUANTITY_REGEX_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** Exact value = unscaled * 10^scale, rounded up to nano precision (scale >= -9) like upstream. */
  unscaled: bigint;
  scale: number;
  format: QuantityFormat;
}

const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

/** How many spellings parseQuantity remembers (requests and limits repeat from object to object). */
const PARSED_MAX = 4096;
/** Parsed quantities by spelling (frozen, shared; null: not a quantity). */
const parsedQuantities = new Map<string, Quantity | null>();

/**
 * Parses a quantity string; returns undefined when upstream's ParseQuantity would fail. The
 * answer for a spelling is remembered: a pod template's quantities are parsed by validation,
 * defaulting and admission on every write, each parse a regular expression and BigInt work.
 */
export function parseQuantity(input: unknown): Quantity | undefined {
  if (typeof input === 'number' && Number.isFinite(input)) input = String(input);
  if (typeof input !== 'string') return undefined;
  let q = parsedQuantities.get(input);
  if (q === undefined) {
    q = parseQuantityText(input) ?? null;
    if (q) Object.freeze(q);
    if (parsedQuantities.size >= PARSED_MAX) parsedQuantities.clear();
    parsedQuantities.set(input, q);
  }
  return q ?? undefined;
}

function parseQuantityText(input: string): Quantity | undefined {
  const m = /^([+-]?)([0-9]*\.?[0-9]*)(.*)$/.exec(input);
  if (!m || !/[0-9]/.test(m[2])) return undefined;
  const [, sign, num, suffix] = m;
  let format: QuantityFormat;
  let base10 = 0;
  let base2 = 0;
  if (Object.hasOwn(BINARY, suffix)) {
    format = 'BinarySI';
    base2 = BINARY[suffix];
  } else if (Object.hasOwn(DECIMAL, suffix)) {
    format = 'DecimalSI';
    base10 = DECIMAL[suffix];
  } else {
    const e = /^[eE]([+-]?[0-9]+)$/.exec(suffix);
    if (!e) return undefined;
    format = 'DecimalExponent';
    base10 = Number(e[1]);
  }
  const [intPart, fracPart = ''] = num.split('.');
  let unscaled = BigInt((intPart || '0') + fracPart);
  let scale = base10 - fracPart.length;
  if (base2) unscaled *= 1n << BigInt(base2);
  if (sign === '-') unscaled = -unscaled;
  // Upstream keeps at most nano precision and rounds the remainder up (away from zero).
  if (scale < -9) {
    const div = 10n ** BigInt(-9 - scale);
    const q = unscaled / div;
    unscaled = unscaled % div === 0n ? q : q + (unscaled > 0n ? 1n : -1n);
    scale = -9;
  }
  return normalize({ unscaled, scale, format });
}

/** Strips trailing decimal zeros so equal values compare structurally. */
function normalize(q: Quantity): Quantity {
  let { unscaled, scale } = q;
  if (unscaled === 0n) return { unscaled: 0n, scale: 0, format: q.format };
  while (unscaled % 10n === 0n) {
    unscaled /= 10n;
    scale += 1;
  }
  return { unscaled, scale, format: q.format };
}

export function compareQuantity(a: Quantity, b: Quantity): number {
  const s = Math.min(a.scale, b.scale);
  const av = a.unscaled * 10n ** BigInt(a.scale - s);
  const bv = b.unscaled * 10n ** BigInt(b.scale - s);
  return av < bv ? -1 : av > bv ? 1 : 0;
}

export function isZero(q: Quantity): boolean {
  return q.unscaled === 0n;
}

export function isNegative(q: Quantity): boolean {
  return q.unscaled < 0n;
}

const DECIMAL_SUFFIX: Record<number, string> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' };
const BINARY_SUFFIX: Record<number, string> = { 0: '', 10: 'Ki', 20: 'Mi', 30: 'Gi', 40: 'Ti', 50: 'Pi', 60: 'Ei' };

/** Quantity.String(): the canonical form (`1Gi`, `1500m`, `2k`, `1e3`). */
export function formatQuantity(q: Quantity): string {
  if (q.unscaled === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    const small = q.scale <= 0 && compareQuantity(q, { unscaled: 1024n, scale: 0, format }) < 0 && compareQuantity(q, { unscaled: -1024n, scale: 0, format }) > 0;
    // Fractional values (or values under 1Ki) are shown in decimal so no precision is lost.
    if (small || q.scale < 0) format = 'DecimalSI';
  }
  if (format === 'BinarySI') {
    let v = q.unscaled * 10n ** BigInt(q.scale);
    let exp = 0;
    while (exp < 60 && v % 1024n === 0n && v !== 0n) {
      v /= 1024n;
      exp += 10;
    }
    return `${v}${BINARY_SUFFIX[exp]}`;
  }
  // Decimal: pick the exponent as a multiple of 3 with an integral mantissa.
  let { unscaled, scale } = q;
  const rem = ((scale % 3) + 3) % 3;
  if (rem !== 0) {
    unscaled *= 10n ** BigInt(rem);
    scale -= rem;
  }
  while (unscaled % 1000n === 0n && scale < 18) {
    unscaled /= 1000n;
    scale += 3;
  }
  if (format === 'DecimalExponent') return scale === 0 ? `${unscaled}` : `${unscaled}e${scale}`;
  if (scale > 18) {
    unscaled *= 10n ** BigInt(scale - 18);
    scale = 18;
  }
  return `${unscaled}${DECIMAL_SUFFIX[scale]}`;
}

/** Canonical string of a raw quantity value, or the raw text when it does not parse. */
export function canonicalQuantity(raw: unknown): string {
  const q = parseQuantity(raw);
  return q ? formatQuantity(q) : String(raw);
}

// Objects spell the same few quantities again and again (`100m`, `128Mi`); parsing one takes
// BigInt arithmetic, so each spelling's canonical form is worked out once.
const canonicalBySpelling = new Map<string, string | null>();
const CANONICAL_REMEMBERED_MAX = 4096;

/** canonicalQuantity of a string or number that parses as a quantity; undefined when it does not. */
export function canonicalQuantityIfValid(raw: string | number): string | undefined {
  // A number reads as its decimal text (parseQuantity's own first step; NaN and Infinity do not parse either way).
  const spelling = typeof raw === 'number' ? String(raw) : raw;
  let canonical = canonicalBySpelling.get(spelling);
  if (canonical === undefined) {
    const q = parseQuantity(spelling);
    canonical = q ? formatQuantity(q) : null;
    if (canonicalBySpelling.size >= CANONICAL_REMEMBERED_MAX) canonicalBySpelling.clear();
    canonicalBySpelling.set(spelling, canonical);
  }
  return canonical ?? undefined;
}

/** Sum of quantities (keeps the first one's format). */
export function addQuantity(a: Quantity, b: Quantity): Quantity {
  const s = Math.min(a.scale, b.scale);
  const v = a.unscaled * 10n ** BigInt(a.scale - s) + b.unscaled * 10n ** BigInt(b.scale - s);
  return normalize({ unscaled: v, scale: s, format: a.format });
}
