// Small helpers over plain JSON objects, shared by the per-kind conversions.

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep copy through JSON: conversions never mutate their input. */
export function cloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Builds an object from entries, leaving out undefined values (Go's omitempty on pointers). */
export function compact(entries: Array<[string, unknown]>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of entries) if (value !== undefined) out[key] = value;
  return out;
}

/** The object at `obj[key]`, or undefined when absent or not an object. */
export function objectAt(obj: JsonObject | undefined, key: string): JsonObject | undefined {
  const value = obj?.[key];
  return isObject(value) ? value : undefined;
}

/** The array at `obj[key]` (objects only), or undefined. */
export function arrayAt(obj: JsonObject | undefined, key: string): JsonObject[] | undefined {
  const value = obj?.[key];
  return Array.isArray(value) ? (value.filter(isObject) as JsonObject[]) : undefined;
}

/** Structural equality of JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => key in b && jsonEqual(a[key], b[key]));
}

/** Returns a copy of `obj` whose metadata.annotations is replaced (undefined/empty removes it). */
export function withAnnotations(obj: JsonObject, annotations: Record<string, string> | undefined): JsonObject {
  const existing = objectAt(obj, 'metadata');
  const empty = !annotations || Object.keys(annotations).length === 0;
  if (!existing && empty) return { ...obj };
  if (existing && empty && !('annotations' in existing)) return { ...obj };
  const metadata = { ...(existing ?? {}) };
  if (annotations && Object.keys(annotations).length > 0) metadata.annotations = annotations;
  else delete metadata.annotations;
  return { ...obj, metadata };
}

export function annotationsOf(obj: JsonObject): Record<string, string> {
  return { ...((objectAt(objectAt(obj, 'metadata'), 'annotations') ?? {}) as Record<string, string>) };
}

/** Replaces one key's value keeping the key's position; removes it when value is undefined. */
export function replaceKey(obj: JsonObject, key: string, newKey: string, value: unknown): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k !== key) out[k] = v;
    else if (value !== undefined) out[newKey] = value;
  }
  return out;
}
