// fieldsV1 (de)serialisation exactly as kube-apiserver writes it: an object per level, `.` first
// when the node is itself a member and has children, then elements in path-element order
// (fields by name, keys and values by the Go value ordering, indexes numerically); leaves `{}`.
import { FieldSet } from './fieldset';
import { parsePathElement } from './pathelement';

export type FieldsV1 = { [key: string]: FieldsV1 };

// Sets are immutable once built and objects read from storage are not mutated, so encodings
// and decodings can be remembered per object (unchanged managers then cost nothing).
const encoded = new WeakMap<FieldSet, FieldsV1>();
const decoded = new WeakMap<object, FieldSet>();

export function toFieldsV1(set: FieldSet): FieldsV1 {
  let out = encoded.get(set);
  if (!out) {
    out = emit(set, false);
    encoded.set(set, out);
    decoded.set(out, set);
  }
  return out;
}

function emit(set: FieldSet, includeSelf: boolean): FieldsV1 {
  const out: FieldsV1 = {};
  if (includeSelf) out['.'] = {};
  for (const e of set.sortedEntries()) out[e.pe.id] = e.child ? emit(e.child, e.member) : {};
  return out;
}

/** Parses fieldsV1; throws with a message in kube's spirit when the structure is malformed. */
export function fromFieldsV1(v: unknown): FieldSet {
  const hit = typeof v === 'object' && v !== null ? decoded.get(v) : undefined;
  if (hit) return hit;
  const set = new FieldSet();
  read(v, set, []);
  if (typeof v === 'object' && v !== null) decoded.set(v, set);
  return set;
}

function read(v: unknown, into: FieldSet, prefix: ReturnType<typeof parsePathElement>[]): void {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('expected an object');
  for (const [k, child] of Object.entries(v)) {
    if (k === '.') {
      if (prefix.length > 0) into.insert(prefix);
      continue;
    }
    const path = [...prefix, parsePathElement(k)];
    if (typeof child !== 'object' || child === null || Array.isArray(child)) throw new Error('expected an object');
    if (Object.keys(child).length === 0) into.insert(path);
    else read(child, into, path);
  }
}
