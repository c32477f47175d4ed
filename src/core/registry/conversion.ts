// Storage-version conversion at the registry's edges. Every served version of a group/resource
// reads and writes the same stored objects, kept at the resource's storage version. Served
// versions whose shape equals the storage version's get no codec at all (the fast path: stored
// text goes out untouched); the others convert on the way in (served → storage) and out
// (storage → served) through src/core/versions. Custom resources whose storage schema declares
// defaults get a codec too: reads apply those defaults, as kube's storage decoder does.
import { convert, convertBodyOwned, needsConversion, parseApiVersion } from '../versions/index';
import { managedFieldsSpan } from './managed-fields-span';
import type { ResourceInfo } from '../schema/resource-info';
import type { KV } from '../storage/types';
import { toStoredText, type Obj } from './objects';
import { ConvertedTexts } from './converted-texts';
import { defaultStoredCustomObject } from './structural-defaults';

export interface VersionCodec {
  /**
   * Unique per codec: item bytes kept for lists are keyed by it, since a rebuilt codec (a CRD's
   * new defaults) may serve the same stored text differently.
   */
  id: number;
  /** The group/version objects are stored at (`v1` for core). */
  storageApiVersion: string;
  /** Stored text (storage version, no kind/apiVersion) as text at the served version (same form). */
  toServedText(storedText: string): string;
  /** The served-version object (with kind/apiVersion) of a stored text. */
  toServed(storedText: string): Obj;
  /** A served-version object as the storage version's object (kind/apiVersion of storage). */
  toStorage(obj: Obj): Obj;
  /** Whether clients read this version within the last IN_USE_MS (toServedText marks a read). */
  inUse(now: number): boolean;
  /** Converts and keeps a stored text's served form without counting as a read. */
  prepare(storedText: string): void;
}

function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** Storage key prefix of a resource: its storage group's, so every version shares one key space. */
export function storageKeyPrefix(info: ResourceInfo): string {
  const group = info.storageVersion && !info.custom ? parseApiVersion(info.storageVersion).group : info.group;
  return `/${group || 'core'}/${info.resource}/`;
}

/**
 * Stands in for metadata.managedFields while the rest of an object converts. A number, so it
 * can only appear as `"managedFields":<it>` where it is a real key's value: inside a string
 * every quote is escaped, and the metadata fields written before managedFields (labels,
 * annotations, ownerReferences, finalizers...) hold no numbers under that key.
 */
const MANAGED_FIELDS_STAND_IN = '-7.25';
const MANAGED_FIELDS_STAND_IN_ENTRY = `"managedFields":${MANAGED_FIELDS_STAND_IN}`;

/**
 * Stored text (storage version) as stored-form text at `served`. Conversion never touches
 * managedFields, so its text is cut out before parsing and spliced back after: it is often most
 * of the object, and parsing and re-stringifying it dominated the cost of a converted read.
 */
export function convertStoredText(kind: string, storedText: string, storage: string, served: string): string {
  const span = managedFieldsSpan(storedText);
  const source = span ? storedText.slice(0, span.start) + MANAGED_FIELDS_STAND_IN + storedText.slice(span.end) : storedText;
  // The parsed object is ours alone: convert it in place of a defensive copy. Its kind and
  // version tell toStoredText the Go key order to write it in (served's struct order).
  const converted = toStoredText({ kind, apiVersion: served, ...convertBodyOwned(kind, JSON.parse(source) as Obj, storage, served) });
  if (!span) return converted;
  const at = converted.indexOf(MANAGED_FIELDS_STAND_IN_ENTRY);
  if (at === -1) throw new Error(`conversion of ${kind} to ${served} lost metadata.managedFields`);
  const valueAt = at + MANAGED_FIELDS_STAND_IN_ENTRY.length - MANAGED_FIELDS_STAND_IN.length;
  return converted.slice(0, valueAt) + storedText.slice(span.start, span.end) + converted.slice(valueAt + MANAGED_FIELDS_STAND_IN.length);
}

