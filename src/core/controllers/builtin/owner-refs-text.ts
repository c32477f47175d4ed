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
import { findKey, skipValue, skipWs } from '../json-text-keys';

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
