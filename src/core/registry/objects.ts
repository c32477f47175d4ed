// How objects are held in storage and put back on the wire.
//
// Stored text is the object's JSON *without* kind and apiVersion (see
// docs/decisions/0002-stored-text-without-typemeta.md): a typed list body is then a plain string
// join (kube-apiserver omits kind/apiVersion on items of built-in lists), and a single object or
// a watch event only needs a constant prefix.
import { managedFieldsText } from '../fieldmanager/managed-text';
import { newUuid } from './uuid';
import { setOwnKey } from '../codec/own-keys';
import { goOrderOf, inGoOrder } from './go-order';
import { isCustomApiVersion, sortedDeep, withSortedTypeMeta } from './unstructured-order';

/** Field order of ObjectMeta as kube-apiserver writes it (Go struct order). */
const META_ORDER = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'zzzClusterName',
  'managedFields',
];

export type Obj = Record<string, any>;

/** ObjectMeta fields are `omitempty` in Go: an empty map, list or string is not written. */
function isEmptyValue(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v !== 'object') return false;
  // The first own key answers: no key list per field per write.
  for (const k in v as Obj) if (Object.hasOwn(v as Obj, k)) return false;
  return true;
}

/**
 * `meta` in Go field order without empty fields; `resourceVersion`, when given, replaces meta's (no
 * copy of meta needed). `withManagedFields` false: managedFields left out (the caller splices its text in).
 */
export function orderedMetadata(meta: Obj, resourceVersion?: string, withManagedFields = true): Obj {
  const out: Obj = {};
  for (const k of META_ORDER) {
    if (k === 'managedFields' && !withManagedFields) continue;
    const v = k === 'resourceVersion' && resourceVersion !== undefined ? resourceVersion : meta[k];
    // A zero creationTimestamp is a struct to encoding/json, written as null (objects that are
    // not stored, such as ComponentStatuses, have one).
    if (!isEmptyValue(v) || (k === 'creationTimestamp' && v === null)) out[k] = v;
  }
  for (const k of Object.keys(meta)) {
    // Fields kube's ObjectMeta does not have (only unusual stored objects carry any) keep their order.
    if (Object.hasOwn(out, k) || k === 'resourceVersion' || (k === 'managedFields' && !withManagedFields)) continue;
    if (!isEmptyValue(meta[k])) setOwnKey(out, k, meta[k]);
  }
  return out;
}

/**
 * The stored form: metadata first (ordered), status last, no kind/apiVersion. A built-in kind's
 * fields are in Go's order at every level (see go-order.ts). The text is written member by member
 * (what JSON.stringify of that object writes) rather than built as an object and stringified:
 * no copies of the top level and of metadata per write.
 */
export function toStoredText(obj: Obj, resourceVersion?: string): string {
  if (isCustomApiVersion(obj.apiVersion)) return customStoredText(obj, resourceVersion).text;
  const { metadata, rest } = builtinStoredText(obj, resourceVersion);
  return `{"metadata":${metadata}${rest}`;
}

/** A built-in object's stored text in two pieces: metadata's JSON, and the members after it with the closing brace. */
function builtinStoredText(obj: Obj, resourceVersion: string | undefined): { metadata: string; rest: string } {
  const desc = goOrderOf(obj.apiVersion, obj.kind);
  const ordered = desc ? (inGoOrder(desc, obj, true, false, true) as Obj) : obj;
  let rest = '';
  for (const k of Object.keys(ordered)) {
    if (k === 'kind' || k === 'apiVersion' || k === 'metadata' || k === 'status') continue;
    rest = member(rest, k, ordered[k]);
  }
  return { metadata: metadataText(ordered.metadata ?? {}, resourceVersion), rest: `${member(rest, 'status', ordered.status)}}` };
}

/** `text` followed by `,"key":value` as JSON.stringify writes an object's member (nothing for undefined). */
function member(text: string, key: string, value: unknown): string {
  if (value === undefined) return text;
  const json = JSON.stringify(value);
  // A function or symbol, which JSON.stringify leaves out of an object (none in decoded JSON).
  return json === undefined ? text : `${text},${JSON.stringify(key)}:${json}`;
}

/**
 * JSON.stringify(orderedMetadata(meta)), with managedFields spliced in from the text the field
 * manager remembered for the list (a create's fresh entries are costly to stringify) when it has
 * it and no unusual metadata fields follow managedFields.
 */
function metadataText(meta: Obj, resourceVersion: string | undefined): string {
  const mfText = managedFieldsText(meta.managedFields);
  if (mfText === undefined || (meta.managedFields as unknown[]).length === 0 || hasUnusualFields(meta)) return JSON.stringify(orderedMetadata(meta, resourceVersion));
  const text = JSON.stringify(orderedMetadata(meta, resourceVersion, false));
  return `${text.length > 2 ? `${text.slice(0, -1)},` : '{'}"managedFields":${mfText}}`;
}

const META_FIELDS = new Set(META_ORDER);

/** Fields kube's ObjectMeta does not have (orderedMetadata writes them after managedFields). */
function hasUnusualFields(meta: Obj): boolean {
  for (const k in meta) if (!META_FIELDS.has(k)) return true;
  return false;
}

/**
 * A custom object's stored form: every object's keys sorted (see unstructured-order.ts), without
 * kind and apiVersion; `metaAt` is where metadata's value starts in the text.
 */
