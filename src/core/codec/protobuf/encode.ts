// JSON object → protobuf bytes, written as gogo-protobuf writes the Go struct: fields in
// ascending number order; value fields always (zero when the JSON lacks them); pointer fields,
// bytes and list elements only when present; map entries sorted by key.
import {
  K_BOOL,
  K_BYTES,
  K_INT32,
  K_INT64,
  K_MESSAGE,
  K_STRING,
  S_DURATION,
  S_FIELDS_V1,
  S_INT_OR_STRING,
  S_MICROTIME,
  S_NONE,
  S_QUANTITY,
  S_RAW_EXTENSION,
  S_STRING_LIST,
  S_TIME,
  type FieldDesc,
  type MessageDesc,
} from './descriptors';
import { parseDuration, parseTime } from './time';
import { ProtobufError, Writer, fromBase64 } from './wire';

type Json = Record<string, unknown>;
const EMPTY: Json = Object.freeze({}) as Json;

/** Per message: wire-order index by JSON name (messages without embedded structs only). */
const indexByJson = new WeakMap<MessageDesc, Map<string, number>>();

function jsonIndex(desc: MessageDesc): Map<string, number> | null {
  let index = indexByJson.get(desc);
  if (index === undefined) {
    if (desc.fields.some((f) => f.inline)) return null;
    index = new Map(desc.wireOrder.map((f, i) => [f.json, i]));
    indexByJson.set(desc, index);
  }
  return index;
}

/** Key + content of a value field's Go zero value, computed once per field. */
const zeroBytes = new WeakMap<FieldDesc, Uint8Array>();

function zeroOf(f: FieldDesc): Uint8Array {
  let bytes = zeroBytes.get(f);
  if (bytes === undefined) {
    const w = new Writer(64);
    writeZero(f, w);
    bytes = w.finish();
    zeroBytes.set(f, bytes);
  }
  return bytes;
}

/** Writes the content of `desc` for `obj` (no key, no length) backwards into w. */
export function encodeMessage(desc: MessageDesc, obj: Json, w: Writer): void {
  const index = jsonIndex(desc);
  if (index === null) {
    encodeByFields(desc, obj, w);
    return;
  }
  // Visit only the keys the object has (most declared fields are absent), slotted by number.
  const fields = desc.wireOrder;
  const slots: unknown[] = new Array(fields.length);
  for (const k in obj) {
    const i = index.get(k);
    if (i !== undefined) slots[i] = obj[k];
  }
  for (let i = fields.length - 1; i >= 0; i--) {
    const f = fields[i];
    const v = slots[i];
    if (v === undefined || v === null) {
      if (!f.pointer && !f.repeated && !f.map && f.kind !== K_BYTES) w.raw(zeroOf(f));
    } else if (f.map) {
      writeMap(f, v as Json, w);
    } else if (f.repeated) {
      if (Array.isArray(v)) for (let j = v.length - 1; j >= 0; j--) writeValue(f, v[j], w);
    } else {
      writeValue(f, v, w);
    }
  }
}

/** The general path, for messages with embedded structs that read the same JSON object. */
function encodeByFields(desc: MessageDesc, obj: Json, w: Writer): void {
  const fields = desc.wireOrder;
  for (let i = fields.length - 1; i >= 0; i--) {
    const f = fields[i];
    if (f.inline) {
      const mark = w.length;
      encodeMessage(f.message!, obj, w);
      w.lengthSince(mark);
      w.uvarint(f.key);
      continue;
    }
    const v = obj[f.json];
    if (f.map) {
      if (v !== undefined && v !== null) writeMap(f, v as Json, w);
    } else if (f.repeated) {
      if (Array.isArray(v)) for (let j = v.length - 1; j >= 0; j--) writeValue(f, v[j], w);
    } else if (v !== undefined && v !== null) {
      writeValue(f, v, w);
    } else if (!f.pointer && f.kind !== K_BYTES) {
      writeZero(f, w);
    }
  }
}

function writeValue(f: FieldDesc, v: unknown, w: Writer): void {
  switch (f.kind) {
    case K_STRING: {
      const mark = w.length;
      w.utf8(typeof v === 'string' ? v : String(v));
      w.lengthSince(mark);
      break;
    }
    case K_INT32:
    case K_INT64:
      w.svarint(toInteger(v, f.json, f.kind === K_INT32));
      break;
    case K_BOOL:
      w.byte(v === true ? 1 : 0);
      break;
    case K_BYTES: {
      const bytes = typeof v === 'string' ? fromBase64(v) : v instanceof Uint8Array ? v : fromBase64(String(v));
      w.raw(bytes);
      w.uvarint(bytes.length);
      break;
    }
    default: {
      const mark = w.length;
      writeMessageContent(f.message!, v, w);
      w.lengthSince(mark);
    }
  }
  w.uvarint(f.key);
}

