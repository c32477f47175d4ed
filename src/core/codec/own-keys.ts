// Building and reading JSON objects key by key, as decoded JSON has them: every key an ordinary
// own property. A key comes from a client and may be any string, `__proto__`, `constructor` or
// `toString` included (valid ConfigMap keys, label keys, field names): plain `obj[key] = v` with
// `__proto__` replaces the object's prototype instead of adding a key, and `obj[key]`, `key in obj`
// or a truthy lookup finds Object.prototype's members for keys the object does not have.
import { compareUtf8 } from './json-scan';
import { sortInPlace } from './sort-in-place';

type Obj = Record<string, unknown>;

/** Plain assignment, except `__proto__` (a valid ConfigMap key), which must stay an ordinary own key. */
export function setOwnKey(out: Obj, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/** Object.assign that keeps every key an own key (Object.assign sets `__proto__` as a prototype). */
export function assignOwn<T extends Obj>(target: T, source: Obj): T {
  for (const k of Object.keys(source)) setOwnKey(target, k, source[k]);
  return target;
}

/** The value of `obj`'s own key `key`; undefined when `obj` has no such own key (never an inherited member). */
export function ownValue(obj: object, key: string): unknown {
  return Object.hasOwn(obj, key) ? (obj as Obj)[key] : undefined;
}

/** A fresh object with no prototype, for maps keyed by client strings: any key is just a key. */
export function emptyMap<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

/** A fixed lookup table without a prototype: looking up a client's string finds only the table's own entries. */
export function lookupTable<V>(entries: Record<string, V>): Readonly<Record<string, V | undefined>> {
  return Object.freeze(Object.assign(emptyMap<V>(), entries));
}

/** `obj` itself when its keys are sorted bytewise (Go's map order), else a shallow copy that is. */
export function withSortedKeys(obj: Obj): Obj {
  const keys = Object.keys(obj);
  let ordered = true;
  for (let i = 1; i < keys.length && ordered; i++) ordered = compareUtf8(keys[i - 1]!, keys[i]!) < 0;
  if (ordered) return obj;
  const out: Obj = {};
  for (const k of sortInPlace(keys, compareUtf8)) setOwnKey(out, k, obj[k]);
  return out;
}
