// Protobuf bytes → the JSON object the JSON API would carry. gogo writes every Go value field
// even when it is zero, and Go pointer fields only when set; so value fields holding a zero
// ("" / 0 / false / empty message) are dropped, pointer fields are kept whatever they hold.
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
import { formatDuration, formatMicroTime, formatTime } from './time';
import { ProtobufError, Reader, toBase64, utf8Decode } from './wire';

/** Decodes an embedded envelope (RawExtension holding protobuf); set by envelope.ts. */
let decodeEmbeddedEnvelope: (bytes: Uint8Array) => Record<string, unknown> = () => {
  throw new ProtobufError('embedded protobuf objects are not supported');
};
export function setEmbeddedEnvelopeDecoder(fn: (bytes: Uint8Array) => Record<string, unknown>): void {
  decodeEmbeddedEnvelope = fn;
}

type Json = Record<string, unknown>;

/** Decodes the message occupying r.pos..end. */
export function decodeMessage(desc: MessageDesc, r: Reader, end: number): Json {
  const obj: Json = {};
  const byNumber = desc.byNumber;
  // Fields arrive by number; JSON wants Go struct order. Reorder only if they actually crossed.
  let lastOrder = -1;
  let crossed = false;
  while (r.pos < end) {
    const key = r.uvarint();
    const wireType = key & 7;
    const f = byNumber[key >>> 3];
    if (f === undefined) {
      if (key < 8) throw new ProtobufError(`proto: ${shortName(desc)}: illegal tag 0 (wire type ${wireType})`);
      r.skip(wireType);
      continue;
    }
    if (f.order < lastOrder || f.inline) crossed = true;
    lastOrder = f.order;
    if (wireType !== (f.key & 7)) {
      if (f.repeated && wireType === 2 && f.kind !== K_MESSAGE) {
        readPacked(f, r, obj);
        continue;
      }
      throw new ProtobufError(`proto: wrong wireType = ${wireType} for field ${f.json}`);
    }
    if (f.map) {
      readMapEntry(f, r, obj);
    } else if (f.repeated) {
      const list = (obj[f.json] as unknown[] | undefined) ?? (obj[f.json] = []);
      (list as unknown[]).push(f.kind === K_MESSAGE ? readMessageValue(f.message!, r) : readScalar(f.kind, r));
    } else if (f.kind === K_MESSAGE) {
      readMessageField(f, r, obj);
    } else {
      const v = readScalar(f.kind, r);
      if (f.pointer || (v !== '' && v !== 0 && v !== false)) obj[f.json] = v;
      else if (f.kind === K_BYTES) obj[f.json] = v; // Go nil vs empty: gogo writes bytes only when non-nil
    }
  }
  if (r.pos !== end) throw new ProtobufError('unexpected EOF');
  return crossed && desc.reorder ? reorder(desc, obj) : obj;
}

function shortName(desc: MessageDesc): string {
  return desc.name.slice(desc.name.lastIndexOf('.') + 1);
}