function customStoredText(obj: Obj, resourceVersion?: string): { text: string; metaAt: number } {
  const rest: Obj = {};
  for (const k of Object.keys(obj)) if (k !== 'kind' && k !== 'apiVersion' && k !== 'metadata' && obj[k] !== undefined) setOwnKey(rest, k, obj[k]);
  rest.metadata = orderedMetadata(obj.metadata ?? {}, resourceVersion);
  const sorted = sortedDeep(rest) as Obj;
  let text = '{';
  let metaAt = -1;
  for (const k of Object.keys(sorted)) {
    text += `${text.length > 1 ? ',' : ''}${JSON.stringify(k)}:`;
    if (k === 'metadata') metaAt = text.length;
    text += JSON.stringify(sorted[k]);
  }
  return { text: `${text}}`, metaAt };
}

/** `{"kind":"K","apiVersion":"v",` — prepended to stored text to make a full object. */
const prefixes = new Map<string, string>();

export function typeMetaPrefix(kind: string, apiVersion: string): string {
  const key = `${apiVersion}/${kind}`;
  let p = prefixes.get(key);
  if (p === undefined) {
    p = `{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)},`;
    prefixes.set(key, p);
  }
  return p;
}

export function withTypeMeta(storedText: string, kind: string, apiVersion: string): string {
  if (isCustomApiVersion(apiVersion)) return withSortedTypeMeta(storedText, kind, apiVersion);
  return typeMetaPrefix(kind, apiVersion) + storedText.slice(1);
}

export function parseStored(storedText: string, kind: string, apiVersion: string): Obj {
  const o = JSON.parse(storedText) as Obj;
  return { kind, apiVersion, ...o };
}

/** Object as JSON text with kind/apiVersion first and metadata ordered (for responses of objects not read from storage). */
export function objectText(obj: Obj): string {
  return withTypeMeta(toStoredText(obj, obj.metadata?.resourceVersion), obj.kind, obj.apiVersion);
}

let lastSecond = -1;
let lastStamp = '';

/** RFC 3339 with second precision, as metav1.Time marshals (cached per second: writes come in bursts). */
export function rfc3339(ms: number): string {
  const sec = Math.floor(ms / 1000);
  if (sec !== lastSecond) {
    lastStamp = new Date(sec * 1000).toISOString().replace('.000Z', 'Z');
    lastSecond = sec;
  }
  return lastStamp;
}

const RV_PLACEHOLDER = '"resourceVersion":"0"';

/**
 * Stored text with resourceVersion "0", and a function that puts the real revision in. The first
 * `"resourceVersion":"0"` from metadata's start is metadata's: in metadata the keys before it hold
 * strings (whose quotes would be escaped) or managedFields, whose keys are never that one; a
 * built-in object's metadata is serialised first.
 */
export function storedTextTemplate(obj: Obj): { text: string; withRevision: (rev: number) => string } {
  if (!isCustomApiVersion(obj.apiVersion)) {
    // A built-in object's metadata is written first: its resourceVersion is searched for in
    // metadata's text alone, and the whole text is never flattened here (callers read its length;
    // the stored text is withRevision's).
    const { metadata, rest } = builtinStoredText(obj, '0');
    const at = metadata.indexOf(RV_PLACEHOLDER);
    const head = `{"metadata":${metadata.slice(0, at + RV_PLACEHOLDER.length - 2)}`;
    return { text: `{"metadata":${metadata}${rest}`, withRevision: revisionWriter(head, metadata.slice(at + RV_PLACEHOLDER.length - 1) + rest) };
  }
  // A custom object's keys are sorted, so fields before metadata may hold anything: its
  // resourceVersion is searched for from where metadata starts.
  const { text, metaAt } = customStoredText(obj, '0');
  const at = text.indexOf(RV_PLACEHOLDER, metaAt);
  return { text, withRevision: revisionWriter(text.slice(0, at + RV_PLACEHOLDER.length - 2), text.slice(at + RV_PLACEHOLDER.length - 1)) };
}

// Returned, not assigned to a property: the Node host runs under tsx, whose esbuild keepNames
// wraps every function created under an inferred name in a per-creation Object.defineProperty.
function revisionWriter(head: string, tail: string): (rev: number) => string {
  return (rev) => head + rev + tail;
}

/** RFC 3339 with microseconds, as metav1.MicroTime marshals. */
export function rfc3339Micro(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2024-01-01T00:00:00.123Z
  return iso.slice(0, 23) + '000Z';
}

const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** generateName suffix: 5 characters from kube's alphabet (no vowels, no confusable digits). */
export function randomSuffix(n = 5): string {
  const bytes = crypto.getRandomValues(new Uint8Array(n));
  let s = '';
  for (const b of bytes) s += NAME_ALPHABET[b % NAME_ALPHABET.length];
  return s;
}

export function newUid(): string {
  return newUuid();
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ak = Object.keys(a as Obj).filter((k) => (a as Obj)[k] !== undefined);
  const bk = Object.keys(b as Obj).filter((k) => (b as Obj)[k] !== undefined);
  if (ak.length !== bk.length) return false;
  for (const k of ak) if (!Object.hasOwn(b as Obj, k) || !deepEqual((a as Obj)[k], (b as Obj)[k])) return false;
  return true;
}

export function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}
