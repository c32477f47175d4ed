// Client-side apply → server-side apply, as kube-apiserver v1.23's lastAppliedManager and
// lastAppliedUpdater do it for the field manager named exactly `kubectl` (what
// `kubectl apply --server-side` sends):
// - conflicts only on fields of the kubectl.kubernetes.io/last-applied-configuration annotation
//   whose live values still equal it are forced, after forgetting every manager that owns the
//   annotation (the client-side applier); other conflicts are reported, and only those;
// - after a successful apply, an annotation the object has is rewritten to the applied
//   configuration (dropped when it would take the annotations over their 256 KiB limit).
import { compare } from './compare';
import { FieldSet } from './fieldset';
import type { DecodedManaged } from './managed';
import { fieldElement } from './pathelement';
import type { TypeNode } from './schema';
import { toFieldSet } from './typed';
import { appliedTypeErrors } from './validate-applied';
import { goJson, isMap } from './value';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
/** The only manager name the migration applies to (other names opt out). */
export const CLIENT_SIDE_MIGRATING_MANAGER = 'kubectl';
const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

const ANNOTATION_PATH = [fieldElement('metadata'), fieldElement('annotations'), fieldElement(LAST_APPLIED_ANNOTATION)];

/**
 * Forgets every manager whose fields include the annotation. kube compares the manager
 * identifier (a JSON text) with "kubectl" to spare kubectl's own entry, which never matches:
 * so no owner of the annotation is spared, and neither is one here.
 */
export function removeLastAppliedManagers(d: DecodedManaged): void {
  for (const [id, vs] of [...d.sets]) {
    if (!vs.set.has(ANNOTATION_PATH)) continue;
    d.sets.delete(id);
    d.info.delete(id);
    d.times.delete(id);
  }
}

/**
 * The fields of the live object's annotation whose live values still equal it: an apply by
 * kubectl may take these without force. Undefined when there is nothing to go by (no or empty
 * annotation, not a JSON object with a kind, another apiVersion, a configuration the schema
 * cannot type).
 */
export function allowedConflictsFromLastApplied(live: unknown, apiVersion: string, type: TypeNode): FieldSet | undefined {
  const text = annotationOf(live);
  if (!text) return undefined;
  let last: unknown;
  try {
    last = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isMap(last) || typeof last.kind !== 'string' || last.kind === '') return undefined;
  if (last.apiVersion !== apiVersion) return undefined;
  if (appliedTypeErrors(last, type).length > 0) return undefined;
  try {
    const c = compare(last, live, type);
    return toFieldSet(last, type).difference(c.modified).difference(c.added).difference(c.removed);
  } catch {
    // A value the field manager cannot track (a list-map item without its key): nothing allowed.
    return undefined;
  }
}

/** True when the object carries a non-empty annotation (the updater only rewrites an existing one). */
export function hasLastApplied(obj: unknown): boolean {
  return annotationOf(obj) !== undefined;
}

/**
 * `obj` with the annotation set to the applied configuration as kube encodes it (the
 * configuration without the annotation, JSON with sorted keys and a final newline), or without
 * the annotation when the annotations would then exceed 256 KiB.
 */
export function withLastApplied(obj: Record<string, unknown>, applied: Record<string, unknown>): Record<string, unknown> {
  const metadata = isMap(obj.metadata) ? obj.metadata : {};
  const annotations: Record<string, unknown> = { ...(isMap(metadata.annotations) ? metadata.annotations : {}) };
  annotations[LAST_APPLIED_ANNOTATION] = lastAppliedText(applied);
  if (annotationsSize(annotations) > TOTAL_ANNOTATION_SIZE_LIMIT) delete annotations[LAST_APPLIED_ANNOTATION];
  const next: Record<string, unknown> = { ...metadata };
  if (Object.keys(annotations).length > 0) next.annotations = annotations;
  else delete next.annotations;
  return { ...obj, metadata: next };
}

/**
 * kube's buildLastApplied: the applied object with the annotation taken out, encoded by the
 * unstructured JSON encoder (json.Encoder: sorted keys, HTML-safe escapes, trailing newline).
 * Taking the key out leaves an empty annotations map in place; annotations that are not a map
 * of strings read as none and are dropped, as unstructured's accessors do.
 */
function lastAppliedText(applied: Record<string, unknown>): string {
  let out = applied;
  const metadata = applied.metadata;
  if (isMap(metadata) && 'annotations' in metadata) {
    const a = metadata.annotations;
    const m: Record<string, unknown> = { ...metadata };
    if (isMap(a) && Object.values(a).every((v) => typeof v === 'string')) {
      const rest: Record<string, unknown> = {};
      for (const k of Object.keys(a)) if (k !== LAST_APPLIED_ANNOTATION) rest[k] = a[k];
      m.annotations = rest;
    } else delete m.annotations;
    out = { ...applied, metadata: m };
  }
  return `${goEncoderText(goJson(out))}\n`;
}

/** Go writes backspace and form feed as \u0008 and \u000c where JSON.stringify writes \b and \f. */
function goEncoderText(json: string): string {
  // Every backslash in JSON text starts an escape: matching `\\` first keeps `\\b` intact.
  return json.replace(/\\\\|\\b|\\f/g, (m) => (m === '\\b' ? '\\u0008' : m === '\\f' ? '\\u000c' : m));
}

function annotationOf(obj: unknown): string | undefined {
  if (!isMap(obj) || !isMap(obj.metadata) || !isMap(obj.metadata.annotations)) return undefined;
  const v = obj.metadata.annotations[LAST_APPLIED_ANNOTATION];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

const utf8 = new TextEncoder();

function annotationsSize(annotations: Record<string, unknown>): number {
  let total = 0;
  for (const [k, v] of Object.entries(annotations)) total += utf8.encode(k).length + utf8.encode(typeof v === 'string' ? v : '').length;
  return total;
}