function readScalar(kind: number, r: Reader): unknown {
  switch (kind) {
    case K_STRING:
      return r.string();
    case K_INT32: {
      const v = r.svarint64();
      return v | 0;
    }
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

function readPacked(f: FieldDesc, r: Reader, obj: Json): void {
  const start = r.delimited();
  const end = r.pos;
  const list = (obj[f.json] as unknown[] | undefined) ?? (obj[f.json] = []);
  const inner = new Reader(r.buf, start, end);
  while (inner.pos < end) (list as unknown[]).push(readScalar(f.kind, inner));
}

function readMessageField(f: FieldDesc, r: Reader, obj: Json): void {
  const msg = f.message!;
  if (f.inline) {
    const start = r.delimited();
    const end = r.pos;
    r.pos = start;
    Object.assign(obj, decodeMessage(msg, r, end));
    return;
  }
  const v = readMessageValue(msg, r);
  if (f.pointer ? v !== undefined : !isZeroValue(v)) obj[f.json] = v;
}

/** A nested message (length-delimited) in its JSON form; undefined for a zero Time. */
function readMessageValue(msg: MessageDesc, r: Reader): unknown {
  const start = r.delimited();
  const end = r.pos;
  if (msg.special === S_NONE) {
    r.pos = start;
    return decodeMessage(msg, r, end);
  }
  r.pos = start;
  return readSpecial(msg, r, end);
}

function isZeroValue(v: unknown): boolean {
  if (v === undefined || v === '' || v === 0 || v === '0s') return true;
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return v.length === 0;
  for (const _ in v) return false;
  return true;
}

function readSpecial(msg: MessageDesc, r: Reader, end: number): unknown {
  switch (msg.special) {
    case S_TIME:
    case S_MICROTIME: {
      let seconds = 0;
      let nanos = 0;
      while (r.pos < end) {
        const key = r.uvarint();
        if (key === 0x08) seconds = r.svarint64();
        else if (key === 0x10) nanos = r.svarint64() | 0;
        else r.skip(key & 7);
      }
      if (seconds === 0 && nanos === 0) return undefined;
      return msg.special === S_TIME ? formatTime(seconds) : formatMicroTime(seconds, nanos);
    }
    case S_DURATION: {
      let ns = 0;
      while (r.pos < end) {
        const key = r.uvarint();
        if (key === 0x08) ns = r.svarint64();
        else r.skip(key & 7);
      }
      return formatDuration(ns);
    }
    case S_QUANTITY: {
      let text = '';
      while (r.pos < end) {
        const key = r.uvarint();
        if (key === 0x0a) text = r.string();
        else r.skip(key & 7);
      }
      return text;
    }
    case S_INT_OR_STRING: {
      let type = 0;
      let intVal = 0;
      let strVal = '';
      while (r.pos < end) {
        const key = r.uvarint();
        if (key === 0x08) type = r.svarint64();
        else if (key === 0x10) intVal = r.svarint64() | 0;
        else if (key === 0x1a) strVal = r.string();
        else r.skip(key & 7);
      }
      return type === 1 ? strVal : intVal;
    }
    case S_RAW_EXTENSION:
    case S_FIELDS_V1: {
      let raw: Uint8Array | undefined;
      while (r.pos < end) {
        const key = r.uvarint();
        if (key === 0x0a) raw = r.bytes();
        else r.skip(key & 7);
      }
      return raw === undefined || raw.length === 0 ? undefined : parseEmbedded(raw);
    }
    case S_STRING_LIST: {
      const items: string[] = [];
      while (r.pos < end) {
        const key = r.uvarint();
        if (key === 0x0a) items.push(r.string());
        else r.skip(key & 7);
      }
      return items;
    }
    default:
      throw new ProtobufError(`unsupported special message ${msg.name}`);
  }
}

const PROTOBUF_PREFIX = [0x6b, 0x38, 0x73, 0x00];

/** RawExtension/FieldsV1 bytes: JSON text, or (watch events, lists) a nested protobuf envelope. */
function parseEmbedded(raw: Uint8Array): unknown {
  if (raw.length >= 4 && raw[0] === PROTOBUF_PREFIX[0] && raw[1] === PROTOBUF_PREFIX[1] && raw[2] === PROTOBUF_PREFIX[2] && raw[3] === PROTOBUF_PREFIX[3]) {
    return decodeEmbeddedEnvelope(raw);
  }
  const text = utf8Decode(raw, 0, raw.length);
  try {
    return JSON.parse(text);
  } catch {
    throw new ProtobufError(`embedded object is neither JSON nor protobuf: ${JSON.stringify(text.slice(0, 30))}`);
  }
}

function readMapEntry(f: FieldDesc, r: Reader, obj: Json): void {
  const start = r.delimited();
  const end = r.pos;
  r.pos = start;
  let key = '';
  let value: unknown;
  while (r.pos < end) {
    const tag = r.uvarint();
    if (tag === 0x0a) key = r.string();
    else if (tag === 0x12 && f.kind === K_MESSAGE) value = readMessageValue(f.message!, r);
    else if (f.kind !== K_MESSAGE && tag === (0x10 | scalarWireType(f.kind))) value = readScalar(f.kind, r);
    else r.skip(tag & 7);
  }
  if (r.pos !== end) throw new ProtobufError('unexpected EOF');
  if (value === undefined) value = zeroMapValue(f);
  const map = (obj[f.json] as Json | undefined) ?? (obj[f.json] = {});
  (map as Json)[key] = value;
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

const orders = new WeakMap<MessageDesc, string[]>();

/** JSON keys of a message in Go struct order, embedded structs flattened in place. */
function jsonOrder(desc: MessageDesc): string[] {
  let order = orders.get(desc);
  if (!order) {
    order = [];
    for (const f of desc.fields) {
      if (f.inline) order.push(...jsonOrder(f.message!));
      else order.push(f.json);
    }
    orders.set(desc, order);
  }
  return order;
}

function reorder(desc: MessageDesc, obj: Json): Json {
  const order = jsonOrder(desc);
  const out: Json = {};
  for (let i = 0; i < order.length; i++) {
    const k = order[i];
    const v = obj[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}
