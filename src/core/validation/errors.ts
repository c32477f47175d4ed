// Constructors for field errors, named after k8s.io/apimachinery/pkg/util/validation/field so the
// per-kind rules read like the upstream validation they mirror.
import type { FieldError } from '../meta/status';

export type { FieldError };

export function required(field: string, detail = ''): FieldError {
  return detail ? { type: 'FieldValueRequired', field, detail } : { type: 'FieldValueRequired', field };
}

/** `valueText` is set when Go would print the value differently from JSON (maps, structs, pointers). */
export function invalid(field: string, value: unknown, detail: string, valueText?: string): FieldError {
  const e: FieldError = { type: 'FieldValueInvalid', field, value, detail };
  if (valueText !== undefined) e.valueText = valueText;
  return e;
}

export function notSupported(field: string, value: unknown, supported: string[], valueText?: string): FieldError {
  const e: FieldError = { type: 'FieldValueNotSupported', field, value, supported };
  if (valueText !== undefined) e.valueText = valueText;
  return e;
}

export function duplicate(field: string, value: unknown, valueText?: string): FieldError {
  const e: FieldError = { type: 'FieldValueDuplicate', field, value };
  if (valueText !== undefined) e.valueText = valueText;
  return e;
}

export function notFound(field: string, value: unknown): FieldError {
  return { type: 'FieldValueNotFound', field, value };
}

export function forbidden(field: string, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field, detail };
}

/** field.TooLong(path, value, max): upstream v1.23 prints `Too long: must have at most N bytes`. */
export function tooLong(field: string, max: number): FieldError {
  return { type: 'FieldValueTooLong', field, detail: `must have at most ${max} bytes` };
}

/** Field path helpers: `child(p, 'a', 'b')` → `p.a.b`, `index(p, 0)` → `p[0]`, `key(p, 'k')` → `p[k]`. */
export function child(path: string, ...names: string[]): string {
  let p = path;
  for (const n of names) p = p ? `${p}.${n}` : n;
  return p;
}

export function index(path: string, i: number): string {
  return `${path}[${i}]`;
}

export function key(path: string, k: string): string {
  return `${path}[${k}]`;
}

export const IS_NEGATIVE = 'must be greater than or equal to 0';
export const IS_NOT_POSITIVE = 'must be greater than zero';
export const FIELD_IMMUTABLE = 'field is immutable';

/** ValidateNonnegativeField: only checks values that are numbers (absent fields are fine). */
export function nonNegative(value: unknown, field: string): FieldError[] {
  return typeof value === 'number' && value < 0 ? [invalid(field, value, IS_NEGATIVE)] : [];
}
