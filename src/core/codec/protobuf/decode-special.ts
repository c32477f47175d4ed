// Decoding of the messages whose JSON form is not an object of their fields: Time, MicroTime,
// Duration, Quantity, IntOrString, RawExtension / FieldsV1 (embedded JSON or protobuf) and the
// Go named []string types.
import { S_DURATION, S_FIELDS_V1, S_INT_OR_STRING, S_MICROTIME, S_QUANTITY, S_RAW_EXTENSION, S_STRING_LIST, S_TIME, type MessageDesc } from './descriptors';
import { formatDuration, formatMicroTime, formatTime } from './time';
import { ProtobufError, type Reader, utf8Decode } from './wire';

/** Decodes an embedded envelope (RawExtension holding protobuf); set by envelope.ts. */
let decodeEmbeddedEnvelope: (bytes: Uint8Array) => Record<string, unknown> = () => {
  throw new ProtobufError('embedded protobuf objects are not supported');
};
export function setEmbeddedEnvelopeDecoder(fn: (bytes: Uint8Array) => Record<string, unknown>): void {
  decodeEmbeddedEnvelope = fn;
}

/** The JSON form of special message `msg` in r.pos..end; undefined for a zero Time or empty raw. */
export function readSpecial(msg: MessageDesc, r: Reader, end: number): unknown {
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
