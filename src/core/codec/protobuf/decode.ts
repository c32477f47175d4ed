// Protobuf bytes → the JSON object the JSON API would carry. gogo writes every Go value field
// even when it is zero, and Go pointer fields only when set; so value fields holding a zero
// ("" / 0 / false / empty message) are dropped, pointer fields are kept whatever they hold.
//
// Fields arrive in field-number order but JSON wants Go struct order, so each message's values
// go into slots laid out in JSON order (see decode-plan.ts) and the object is built from the
// slots at the end of the message. The slots live on one stack shared by every decode: a
// message takes the slots above its parent's, which keeps decoding free of per-message arrays.
import { K_BOOL, K_BYTES, K_INT32, K_INT64, K_MESSAGE, K_STRING, S_NONE, S_QUANTITY, S_STRING_LIST, type FieldDesc, type MessageDesc } from './descriptors';
import {
  OP_INLINE,
  OP_MAP,
  OP_MESSAGE,
  OP_REPEATED_MESSAGE,
  OP_REPEATED_SCALAR,
  OP_SCALAR,
  decodePlanOf,
  subPlan,
  type DecodeField,
  type DecodePlan,
} from './decode-plan';
import { readSpecial } from './decode-special';
import { ProtobufError, Reader, toBase64 } from './wire';
import { setOwnKey } from '../own-keys';

export { setEmbeddedEnvelopeDecoder } from './decode-special';

type Json = Record<string, unknown>;

/** Values of the messages being decoded, in JSON key order; undefined = absent. */
const slots: unknown[] = [];
/** First free slot. */
let top = 0;

/** Decodes the message occupying r.pos..end. */
export function decodeMessage(desc: MessageDesc, r: Reader, end: number): Json {
  return decodeMessageInto(desc, r, end, {});
}

/** Decodes the message occupying r.pos..end, adding its fields to `obj` (after the keys it has). */
export function decodeMessageInto(desc: MessageDesc, r: Reader, end: number, obj: Json): Json {
  const saved = top;
  try {
    return decodeObject(decodePlanOf(desc), r, end, obj);
  } catch (err) {
    // A failed decode leaves values in the slots above where it started: drop them.
    slots.length = saved;
    top = saved;
    throw err;
  }
}

function decodeObject(plan: DecodePlan, r: Reader, end: number, obj: Json): Json {
  const base = top;
  const keys = plan.keys;
  const n = keys.length;
  top = base + n;
  while (slots.length < top) slots.push(undefined);
  fill(plan, r, end, base);
  top = base;
  for (let i = 0; i < n; i++) {
    const v = slots[base + i];
    if (v !== undefined) {
      obj[keys[i]] = v;
      slots[base + i] = undefined;
    }
  }
  return obj;
}

/** Reads the fields of `plan`'s message in r.pos..end into the slots from `base`. */
function fill(plan: DecodePlan, r: Reader, end: number, base: number): void {
  const byNumber = plan.byNumber;
  while (r.pos < end) {
    const key = r.uvarint();
    const wireType = key & 7;
    const field = byNumber[key >>> 3];
    if (field === undefined) {
      if (key < 8) throw new ProtobufError(`proto: ${shortName(plan.desc)}: illegal tag 0 (wire type ${wireType})`);
      r.skip(wireType);
      continue;
    }
    const f = field.desc;
    const slot = base + field.slot;
    if (wireType !== field.wireType) {
      if (field.op !== OP_REPEATED_SCALAR || wireType !== 2) throw new ProtobufError(`proto: wrong wireType = ${wireType} for field ${f.json}`);
      readPacked(f.kind, r, listAt(slot));
      continue;
    }
    switch (field.op) {
      case OP_SCALAR: {
        const v = readScalar(f.kind, r);
        // Go nil vs empty bytes: gogo writes bytes only when non-nil, so even empty ones count.
        if (f.pointer || (v !== '' && v !== 0 && v !== false) || f.kind === K_BYTES) slots[slot] = v;
        break;
      }
      case OP_MESSAGE: {
        const v = readMessageValue(field, r);
        if (f.pointer ? v !== undefined : !isZeroValue(v)) slots[slot] = v;
        break;
      }
      case OP_REPEATED_SCALAR:
        listAt(slot).push(readScalar(f.kind, r));
        break;
      case OP_REPEATED_MESSAGE:
        listAt(slot).push(readMessageValue(field, r));
        break;
      case OP_MAP: {
        const map = (slots[slot] as Json | undefined) ?? (slots[slot] = {});
        readMapEntry(field, r, map as Json);
        break;
      }
      case OP_INLINE: {
        const start = r.delimited();
        const inlineEnd = r.pos;
        r.pos = start;
        fill(subPlan(field), r, inlineEnd, slot);
        break;
      }
    }
  }
  if (r.pos !== end) throw new ProtobufError('unexpected EOF');
}

function listAt(slot: number): unknown[] {
  return (slots[slot] as unknown[] | undefined) ?? (slots[slot] = []);
}

function shortName(desc: MessageDesc): string {
  return desc.name.slice(desc.name.lastIndexOf('.') + 1);
}

function readScalar(kind: number, r: Reader): unknown {
  switch (kind) {
    case K_STRING:
      return r.string();
    case K_INT32:
      return r.svarint64() | 0;
    case K_INT64:
      return r.svarint64();
    case K_BOOL:
      return r.uvarint() !== 0;
    case K_BYTES:
      return toBase64(r.bytes());
    default:
      throw new ProtobufError(`unsupported field kind ${kind}`);
  }
}

function readPacked(kind: number, r: Reader, list: unknown[]): void {
  const start = r.delimited();
  const inner = new Reader(r.buf, start, r.pos);
  while (inner.pos < inner.end) list.push(readScalar(kind, inner));
}

/** A nested message (length-delimited) in its JSON form; undefined for a zero Time. */
function readMessageValue(field: DecodeField, r: Reader): unknown {
  const start = r.delimited();
  const end = r.pos;
  r.pos = start;
  const plan = subPlan(field);
  return plan.special === S_NONE ? decodeObject(plan, r, end, {}) : readSpecial(plan.desc, r, end);
}

function isZeroValue(v: unknown): boolean {
  if (v === undefined || v === '' || v === 0 || v === '0s') return true;
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return v.length === 0;
  for (const _ in v) return false;
  return true;
}

function readMapEntry(field: DecodeField, r: Reader, map: Json): void {
  const f = field.desc;
  const start = r.delimited();
  const end = r.pos;
  r.pos = start;
  let key = '';
  let value: unknown;
  while (r.pos < end) {
    const tag = r.uvarint();
    if (tag === 0x0a) key = r.string();
    else if (tag === 0x12 && f.kind === K_MESSAGE) value = readMessageValue(field, r);
    else if (f.kind !== K_MESSAGE && tag === (0x10 | scalarWireType(f.kind))) value = readScalar(f.kind, r);
    else r.skip(tag & 7);
  }
  if (r.pos !== end) throw new ProtobufError('unexpected EOF');
  // A map key is a client's string (`__proto__` too): always an own key.
  setOwnKey(map, key, value === undefined ? zeroMapValue(f) : value);
}

function scalarWireType(kind: number): number {
  return kind === K_STRING || kind === K_BYTES ? 2 : 0;
}

function zeroMapValue(f: FieldDesc): unknown {
  switch (f.kind) {
    case K_STRING:
    case K_BYTES:
      return '';
    case K_BOOL:
      return false;
    case K_INT32:
    case K_INT64:
      return 0;
    default:
      return f.message!.special === S_QUANTITY ? '0' : f.message!.special === S_STRING_LIST ? [] : {};
  }
}
