// Validation of a custom object against its CRD's structural schema (OpenAPI v3 subset), with
// kube-apiserver's wording (`spec.replicas: Invalid value: "string": spec.replicas in body must
// be of type integer: "string"` — a type error's value is the type it found).
import type { FieldError } from '../meta/status';
import { validateComposites } from './validate-composite';
import { validateListSetsAndMaps } from './validate-list-types';
import { validateEmbeddedResources } from './validate-embedded';
import { ownValue } from '../codec/own-keys';

type Schema = Record<string, any>;

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(type: string, v: unknown): boolean {
  const t = typeName(v);
  if (type === 'number') return t === 'number' || t === 'integer';
  return t === type;
}

function child(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

export function validateAgainstSchema(value: unknown, schema: Schema | undefined, path: string, errs: FieldError[]): void {
  if (!schema) return;
  if (value === null) {
    if (!schema.nullable && schema.type) errs.push({ type: 'FieldValueTypeInvalid', field: path, value: 'null', detail: `${path} in body must be of type ${schema.type}: "null"` });
    return;
  }
  if (schema['x-kubernetes-int-or-string']) {
    if (typeof value !== 'string' && !(typeof value === 'number' && Number.isInteger(value))) {
      errs.push({ type: 'FieldValueTypeInvalid', field: path, value: typeName(value), detail: `${path} in body must be of type integer,string: ${JSON.stringify(typeName(value))}` });
      return;
    }
    // An int-or-string value goes on to its anyOf branches and, as a string, to its pattern.
  } else if (schema.type && !typeMatches(schema.type, value)) {
    errs.push({ type: 'FieldValueTypeInvalid', field: path, value: typeName(value), detail: `${path} in body must be of type ${schema.type}: ${JSON.stringify(typeName(value))}` });
    return;
  }
  validateComposites(value, schema, path, errs, validateAgainstSchema);
  if (Array.isArray(schema.enum) && !schema.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(value))) {
    errs.push({ type: 'FieldValueNotSupported', field: path, value, supported: schema.enum.map((e: unknown) => (typeof e === 'string' ? e : JSON.stringify(e))) });
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && (schema.exclusiveMinimum ? value <= schema.minimum : value < schema.minimum)) {
      errs.push({ type: 'FieldValueInvalid', field: path, value, detail: `${path} in body should be greater than ${schema.exclusiveMinimum ? '' : 'or equal to '}${schema.minimum}` });
    }
    if (schema.maximum !== undefined && (schema.exclusiveMaximum ? value >= schema.maximum : value > schema.maximum)) {
      errs.push({ type: 'FieldValueInvalid', field: path, value, detail: `${path} in body should be less than ${schema.exclusiveMaximum ? '' : 'or equal to '}${schema.maximum}` });
    }
    if (schema.multipleOf && value % schema.multipleOf !== 0) errs.push({ type: 'FieldValueInvalid', field: path, value, detail: `${path} in body should be a multiple of ${schema.multipleOf}` });
  }
  if (typeof value === 'string') {
    const len = [...value].length;
    if (schema.maxLength !== undefined && len > schema.maxLength) errs.push({ type: 'FieldValueTooLong', field: path, value, detail: `must have at most ${schema.maxLength} bytes` });
    if (schema.minLength !== undefined && len < schema.minLength) errs.push({ type: 'FieldValueInvalid', field: path, value, detail: `${path} in body should be at least ${schema.minLength} chars long` });
    if (schema.pattern) {
      let re: RegExp | undefined;
      try {
        re = new RegExp(schema.pattern, 'u');
      } catch {
        re = undefined;
      }
      if (re && !re.test(value)) errs.push({ type: 'FieldValueInvalid', field: path, value, detail: `${path} in body should match '${schema.pattern}'` });
    }
  }
  if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > schema.maxItems) errs.push({ type: 'FieldValueTooMany', field: path, value, detail: `must have at most ${schema.maxItems} items` });
    if (schema.minItems !== undefined && value.length < schema.minItems) errs.push({ type: 'FieldValueInvalid', field: path, value, detail: `${path} in body should have at least ${schema.minItems} items` });
    value.forEach((item, i) => validateAgainstSchema(item, schema.items, `${path}[${i}]`, errs));
    return;
  }
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const req of schema.required ?? []) {
      if (obj[req] === undefined) errs.push({ type: 'FieldValueRequired', field: child(path, req) });
    }
    const keys = Object.keys(obj);
    if (schema.maxProperties !== undefined && keys.length > schema.maxProperties) errs.push({ type: 'FieldValueTooMany', field: path, value, detail: `must have at most ${schema.maxProperties} items` });
    if (schema.minProperties !== undefined && keys.length < schema.minProperties) errs.push({ type: 'FieldValueInvalid', field: path, value, detail: `${path} in body should have at least ${schema.minProperties} properties` });
    for (const k of keys) {
      const sub = (schema.properties ? (ownValue(schema.properties, k) as typeof schema.properties[string] | undefined) : undefined) ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      validateAgainstSchema(obj[k], sub, child(path, k), errs);
    }
  }
}

/**
 * The restrictions a CRD may put on metadata.name and metadata.generateName (the only metadata
 * fields its schema may describe); the rest of metadata is ObjectMeta's own validation.
 */
function validateMetadataNames(metadata: unknown, schema: Schema | undefined, errs: FieldError[]): void {
  const props = schema?.properties;
  if (!props || typeof metadata !== 'object' || metadata === null) return;
  for (const key of ['name', 'generateName']) {
    const value = (metadata as Record<string, unknown>)[key];
    if (value !== undefined && props[key]) validateAgainstSchema(value, props[key], `metadata.${key}`, errs);
  }
}

/**
 * Validate a custom object against the version's schema (apiVersion/kind/metadata are the
 * server's; a schema may only restrict metadata's names), then the embedded resources' type
 * fields and the list-type uniqueness rules, in kube's order.
 */
export function validateCustomObject(obj: Record<string, unknown>, schema: Schema | undefined, old?: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  if (!schema) return errs;
  const { apiVersion: _a, kind: _k, metadata, ...rest } = obj;
  validateMetadataNames(metadata, schema.properties?.metadata, errs);
  const props = { ...(schema.properties ?? {}) };
  delete props.apiVersion;
  delete props.kind;
  delete props.metadata;
  validateAgainstSchema(rest, { ...schema, properties: props, required: (schema.required ?? []).filter((r: string) => !['apiVersion', 'kind', 'metadata'].includes(r)) }, '', errs);
  validateEmbeddedResources('', rest, { ...schema, properties: props }, errs);
  // On update the list rules ratchet: an object stored with repeats (before its CRD said
  // set/map) may still be updated as long as it had them already.
  const oldListErrs: FieldError[] = [];
  if (old) validateListSetsAndMaps('', schema, old, oldListErrs);
  if (oldListErrs.length === 0) validateListSetsAndMaps('', schema, obj, errs);
  return errs;
}
