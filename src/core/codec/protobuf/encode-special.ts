// Encoding of the messages whose JSON form is not an object of their fields (Time, MicroTime,
// Duration, Quantity, IntOrString, RawExtension / FieldsV1, Go named []string types). Like the
// rest of the encoder this writes backwards: content first, then what precedes it.
import { S_DURATION, S_FIELDS_V1, S_INT_OR_STRING, S_MICROTIME, S_QUANTITY, S_RAW_EXTENSION, S_STRING_LIST, S_TIME, type MessageDesc } from './descriptors';
import { parseDuration, parseTime } from './time';
import { ProtobufError, type Writer } from './wire';

/** Writes the content of special message `msg` for JSON value `v` (undefined: the Go zero value). */
export function writeSpecial(msg: MessageDesc, v: unknown, w: Writer): void {
  switch (msg.special) {
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
    case S_QUANTITY:
      // Go writes Quantity.String(); a zero Quantity prints as "0".
      w.stringField(v === undefined || v === '' ? '0' : String(v), 0x0a);
      return;
    case S_INT_OR_STRING: {
      const isString = typeof v === 'string';
      w.stringField(isString ? v : '', 0x1a);
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
      for (let i = v.length - 1; i >= 0; i--) w.stringField(String(v[i]), 0x0a);
      return;
    }
    default:
      throw new ProtobufError(`unsupported special message ${msg.name}`);
  }
}

/** A JSON number (or numeric text) as an integer; int32 fields wrap as Go's conversion does. */
export function toInteger(v: unknown, field: string, int32: boolean): number {
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n)) throw new ProtobufError(`field ${field}: cannot encode ${JSON.stringify(v)} as an integer`);
  return int32 ? n | 0 : n;
}
