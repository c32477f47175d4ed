// Tables for custom resources: Name plus the CRD's additionalPrinterColumns, or Name + Age
// when the CRD declares none (the apiextensions-apiserver default).
import { NAME_COLUMN, asRecord, column, str } from './format';
import { findResults } from './jsonpath';
import { humanDuration, parseTimestamp } from './time';
import type { ColumnDefinition, KubeObject, PrinterColumnSpec, Printer } from './types';

const DEFAULT_COLUMNS: PrinterColumnSpec[] = [
  { name: 'Age', type: 'date', description: 'Time since the object was created (metadata.creationTimestamp).', jsonPath: '.metadata.creationTimestamp' },
];

/** Go's %v for a float64: shortest digits, exponent form below 1e-4 or from 1e6 on (Go's %g rule). */
function goFloat(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return '0';
  const exp = Math.floor(Math.log10(Math.abs(n)));
  if (exp < -4 || exp >= 6) {
    const [mantissa, e] = n.toExponential().split('e');
    const sign = e.startsWith('-') ? '-' : '+';
    const digits = e.replace(/^[+-]/, '').padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  return String(n);
}

/** Renders a JSON value like Go's fmt.Fprint does after JSONPath evaluation (maps as map[k:v]). */
export function goText(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : goFloat(value);
  if (Array.isArray(value)) return `[${value.map(goText).join(' ')}]`;
  const map = value as Record<string, unknown>;
  return `map[${Object.keys(map)
    .sort()
    .map((k) => `${k}:${goText(map[k])}`)
    .join(' ')}]`;
}

/** cellForJSONValue: typed cells; values that do not fit the declared type become null. */
function typedCell(type: string, value: unknown, now: number): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'string':
      return goText(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const ms = parseTimestamp(value);
      if (ms === null) return '<unknown>';
      if (Number.isNaN(ms)) return '<invalid>';
      return humanDuration(now - ms);
    }
    default:
      return null;
  }
}

function cell(spec: PrinterColumnSpec, obj: KubeObject, now: number): unknown {
  let results: unknown[];
  try {
    results = findResults(spec.jsonPath, obj);
  } catch {
    return null;
  }
  // Only the first match is shown, even for paths like `.items[*].name`.
  return results.length === 0 ? null : typedCell(spec.type, results[0], now);
}

/** Builds the printer for one CRD version's additionalPrinterColumns. */
export function customPrinter(specs: PrinterColumnSpec[]): Printer {
  const used = specs.length > 0 ? specs : DEFAULT_COLUMNS;
  const columns: ColumnDefinition[] = [
    NAME_COLUMN,
    ...used.map((s) =>
      column(s.name, s.type, s.description || `Custom resource definition column (in JSONPath format): ${s.jsonPath}`, s.priority ?? 0, s.format ?? ''),
    ),
  ];
  return {
    columns,
    print: (obj, now) => ({ cells: [str(asRecord(obj.metadata).name), ...used.map((s) => cell(s, obj, now))] }),
  };
}
