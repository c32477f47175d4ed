// Test helper for api-proto-keys.test.ts: keys named as Object.prototype members (`__proto__`,
// `constructor`, `toString`, ...) put where clients put keys, a twin name for each that no
// JavaScript object inherits, and a check that nothing reached the built-in prototypes.
// Used only by *.test.ts files.

/** Every member name of Object.prototype, `__proto__` included. */
export const PROTO_NAMES: readonly string[] = Object.getOwnPropertyNames(Object.prototype);

/**
 * The ordinary name a proto name is compared with: the same text and one more letter, so it is
 * valid or invalid for the same reasons (label keys, ConfigMap keys) and sorts next to it.
 */
export function twinName(name: string): string {
  return `${name}q`;
}

type Json = Record<string, unknown>;

/** A deep copy of a JSON value (own `__proto__` keys stay own keys, as JSON.parse makes them). */
export function copyJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Sets `key` as an own property, whatever its name. */
export function defineKey(obj: Json, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The key paths of every object node (not arrays' items themselves) in `value`, the root included. */
export function objectPaths(value: unknown, prefix: string[] = []): string[][] {
  if (!value || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => objectPaths(v, [...prefix, String(i)]));
  const out = [prefix];
  for (const k of Object.keys(value)) out.push(...objectPaths((value as Json)[k], [...prefix, k]));
  return out;
}

/** A copy of `obj` with `key: value` added at the object node `path` (created as objects where missing). */
export function withKeyAt(obj: Json, path: readonly string[], key: string, value: unknown): Json {
  const out = copyJson(obj);
  let node: Json = out;
  for (const p of path) {
    const next = Object.hasOwn(node, p) ? node[p] : undefined;
    if (!next || typeof next !== 'object') defineKey(node, p, {});
    node = node[p] as Json;
  }
  defineKey(node, key, value);
  return out;
}

/** A patch object holding `key: value` at `path`: `{"a":{"b":{key:value}}}`. */
export function nestedPatch(path: readonly string[], key: string, value: unknown): Json {
  let inner: Json = {};
  defineKey(inner, key, value);
  for (const p of [...path].reverse()) {
    const outer: Json = {};
    defineKey(outer, p, inner);
    inner = outer;
  }
  return inner;
}

/** A JSON pointer for a key path. */
export function pointer(path: readonly string[]): string {
  return path.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** What the built-in prototypes and constructors hold: their own property names and values. */
function snapshot(): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const holders: Record<string, object> = {
    Object, Array, Function, String, Number, Boolean, Symbol,
    'Object.prototype': Object.prototype, 'Array.prototype': Array.prototype, 'Function.prototype': Function.prototype,
    'String.prototype': String.prototype, 'Number.prototype': Number.prototype, 'Boolean.prototype': Boolean.prototype,
  };
  for (const [name, holder] of Object.entries(holders)) {
    out.set(`${name} [[Prototype]]`, Object.getPrototypeOf(holder));
    for (const key of Reflect.ownKeys(holder)) {
      const d = Object.getOwnPropertyDescriptor(holder, key)!;
      if ('value' in d) out.set(`${name}.${String(key)}`, d.value);
      else out.set(`${name}.${String(key)} get`, d.get).set(`${name}.${String(key)} set`, d.set);
    }
  }
  return out;
}

const before = snapshot();

/** Every difference between the built-in prototypes now and when this module loaded. */
export function prototypePollution(): string[] {
  const now = snapshot();
  const out: string[] = [];
  for (const [k, v] of now) if (!before.has(k) || !Object.is(before.get(k), v)) out.push(`${k} changed`);
  for (const k of before.keys()) if (!now.has(k)) out.push(`${k} removed`);
  if (Object.getPrototypeOf({}) !== Object.prototype) out.push('{} has another prototype');
  return out;
}

/** Any proto name not already followed by the twin's letter (the shared CRD's schema names them on both servers). */
const anyProtoName = new RegExp(`(?:${PROTO_NAMES.map((n) => n.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&')).join('|')})(?!q)`, 'g');

/** Does `text` name any proto name (a base object that does cannot tell the two servers apart)? */
export function mentionsProtoName(text: string): boolean {
  anyProtoName.lastIndex = 0;
  return anyProtoName.test(text);
}

/**
 * `text` as it reads with every proto name renamed to its twin (also those left by earlier
 * requests), so the two servers' answers compare equal, and with what differs between two
 * servers anyway (uids, revisions, generated token names, CA certificates) blanked.
 */
export function comparable(text: string): string {
  return text
    .replace(anyProtoName, (n) => twinName(n))
    .replace(/-----BEGIN CERTIFICATE-----[^-]*-----END CERTIFICATE-----/g, 'CERT')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g, 'TIME')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UID')
    .replace(/(\\*")resourceVersion\1:\1\d+\1/g, '$1resourceVersion$1:$1RV$1')
    .replace(/-token-[a-z0-9]{5}\b/g, '-token-XXXXX')
    .replace(/Raw:\[\]uint8\{[^}]*\}/g, 'Raw:BYTES')
    .replace(/resourceVersion: "\d+"/g, 'resourceVersion: "RV"');
}
