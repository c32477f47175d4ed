// Small helpers over plain JSON objects, shared by the per-kind conversions.
import { setOwnKey } from '../codec/own-keys';

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
  for (const [key, value] of entries) if (value !== undefined) setOwnKey(out, key, value);
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
  return keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
}

/** A copy of `obj` without `key`. Built afresh: `delete` would leave a slow dictionary-mode object. */
export function withoutKey(obj: JsonObject, key: string): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(obj)) if (k !== key) setOwnKey(out, k, obj[k]);
  return out;
}

/**
 * Returns a shallow copy of `obj` whose metadata.annotations is replaced (undefined/empty
 * removes it). metadata is copied only when its annotations actually change.
 */
export function withAnnotations(obj: JsonObject, annotations: Record<string, string> | undefined): JsonObject {
  const existing = objectAt(obj, 'metadata');
  const empty = !annotations || isEmpty(annotations);
  if (!existing) return empty ? { ...obj } : { ...obj, metadata: { annotations } };
  if (empty) return 'annotations' in existing ? { ...obj, metadata: withoutKey(existing, 'annotations') } : { ...obj };
  if (existing.annotations === annotations) return { ...obj };
  return { ...obj, metadata: { ...existing, annotations } };
}

function isEmpty(map: object): boolean {
  for (const _ in map) return false;
  return true;
}

/** metadata.annotations as it is in `obj` (callers must not mutate it), or an empty map. */
export function annotationsIn(obj: JsonObject): Readonly<Record<string, string>> {
  return (objectAt(objectAt(obj, 'metadata'), 'annotations') ?? {}) as Record<string, string>;
}

/** Replaces one key's value keeping the key's position; removes it when value is undefined. */
export function replaceKey(obj: JsonObject, key: string, newKey: string, value: unknown): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k !== key) setOwnKey(out, k, v);
    else if (value !== undefined) setOwnKey(out, newKey, value);
  }
  return out;
}
