// JSON object → protobuf bytes, written as gogo-protobuf writes the Go struct: fields in
// ascending number order; value fields always (zero when the JSON lacks them); pointer fields,
// bytes and list elements only when present; map entries sorted by key.
//
// Each message type gets an encoding plan on first use: its fields in wire order with what to
// do for each, and the bytes of each value field's Go zero value (written as-is when the JSON
// lacks the field, which is most of them). The writer fills its buffer backwards, so fields
// are visited from the highest number down.
import { K_BOOL, K_BYTES, K_INT32, K_INT64, K_MESSAGE, K_STRING, S_NONE, type FieldDesc, type MessageDesc } from './descriptors';
import { toInteger, writeSpecial } from './encode-special';
import { Writer, fromBase64 } from './wire';

type Json = Record<string, unknown>;
const EMPTY: Json = Object.freeze({}) as Json;

const OP_SCALAR = 0;
const OP_MESSAGE = 1;
const OP_REPEATED_SCALAR = 2;
const OP_REPEATED_MESSAGE = 3;
const OP_MAP = 4;
/** Embedded Go struct: encoded from the same JSON object as its parent. */
const OP_INLINE = 5;

interface EncodeField {
  readonly desc: FieldDesc;
  readonly json: string;
  readonly key: number;
  readonly kind: number;
  readonly op: number;
  /** A Go value field (no presence): written as its zero value when the JSON lacks it. */
  readonly writesZero: boolean;
  /** Key + content of the zero value, computed on first need. */
  zero: Uint8Array | null;
  /** Plan of the field's message (or map value message), resolved on first use. */
  sub: EncodePlan | null;
}

interface EncodePlan {
  readonly desc: MessageDesc;
  readonly special: number;
  /** Fields in ascending field number. */
  readonly fields: readonly EncodeField[];
  /** Position in `fields` by JSON key; null when an embedded struct shares the object. */
  readonly index: Map<string, number> | null;
  /** JSON keys in JSON (Go struct) order, and the position in `fields` of each. */
  readonly jsonKeys: readonly string[];
  readonly jsonToWire: readonly number[];
}

const plans = new WeakMap<MessageDesc, EncodePlan>();

function planOf(desc: MessageDesc): EncodePlan {
  let plan = plans.get(desc);
  if (plan === undefined) {
    const fields = desc.wireOrder.map(fieldPlan);
    const index = fields.some((f) => f.op === OP_INLINE) ? null : new Map(fields.map((f, i) => [f.json, i]));
    const jsonToWire = desc.fields.map((f) => fields.findIndex((field) => field.desc === f));
    plan = { desc, special: desc.special, fields, index, jsonKeys: desc.fields.map((f) => internalized(f.json)), jsonToWire };
    plans.set(desc, plan);
  }
  return plan;
}

/** The engine's unique copy of a property name, so comparing it to for-in keys is by identity. */
function internalized(name: string): string {
  return Object.keys({ [name]: 0 })[0];
}

function fieldPlan(f: FieldDesc): EncodeField {
  const op = f.inline ? OP_INLINE : f.map ? OP_MAP : f.repeated ? (f.kind === K_MESSAGE ? OP_REPEATED_MESSAGE : OP_REPEATED_SCALAR) : f.kind === K_MESSAGE ? OP_MESSAGE : OP_SCALAR;
  const writesZero = (op === OP_SCALAR || op === OP_MESSAGE) && !f.pointer && f.kind !== K_BYTES;
  return { desc: f, json: f.json, key: f.key, kind: f.kind, op, writesZero, zero: null, sub: null };
}

function subOf(field: EncodeField): EncodePlan {
  return field.sub ?? (field.sub = planOf(field.desc.message!));
}

function zeroOf(field: EncodeField): Uint8Array {
  if (field.zero === null) {
    const w = new Writer(64);
    writeValue(field, undefined, w);
    field.zero = w.finish();
  }
  return field.zero;
}

/** Values of the messages being encoded, by wire position; undefined = absent. */
const slots: unknown[] = [];
/** First free slot. */
let top = 0;

/** Writes the content of `desc` for `obj` (no key, no length) backwards into w. */
export function encodeMessage(desc: MessageDesc, obj: Json, w: Writer): void {
  const saved = top;
  try {
    writeFields(planOf(desc), obj, w);
  } catch (err) {
    // A failed encode leaves values in the slots above where it started: drop them.
    slots.length = saved;
    top = saved;
    throw err;
  }
}

