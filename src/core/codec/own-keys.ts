// Building JSON objects key by key, as decoded JSON has them: every key an ordinary own property.
import { compareUtf8 } from './json-scan';
import { sortInPlace } from './sort-in-place';

type Obj = Record<string, unknown>;

/** Plain assignment, except `__proto__` (a valid ConfigMap key), which must stay an ordinary own key. */
export function setOwnKey(out: Obj, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
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
