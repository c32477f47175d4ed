// A CRD's `default` values are checked when the CRD is written, as kube-apiserver's schema
// validation does: a default must carry no field its schema would prune ("must not have unknown
// fields") and must itself validate against the schema it sits in; and a list-map key must be
// required or defaulted, or an item could not be keyed. The validator judges the
// default as a document of its own, so a type error at the default's root reads
// ` in body must be of type integer: "string"` (an empty name before "in body").
//
// Paths follow kube's internal form: when every version has the same schema it is validated once
// as `spec.validation.openAPIV3Schema`, otherwise per version as
// `spec.versions[i].schema.openAPIV3Schema`. Defaults are looked for under properties and items
// (kube forbids them under additionalProperties and does not descend there).
import type { FieldError } from '../meta/status';
import type { Obj } from '../registry/objects';
import { checkFields } from '../validation/fieldvalidation/strict';
import type { SchemaNode } from '../validation/fieldvalidation/types';
import { validateAgainstSchema } from './validate-object';

type Schema = Record<string, any>;

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where each version's schema is reported: one shared path when all versions agree. */
export function schemaPaths(versions: Obj[]): string[] {
  const schemas = versions.map((v) => JSON.stringify(v?.schema?.openAPIV3Schema ?? null));
  const shared = versions.length > 0 && schemas.every((s) => s === schemas[0]);
  return versions.map((_, i) => (shared ? 'spec.validation.openAPIV3Schema' : `spec.versions[${i}].schema.openAPIV3Schema`));
}

export function defaultErrors(schema: unknown, at: string): FieldError[] {
  const errs: FieldError[] = [];
  walk(schema, at, errs);
  return errs;
}

function walk(s: unknown, at: string, errs: FieldError[]): void {
  if (!isObject(s)) return;
  if (s.default !== undefined) checkDefault(s, `${at}.default`, errs);
  if (s['x-kubernetes-list-type'] === 'map') listMapKeyDefaults(s, at, errs);
  if (isObject(s.items)) walk(s.items, `${at}.items`, errs);
  if (isObject(s.properties)) {
    for (const [key, sub] of Object.entries(s.properties)) walk(sub, `${at}.properties[${key}]`, errs);
  }
}

function checkDefault(s: Schema, at: string, errs: FieldError[]): void {
  const value: unknown = s.default;
  if (isObject(value) || Array.isArray(value)) {
    const pruned = checkFields({ value: JSON.parse(JSON.stringify(value)) }, { root: s as SchemaNode, custom: true });
    if (pruned.errors.length > 0) {
      errs.push({ type: 'FieldValueInvalid', field: at, value, detail: 'must not have unknown fields' });
      return;
    }
  }
  const own: FieldError[] = [];
  validateAgainstSchema(value, s, '', own);
  for (const e of own) errs.push({ ...e, field: e.field ? `${at}.${e.field}` : at });
}

/** Every key of a list-map item must be there to key it: required, or defaulted. */
function listMapKeyDefaults(s: Schema, at: string, errs: FieldError[]): void {
  const items = isObject(s.items) ? s.items : undefined;
  const keys: unknown = s['x-kubernetes-list-map-keys'];
  if (!items || !isObject(items.properties) || !Array.isArray(keys)) return;
  const required: unknown[] = Array.isArray(items.required) ? items.required : [];
  for (const key of keys) {
    const prop = items.properties[key as string];
    if (!isObject(prop) || prop.default !== undefined || required.includes(key)) continue;
    errs.push({ type: 'FieldValueRequired', field: `${at}.items.properties[${String(key)}].default`, detail: 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property' });
  }
}