/**
 * How long a served version counts as in use after its last read: writes convert each new
 * revision for the versions in use, so reads find it converted (decision 0012).
 */
export const IN_USE_MS = 5 * 60_000;

/** The codec of a served version, or undefined when it reads stored text as is. */
export function codecFor(info: ResourceInfo, texts: ConvertedTexts = new ConvertedTexts()): VersionCodec | undefined {
  const served = apiVersionOf(info.group, info.version);
  const kind = info.kind;
  if (info.custom) {
    // Custom objects share one shape across versions; what a read adds is the defaults.
    const schema = info.storedDefaults;
    if (!schema) return undefined;
    return cachingCodec(kind, served, served, texts, (text) => defaultedStoredText(text, schema), (obj) => obj);
  }
  const storage = info.storageVersion;
  if (!storage || !needsConversion(kind, storage, served)) return undefined;
  return cachingCodec(
    kind,
    served,
    storage,
    texts,
    (text) => convertStoredText(kind, text, storage, served),
    (obj) => convert({ ...obj, kind, apiVersion: served }, served, storage) as Obj,
  );
}

/**
 * Stored text with the defaults of the storage version's schema applied (kube's storage decoder
 * does this on every read; they are not written back). The same string when none applies.
 */
export function defaultedStoredText(storedText: string, schema: Record<string, unknown>): string {
  const obj = JSON.parse(storedText) as Obj;
  return defaultStoredCustomObject(obj, schema) ? toStoredText(obj, obj.metadata?.resourceVersion) : storedText;
}

let codecCount = 0;

function cachingCodec(
  kind: string,
  served: string,
  storage: string,
  texts: ConvertedTexts,
  convertText: (storedText: string) => string,
  toStorage: (obj: Obj) => Obj,
): VersionCodec {
  const cache = new Map<string, string>();
  let lastUse = -Infinity;
  const converted = (storedText: string): string => {
    let text = cache.get(storedText);
    if (text === undefined) {
      text = convertText(storedText);
      texts.add(cache, storedText, text);
    }
    return text;
  };
  const toServedText = (storedText: string): string => {
    lastUse = Date.now();
    return converted(storedText);
  };
  return {
    id: ++codecCount,
    storageApiVersion: storage,
    toServedText,
    toServed: (storedText) => ({ kind, apiVersion: served, ...(JSON.parse(toServedText(storedText)) as Obj) }),
    toStorage,
    inUse: (now) => now - lastUse < IN_USE_MS,
    prepare: (storedText) => void converted(storedText),
  };
}

/**
 * After a write: converts the new revision's text for every other served version of the
 * resource that clients read lately, so their next GET, list page or watch event finds it ready
 * instead of converting on the read path.
 */
export function prepareServedTexts(codecs: readonly VersionCodec[], storedText: string): void {
  if (codecs.length === 0) return;
  const now = Date.now();
  for (const codec of codecs) if (codec.inUse(now)) codec.prepare(storedText);
}

interface Convertible {
  codec?: VersionCodec;
}

/** Stored text as the served version's text (the same string when the version needs no codec). */
export function servedText(r: Convertible, storedText: string): string {
  return r.codec ? r.codec.toServedText(storedText) : storedText;
}

/** A served-version object in the form to store (the object itself when no codec). */
export function storageForm(r: Convertible, obj: Obj): Obj {
  return r.codec ? r.codec.toStorage(obj) : obj;
}

interface TextPredicate {
  empty: boolean;
  filter?: (kv: KV) => boolean;
  matchText(text: string): boolean;
}

/** Field selectors name the served version's fields: match against converted text. */
export function servedPredicate<P extends TextPredicate>(r: Convertible, pred: P): P {
  const codec = r.codec;
  if (!codec || pred.empty) return pred;
  const filter = pred.filter;
  return {
    ...pred,
    filter: filter ? (kv: KV) => filter({ ...kv, value: codec.toServedText(kv.value) }) : undefined,
    matchText: (text: string) => pred.matchText(codec.toServedText(text)),
  };
}