function writeFields(plan: EncodePlan, obj: Json, w: Writer): void {
  const index = plan.index;
  if (index === null) {
    writeFieldsByName(plan, obj, w);
    return;
  }
  // Visit only the keys the object has (most declared fields are absent), slotted by wire
  // position: a load inside for-in is far cheaper than probing every declared name. Objects
  // almost always hold their keys in JSON order, so each key is first looked for by identity
  // after the previous one; the map is the fallback for keys out of order or unknown.
  const fields = plan.fields;
  const n = fields.length;
  const base = top;
  top = base + n;
  while (slots.length < top) slots.push(undefined);
  const jsonKeys = plan.jsonKeys;
  let next = 0;
  for (const k in obj) {
    let j = next;
    while (j < n && jsonKeys[j] !== k) j++;
    let i: number | undefined;
    if (j < n) {
      i = plan.jsonToWire[j];
      next = j + 1;
    } else {
      i = index.get(k);
      if (i === undefined) continue;
    }
    slots[base + i] = obj[k];
  }
  for (let i = n - 1; i >= 0; i--) {
    const v = slots[base + i];
    if (v === undefined || v === null) {
      slots[base + i] = undefined;
      const field = fields[i];
      if (field.writesZero) w.raw(zeroOf(field));
      continue;
    }
    slots[base + i] = undefined;
    writeField(fields[i], v, w);
  }
  top = base;
}

/** Messages with embedded structs: every field looked up by name, embedded ones recursively. */
function writeFieldsByName(plan: EncodePlan, obj: Json, w: Writer): void {
  const fields = plan.fields;
  for (let i = fields.length - 1; i >= 0; i--) {
    const field = fields[i];
    if (field.op === OP_INLINE) {
      const mark = w.length;
      writeFields(subOf(field), obj, w);
      w.lengthSince(mark);
      w.uvarint(field.key);
      continue;
    }
    const v = obj[field.json];
    if (v === undefined || v === null) {
      if (field.writesZero) w.raw(zeroOf(field));
    } else {
      writeField(field, v, w);
    }
  }
}

/** A present field: one value, each list element, or each map entry. */
function writeField(field: EncodeField, v: unknown, w: Writer): void {
  switch (field.op) {
    case OP_MAP:
      writeMap(field, v as Json, w);
      break;
    case OP_REPEATED_SCALAR:
    case OP_REPEATED_MESSAGE:
      if (Array.isArray(v)) for (let j = v.length - 1; j >= 0; j--) writeValue(field, v[j], w);
      break;
    default:
      writeValue(field, v, w);
  }
}

/** Key and content of one value (undefined: the Go zero value). */
function writeValue(field: EncodeField, v: unknown, w: Writer): void {
  switch (field.kind) {
    case K_STRING:
      w.stringField(v === undefined ? '' : typeof v === 'string' ? v : String(v), field.key);
      return;
    case K_INT32:
    case K_INT64:
      w.svarint(v === undefined ? 0 : toInteger(v, field.json, field.kind === K_INT32));
      break;
    case K_BOOL:
      w.byte(v === true ? 1 : 0);
      break;
    case K_BYTES: {
      const bytes = typeof v === 'string' ? fromBase64(v) : v instanceof Uint8Array ? v : fromBase64(String(v ?? ''));
      w.raw(bytes);
      w.uvarint(bytes.length);
      break;
    }
    default: {
      const mark = w.length;
      writeMessageContent(subOf(field), v, w);
      w.lengthSince(mark);
    }
  }
  w.uvarint(field.key);
}

/** A message's content from its JSON form (undefined: the Go zero value). */
function writeMessageContent(plan: EncodePlan, v: unknown, w: Writer): void {
  if (plan.special === S_NONE) writeFields(plan, (v ?? EMPTY) as Json, w);
  else writeSpecial(plan.desc, v, w);
}

function writeMap(field: EncodeField, map: Json, w: Writer): void {
  const keys = Object.keys(map);
  if (keys.length > 1) keys.sort();
  const valueField = field.kind === K_MESSAGE ? null : MAP_VALUE[field.kind];
  for (let i = keys.length - 1; i >= 0; i--) {
    const k = keys[i];
    const v = map[k];
    const entryMark = w.length;
    if (valueField === null) {
      const mark = w.length;
      writeMessageContent(subOf(field), v ?? undefined, w);
      w.lengthSince(mark);
      w.byte(0x12);
    } else if (v !== undefined && v !== null) {
      writeValue(valueField, v, w);
    }
    w.stringField(k, 0x0a);
    w.lengthSince(entryMark);
    w.uvarint(field.key);
  }
}

/** Field 2 of a map entry with a scalar value, by scalar kind. */
const MAP_VALUE: EncodeField[] = [K_STRING, K_INT32, K_INT64, K_BOOL, K_BYTES].map((kind) =>
  fieldPlan({ json: 'value', number: 2, kind, message: null, repeated: false, map: false, mapKey: K_STRING, pointer: true, inline: false, key: kind === K_STRING || kind === K_BYTES ? 0x12 : 0x10, order: 1 }),
);
