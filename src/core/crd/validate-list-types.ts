// The uniqueness rules of x-kubernetes-list-type `set` (whole items) and `map` (the
// x-kubernetes-list-map-keys) in a custom object, as apiextensions' listtype package checks them
// after schema validation: only the first repeat of a value is reported, worded with Go's %#v
// of the item (a set) or of its keys (a map).
import type { FieldError } from '../meta/status';

type Schema = Record<string, any>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's %#v of a value decoded from JSON into interface{}. */
function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v !== 'object') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  const keys = Object.keys(v).sort();
  return `map[string]interface {}{${keys.map((k) => `${JSON.stringify(k)}:${goSharpV((v as Record<string, unknown>)[k])}`).join(', ')}}`;
}

/** A value as Go would print it in a field error: %q for strings, %v for scalars, %#v otherwise. */
function duplicate(field: string, value: unknown): FieldError {
  const valueText = typeof value === 'string' ? JSON.stringify(value) : typeof value === 'number' || typeof value === 'boolean' ? String(value) : goSharpV(value);
  return { type: 'FieldValueDuplicate', field, value, valueText };
}

/** Indexes of the first repeat of each value (compared as Go compares scalars, compounds by their JSON). */
function firstRepeats(items: unknown[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  items.forEach((x, i) => {
    const key = isObject(x) || Array.isArray(x) ? `c${JSON.stringify(sortKeys(x))}` : `s${typeof x}:${String(x)}`;
    const times = seen.get(key) ?? 0;
    seen.set(key, times + 1);
    if (times === 1) out.push(i);
  });
  return out;
}

/** Go's json.Marshal writes map keys sorted. */
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = Object.create(null);
  for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k]);
  return out;
}

function validateListMap(path: string, schema: Schema, items: unknown[], errs: FieldError[]): void {
  const bad = items.findIndex((x) => x !== null && !isObject(x));
  if (bad !== -1) {
    errs.push({ type: 'FieldValueInvalid', field: `${path}[${bad}]`, value: items[bad], detail: 'must be an object for an array of list-type map' });
    return;
  }
  const keyFields: string[] = Array.isArray(schema['x-kubernetes-list-map-keys']) ? schema['x-kubernetes-list-map-keys'] : [];
  const keys = items.map((x) => {
    const key: Record<string, unknown> = {};
    if (isObject(x)) for (const f of keyFields) if (Object.hasOwn(x, f)) key[f] = x[f];
    return key;
  });
  for (const i of firstRepeats(keys)) errs.push(duplicate(`${path}[${i}]`, keys[i]));
}

function validateValue(path: string, schema: Schema | undefined, value: unknown, errs: FieldError[]): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    const listType = schema['x-kubernetes-list-type'];
    if (listType === 'set') for (const i of firstRepeats(value)) errs.push(duplicate(`${path}[${i}]`, value[i]));
    else if (listType === 'map' && value.length > 0) validateListMap(path, schema, value, errs);
    if (isObject(schema.items)) value.forEach((item, i) => validateValue(`${path}[${i}]`, schema.items, item, errs));
  } else if (isObject(value)) {
    validateListSetsAndMaps(path, schema, value, errs);
  }
}

/** ValidateListSetsAndMaps: walks properties and additionalProperties of an object. */
export function validateListSetsAndMaps(path: string, schema: Schema, obj: Record<string, unknown>, errs: FieldError[]): void {
  const additional = isObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
  for (const k of Object.keys(obj)) {
    if (additional) validateValue(`${path}[${k}]`, additional, obj[k], errs);
    const sub = isObject(schema.properties) && Object.hasOwn(schema.properties, k) ? schema.properties[k] : undefined;
    if (sub) validateValue(path ? `${path}.${k}` : k, sub, obj[k], errs);
  }
}
