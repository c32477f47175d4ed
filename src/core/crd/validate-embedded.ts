// Objects marked x-kubernetes-embedded-resource inside a custom object (a pod template, a
// manifest to deploy) must carry apiVersion and kind as kube's schema objectmeta package checks
// them: both present, strings, not empty, a parsable group/version and a kind that is a DNS-1035
// label in lower case; their metadata as ObjectMeta (apimachinery's generic rules, names as path
// segments, a missing name taken as given).
import type { FieldError } from '../meta/status';
import { isDNS1035Label } from '../validation/names';
import { validateObjectMeta } from '../validation/meta';


const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const child = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** schema.ParseGroupVersion's error, or undefined when the text parses. */
function groupVersionError(text: string): string | undefined {
  if (text.split('/').length <= 2) return undefined;
  return `unexpected GroupVersion string: ${text}`;
}

function validateTypeMeta(path: string, obj: Record<string, unknown>, errs: FieldError[]): void {
  if (!Object.hasOwn(obj, 'apiVersion')) errs.push({ type: 'FieldValueRequired', field: child(path, 'apiVersion') });
  if (!Object.hasOwn(obj, 'kind')) errs.push({ type: 'FieldValueRequired', field: child(path, 'kind') });
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    const field = child(path, k);
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push({ type: 'FieldValueInvalid', field, value: v, detail: 'must be a string' });
      else if (!v) errs.push({ type: 'FieldValueInvalid', field, value: v, detail: 'must not be empty' });
      else {
        const err = groupVersionError(v);
        if (err) errs.push({ type: 'FieldValueInvalid', field, value: v, detail: err });
      }
    } else if (k === 'metadata' && isObject(v)) {
      // The shared ObjectMeta rules name their fields `metadata...`; here they sit under `path`.
      const meta: Record<string, unknown> = { ...v, name: typeof v.name === 'string' && v.name ? v.name : 'fakename' };
      const namespaced = typeof meta.namespace === 'string' && meta.namespace !== '';
      for (const e of validateObjectMeta(meta, { namespaced, nameRule: 'path-segment', custom: true })) {
        errs.push({ ...e, field: e.field ? `${field}${e.field.slice('metadata'.length)}` : field });
      }
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push({ type: 'FieldValueInvalid', field, value: v, detail: 'must be a string' });
      else if (!v) errs.push({ type: 'FieldValueInvalid', field, value: v, detail: 'must not be empty' });
      else {
        const msgs = isDNS1035Label(v.toLowerCase());
        if (msgs.length) errs.push({ type: 'FieldValueInvalid', field, value: v, detail: `may have mixed case, but should otherwise match: ${msgs.join(',')}` });
      }
    }
  }
}

/** Walks the object along its schema (properties, additionalProperties, items). */
export function validateEmbeddedResources(path: string, value: unknown, schema: unknown, errs: FieldError[]): void {
  if (!isObject(schema)) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => validateEmbeddedResources(`${path}[${i}]`, item, schema.items, errs));
    return;
  }
  if (!isObject(value)) return;
  if (schema['x-kubernetes-embedded-resource'] === true) validateTypeMeta(path, value, errs);
  for (const k of Object.keys(value)) {
    if (isObject(schema.properties) && Object.hasOwn(schema.properties, k)) validateEmbeddedResources(child(path, k), value[k], schema.properties[k], errs);
    else if (isObject(schema.additionalProperties)) validateEmbeddedResources(`${path}[${k}]`, value[k], schema.additionalProperties, errs);
  }
}