function toInteger(v: unknown, field: string, int32: boolean): number {
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n)) throw new ProtobufError(`field ${field}: cannot encode ${JSON.stringify(v)} as an integer`);
  return int32 ? n | 0 : n;
}

function writeZero(f: FieldDesc, w: Writer): void {
  switch (f.kind) {
    case K_STRING:
    case K_INT32:
    case K_INT64:
    case K_BOOL:
      w.byte(0);
      break;
    default: {
      const mark = w.length;
      writeMessageContent(f.message!, undefined, w);
      w.lengthSince(mark);
    }
  }
  w.uvarint(f.key);
}

/** A message's content from its JSON form (undefined: the Go zero value). */
function writeMessageContent(msg: MessageDesc, v: unknown, w: Writer): void {
  switch (msg.special) {
    case S_NONE:
      encodeMessage(msg, (v ?? EMPTY) as Json, w);
      return;
    case S_TIME:
    case S_MICROTIME: {
      // A zero Go time marshals to nothing; otherwise both Timestamp fields are written.
      if (v === undefined || v === '') return;
      const { seconds, nanos } = parseTime(String(v));
      w.svarint(nanos);
      w.byte(0x10);
      w.svarint(seconds);
      w.byte(0x08);
      return;
    }
    case S_DURATION:
      w.svarint(v === undefined ? 0 : typeof v === 'number' ? v : parseDuration(String(v)));
      w.byte(0x08);
      return;
    case S_QUANTITY: {
      // Go writes Quantity.String(); a zero Quantity prints as "0".
      const mark = w.length;
      w.utf8(v === undefined || v === '' ? '0' : String(v));
      w.lengthSince(mark);
      w.byte(0x0a);
      return;
    }
    case S_INT_OR_STRING: {
      const isString = typeof v === 'string';
      const mark = w.length;
      if (isString) w.utf8(v);
      w.lengthSince(mark);
      w.byte(0x1a);
      w.svarint(isString || v === undefined ? 0 : toInteger(v, 'intVal', true));
      w.byte(0x10);
      w.byte(isString ? 1 : 0);
      w.byte(0x08);
      return;
    }
    case S_RAW_EXTENSION:
    case S_FIELDS_V1: {
      if (v === undefined) return;
      const mark = w.length;
      if (v instanceof Uint8Array) w.raw(v);
      else w.utf8(JSON.stringify(v));
      w.lengthSince(mark);
      w.byte(0x0a);
      return;
    }
    case S_STRING_LIST: {
      if (!Array.isArray(v)) return;
      for (let i = v.length - 1; i >= 0; i--) {
        const mark = w.length;
        w.utf8(String(v[i]));
        w.lengthSince(mark);
        w.byte(0x0a);
      }
      return;
    }
    default:
      throw new ProtobufError(`unsupported special message ${msg.name}`);
  }
}

function writeMap(f: FieldDesc, map: Json, w: Writer): void {
  const keys = Object.keys(map).sort();
  for (let i = keys.length - 1; i >= 0; i--) {
    const k = keys[i];
    const v = map[k];
    const entryMark = w.length;
    if (f.kind === K_MESSAGE) {
      const mark = w.length;
      writeMessageContent(f.message!, v ?? undefined, w);
      w.lengthSince(mark);
      w.byte(0x12);
    } else if (v !== undefined && v !== null) {
      // Reuse the scalar writer with the value's key (field 2).
      writeValue(MAP_VALUE[f.kind], v, w);
    }
    const keyMark = w.length;
    w.utf8(k);
    w.lengthSince(keyMark);
    w.byte(0x0a);
    w.lengthSince(entryMark);
    w.uvarint(f.key);
  }
}

function valueField(kind: number): FieldDesc {
  return { json: 'value', number: 2, kind, message: null, repeated: false, map: false, mapKey: K_STRING, pointer: true, inline: false, key: kind === K_STRING || kind === K_BYTES ? 0x12 : 0x10, order: 1 };
}
/** Field 2 of a map entry, by scalar kind. */
const MAP_VALUE: FieldDesc[] = [K_STRING, K_INT32, K_INT64, K_BOOL, K_BYTES].map(valueField);
