// Structural defaulting of custom objects (apiextensions v1 `default`), as kube-apiserver does it
// on every write's object before validation:
//   1. a null where the schema is not nullable and has no default is dropped (kube prunes such
//      nulls when it decodes a custom object);
//   2. a missing property with a default, or a non-nullable null, takes a copy of the default;
//   3. then the same, recursively, inside every property, additionalProperties value and array
//      item, defaults just set included (a default object gets its own fields' defaults).
// Defaults apply only where the parent exists: `spec.replicas` is defaulted when there is a spec.
import { ownValue, setOwnKey } from '../codec/own-keys';

type Schema = Record<string, any>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function hasDefault(s: Schema | undefined): boolean {
  return s !== undefined && s.default !== undefined;
}

/** A fresh copy each time: objects must not share a default's arrays or maps. */
function copyDefault(s: Schema): unknown {
  const v: unknown = s.default;
  return v === null || typeof v !== 'object' ? v : JSON.parse(JSON.stringify(v));
}

function schemaOfKey(s: Schema, key: string): Schema | undefined {
  const prop = s.properties ? ownValue(s.properties, key) : undefined;
  if (isObject(prop)) return prop;
  return isObject(s.additionalProperties) ? s.additionalProperties : undefined;
}

/** Step 1 (kube's PruneNonNullableNullsWithoutDefaults). Nulls inside arrays stay (validation reports them). */
function pruneNulls(x: unknown, s: Schema | undefined): void {
  if (!s) return;
  if (Array.isArray(x)) {
    if (isObject(s.items)) for (const v of x) pruneNulls(v, s.items);
    return;
  }
  if (!isObject(x)) return;
  for (const key of Object.keys(x)) {
    const sub = schemaOfKey(s, key);
    if (!sub) continue;
    if (x[key] === null && !hasDefault(sub) && !sub.nullable) delete x[key];
    else pruneNulls(x[key], sub);
  }
}

const nonNullableNull = (v: unknown, s: Schema | undefined): boolean => v === null && s !== undefined && !s.nullable;

/** Steps 2 and 3 (kube's structuraldefaulting.Default); true when it set anything. */
function applyDefaults(x: unknown, s: Schema | undefined): boolean {
  if (!s) return false;
  let changed = false;
  if (Array.isArray(x)) {
    const items = isObject(s.items) ? s.items : undefined;
    if (!items) return false;
    x.forEach((v, i) => {
      if (nonNullableNull(v, items) && hasDefault(items)) {
        x[i] = copyDefault(items);
        changed = true;
      }
      if (applyDefaults(x[i], items)) changed = true;
    });
    return changed;
  }
  if (!isObject(x)) return false;
  if (isObject(s.properties)) {
    for (const [key, prop] of Object.entries(s.properties as Record<string, Schema>)) {
      if (hasDefault(prop) && (!Object.hasOwn(x, key) || nonNullableNull(x[key], prop))) {
        setOwnKey(x, key, copyDefault(prop));
        changed = true;
      }
    }
  }
  const additional = isObject(s.additionalProperties) ? s.additionalProperties : undefined;
  for (const key of Object.keys(x)) {
    const prop = s.properties ? ownValue(s.properties, key) : undefined;
    if (isObject(prop)) {
      if (applyDefaults(x[key], prop)) changed = true;
    } else if (additional) {
      if (nonNullableNull(x[key], additional) && hasDefault(additional)) {
        setOwnKey(x, key, copyDefault(additional));
        changed = true;
      }
      if (applyDefaults(x[key], additional)) changed = true;
    }
  }
  return changed;
}

/** Prunes non-nullable nulls and applies the schema's defaults to `obj`, in place. */
export function defaultCustomObject(obj: Record<string, unknown>, schema: Schema | undefined): void {
  if (!schema) return;
  pruneNulls(obj, schema);
  applyDefaults(obj, schema);
}

/**
 * Defaulting of an object read from storage (kube's storage decoder): the schema's defaults only,
 * no null pruning. True when it set anything.
 */
export function defaultStoredCustomObject(obj: Record<string, unknown>, schema: Schema): boolean {
  return applyDefaults(obj, schema);
}

/** Whether any node of a structural schema declares a default (most CRDs have none: no read cost). */
export function schemaHasDefaults(s: unknown): boolean {
  if (!isObject(s)) return false;
  if (s.default !== undefined) return true;
  if (isObject(s.properties) && Object.values(s.properties).some(schemaHasDefaults)) return true;
  return schemaHasDefaults(s.items) || schemaHasDefaults(s.additionalProperties);
}
