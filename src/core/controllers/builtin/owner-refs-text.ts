// metadata.ownerReferences read out of an object's stored JSON text without parsing the object.
// The garbage collector sees every write, and a pod is written four times on its way to Running
// (create, binding, two status reports), each time with its owner reference and a few KB of spec,
// status and managedFields: parsing all of it to read one small array was most of the collector's
// cost. The scanner walks the root object's keys up to `metadata` (skipping the values before
// it), then metadata's keys up to `ownerReferences`, and parses only that array. A key with an
// escape in it (JSON.stringify never writes one) falls back to a full parse, so the answer is
// JSON.parse's for any text without duplicated keys.
import type { Obj } from '../../registry/objects';
import type { OwnerRef } from './owner-index';

const QUOTE = 34;
const BACKSLASH = 92;

function skipWs(t: string, i: number): number {
  for (;;) {
    const c = t.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) i++;
    else return i;
  }
}

/** From an opening quote to just past its closing quote. */
function skipString(t: string, i: number): number {
  for (i++; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return -1;
}

/** Past one JSON value starting at i (after whitespace): strings, nested objects and arrays skipped whole. */
function skipValue(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === QUOTE) return skipString(t, i);
  if (c !== 123 && c !== 91) {
    // A number, true, false or null: up to the next delimiter.
    while (i < t.length && !',}] \n\r\t'.includes(t[i])) i++;
    return i;
  }
  let depth = 0;
  for (; i < t.length; i++) {
    const d = t.charCodeAt(i);
    if (d === QUOTE) {
      i = skipString(t, i) - 1;
      if (i < 0) return -1;
    } else if (d === 123 || d === 91) depth++;
    else if (d === 125 || d === 93) {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * Where the value of `key` in the object opening at `i` starts; -1 when the object has no such
 * key, undefined when the text is not what the scanner reads (an escaped key, malformed JSON).
 */
function findKey(t: string, i: number, key: string): number | undefined {
  if (t.charCodeAt(i) !== 123) return undefined;
  i = skipWs(t, i + 1);
  if (t.charCodeAt(i) === 125) return -1;
  for (;;) {
    if (t.charCodeAt(i) !== QUOTE) return undefined;
    const end = skipString(t, i);
    if (end < 0) return undefined;
    const name = t.slice(i + 1, end - 1);
    if (name.includes('\\')) return undefined;
    i = skipWs(t, end);
    if (t.charCodeAt(i) !== 58) return undefined;
    i = skipWs(t, i + 1);
    if (name === key) return i;
    i = skipValue(t, i);
    if (i < 0) return undefined;
    i = skipWs(t, i);
    const c = t.charCodeAt(i);
    if (c === 125) return -1;
    if (c !== 44) return undefined;
    i = skipWs(t, i + 1);
  }
}

function refsOrUndefined(refs: unknown): OwnerRef[] | undefined {
  return Array.isArray(refs) && refs.length > 0 ? (refs as OwnerRef[]) : undefined;
}

/** The object's owner references (as JSON.parse(text).metadata.ownerReferences), or undefined when it has none. */
export function ownerRefsOf(text: string): OwnerRef[] | undefined {
  // A key in the text: inside JSON strings every quote is escaped.
  if (!text.includes('"ownerReferences"')) return undefined;
  const meta = findKey(text, skipWs(text, 0), 'metadata');
  if (meta === undefined) return fullParse(text);
  if (meta < 0 || text.charCodeAt(meta) !== 123) return undefined;
  const at = findKey(text, meta, 'ownerReferences');
  if (at === undefined) return fullParse(text);
  if (at < 0) return undefined;
  const end = skipValue(text, at);
  if (end < 0) return fullParse(text);
  return refsOrUndefined(JSON.parse(text.slice(at, end)));
}

/** metadata.uid, read the same way (a delete tells the collector only the old text). */
export function uidOf(text: string): string | undefined {
  const meta = findKey(text, skipWs(text, 0), 'metadata');
  const at = meta !== undefined && meta >= 0 && text.charCodeAt(meta) === 123 ? findKey(text, meta, 'uid') : undefined;
  if (at === undefined) return (JSON.parse(text) as Obj).metadata?.uid as string | undefined;
  if (at < 0) return undefined;
  const end = skipValue(text, at);
  const uid: unknown = end < 0 ? (JSON.parse(text) as Obj).metadata?.uid : JSON.parse(text.slice(at, end));
  return typeof uid === 'string' ? uid : undefined;
}

/** What the scanner cannot read is parsed whole (and malformed text throws, as it always did). */
function fullParse(text: string): OwnerRef[] | undefined {
  return refsOrUndefined((JSON.parse(text) as Obj).metadata?.ownerReferences);
}
