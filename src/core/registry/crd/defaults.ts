// Structural defaulting of custom objects (apiextensions v1 `default`), as kube-apiserver does it
// on every write's object before validation:
//   1. a null where the schema is not nullable and has no default is dropped (kube prunes such
//      nulls when it decodes a custom object);
//   2. a missing property with a default, or a non-nullable null, takes a copy of the default;
//   3. then the same, recursively, inside every property, additionalProperties value and array
//      item, defaults just set included (a default object gets its own fields' defaults).
// Defaults apply only where the parent exists: `spec.replicas` is defaulted when there is a spec.

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
  const prop = s.properties?.[key];
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

/** Steps 2 and 3 (kube's structuraldefaulting.Default). */
function applyDefaults(x: unknown, s: Schema | undefined): void {
  if (!s) return;
  if (Array.isArray(x)) {
    const items = isObject(s.items) ? s.items : undefined;
    if (!items) return;
    x.forEach((v, i) => {
      if (nonNullableNull(v, items) && hasDefault(items)) x[i] = copyDefault(items);
      applyDefaults(x[i], items);
    });
    return;
  }
  if (!isObject(x)) return;
  if (isObject(s.properties)) {
    for (const [key, prop] of Object.entries(s.properties as Record<string, Schema>)) {
      if (hasDefault(prop) && (!(key in x) || nonNullableNull(x[key], prop))) x[key] = copyDefault(prop);
    }
  }
  const additional = isObject(s.additionalProperties) ? s.additionalProperties : undefined;
  for (const key of Object.keys(x)) {
    const prop = s.properties?.[key];
    if (isObject(prop)) applyDefaults(x[key], prop);
    else if (additional) {
      if (nonNullableNull(x[key], additional) && hasDefault(additional)) x[key] = copyDefault(additional);
      applyDefaults(x[key], additional);
    }
  }
}

/** Prunes non-nullable nulls and applies the schema's defaults to `obj`, in place. */
export function defaultCustomObject(obj: Record<string, unknown>, schema: Schema | undefined): void {
  if (!schema) return;
  pruneNulls(obj, schema);
  applyDefaults(obj, schema);
}
