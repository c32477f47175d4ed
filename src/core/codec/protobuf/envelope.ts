// The `application/vnd.kubernetes.protobuf` envelope: "k8s\0" followed by runtime.Unknown
// { 1: TypeMeta{1: apiVersion, 2: kind}, 2: raw (the object's message), 3: contentEncoding,
// 4: contentType }, and the length-prefixed frames of a protobuf watch stream.
import { decodeMessageInto, setEmbeddedEnvelopeDecoder } from './decode';
import { messageForKind, type MessageDesc } from './descriptors';
import { encodeMessage } from './encode';
import { ProtobufError, Reader, Writer } from './wire';

export { ProtobufError } from './wire';

/** Thrown when a kind has no protobuf message (custom resources, unknown kinds, Table). */
export class NoProtobufForm extends Error {
  override readonly name = 'NoProtobufForm';
  constructor(
    readonly apiVersion: string,
    readonly kind: string,
  ) {
    super(`object ${JSON.stringify(apiVersion)}, Kind=${kind} has no protobuf form`);
  }
}

const PREFIX = [0x6b, 0x38, 0x73, 0x00];
const PREFIX_MESSAGE = 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]';
/** Messages whose Go type has no TypeMeta: their JSON form carries no kind/apiVersion. */
const NO_TYPE_META = new Set(['k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent']);

export interface DecodedObject {
  apiVersion: string;
  kind: string;
  object: Record<string, unknown>;
}

/** Is there a protobuf message for this apiVersion/kind? */
export function hasProtobufForm(apiVersion: string, kind: string): boolean {
  return messageForKind(apiVersion, kind) !== undefined;
}

/** Decodes a `k8s\0` envelope body. Throws ProtobufError (bad prefix, malformed data) or NoProtobufForm (unknown kind). */
export function decodeProtobufObject(body: Uint8Array): DecodedObject {
  if (body.length < 4 || body[0] !== PREFIX[0] || body[1] !== PREFIX[1] || body[2] !== PREFIX[2] || body[3] !== PREFIX[3]) {
    throw new ProtobufError(PREFIX_MESSAGE);
  }
  const r = new Reader(body, 4, body.length);
  let apiVersion = '';
  let kind = '';
  let rawStart = -1;
  let rawEnd = -1;
  let contentEncoding = '';
  while (r.pos < r.end) {
    const key = r.uvarint();
    if (key === 0x0a) {
      const start = r.delimited();
      const tm = new Reader(body, start, r.pos);
      while (tm.pos < tm.end) {
        const k = tm.uvarint();
        if (k === 0x0a) apiVersion = tm.string();
        else if (k === 0x12) kind = tm.string();
        else tm.skip(k & 7);
      }
    } else if (key === 0x12) {
      rawStart = r.delimited();
      rawEnd = r.pos;
    } else if (key === 0x1a) {
      contentEncoding = r.string();
    } else {
      if (key < 8) throw new ProtobufError(`proto: Unknown: illegal tag 0 (wire type ${key & 7})`);
      r.skip(key & 7);
    }
  }
  if (contentEncoding !== '') throw new ProtobufError(`unsupported protobuf contentEncoding ${JSON.stringify(contentEncoding)}`);
  if (kind === '') throw new ProtobufError(`Object 'Kind' is missing in protobuf envelope`);
  const desc = messageForKind(apiVersion, kind);
  if (!desc) throw new NoProtobufForm(apiVersion, kind);
  // The JSON form starts with kind and apiVersion; the fields follow in their own order.
  const object: Record<string, unknown> = NO_TYPE_META.has(desc.name) ? {} : { kind, apiVersion };
  if (rawStart >= 0) decodeMessageInto(desc, new Reader(body, rawStart, rawEnd), rawEnd, object);
  return { apiVersion, kind, object };
}

setEmbeddedEnvelopeDecoder((bytes) => decodeProtobufObject(bytes).object);

// One writer reused across calls (encoding is synchronous); finish() copies the result out.
let shared = new Writer(16384);
const MAX_KEPT = 1 << 20;

function takeWriter(): Writer {
  shared.pos = shared.buf.length;
  return shared;
}

function releaseWriter(w: Writer): void {
  if (w.buf.length > MAX_KEPT) shared = new Writer(16384);
}

function typeOf(obj: Record<string, unknown>): { apiVersion: string; kind: string; desc: MessageDesc } {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const desc = messageForKind(apiVersion, kind);
  if (!desc) throw new NoProtobufForm(apiVersion, kind);
  return { apiVersion, kind, desc };
}

/** Writes envelope(typeMeta, raw written by `content`) backwards into w. */
function writeEnvelope(w: Writer, apiVersion: string, kind: string, content: () => void): void {
  w.byte(0x00); // 4: contentType ""
  w.byte(0x22);
  w.byte(0x00); // 3: contentEncoding ""
  w.byte(0x1a);
  const rawMark = w.length;
  content();
  w.lengthSince(rawMark);
  w.byte(0x12);
  const tmMark = w.length;
  const kindMark = w.length;
  w.utf8(kind);
  w.lengthSince(kindMark);
  w.byte(0x12);
  const avMark = w.length;
  w.utf8(apiVersion);
  w.lengthSince(avMark);
  w.byte(0x0a);
  w.lengthSince(tmMark);
  w.byte(0x0a);
  for (let i = PREFIX.length - 1; i >= 0; i--) w.byte(PREFIX[i]);
}

/** Encodes a JSON object (with apiVersion/kind) into a `k8s\0` envelope. Throws NoProtobufForm for kinds without a message. */
export function encodeProtobufObject(obj: Record<string, unknown>): Uint8Array {
  const { apiVersion, kind, desc } = typeOf(obj);
  const w = takeWriter();
  writeEnvelope(w, apiVersion, kind, () => encodeMessage(desc, obj, w));
  const out = w.finish();
  releaseWriter(w);
  return out;
}

/**
 * One frame of an `application/vnd.kubernetes.protobuf;stream=watch` response: a 4-byte
 * big-endian length, then envelope(WatchEvent{type, object: RawExtension{raw: envelope(obj)}}).
 * The outer envelope's typeMeta is `<watchApiVersion>/WatchEvent`: the real server encodes the
 * event for the watched resource's group/version (defaults to the object's apiVersion).
 */
export function encodeWatchFrame(type: string, obj: Record<string, unknown>, watchApiVersion?: string): Uint8Array {
  const inner = encodeProtobufObject(obj);
  const apiVersion = watchApiVersion ?? (typeof obj.apiVersion === 'string' ? obj.apiVersion : 'v1');
  const w = takeWriter();
  writeEnvelope(w, apiVersion, 'WatchEvent', () => {
    const objMark = w.length;
    const rawMark = w.length;
    w.raw(inner);
    w.lengthSince(rawMark);
    w.byte(0x0a); // RawExtension.raw
    w.lengthSince(objMark);
    w.byte(0x12); // WatchEvent.object
    const typeMark = w.length;
    w.utf8(type);
    w.lengthSince(typeMark);
    w.byte(0x0a); // WatchEvent.type
  });
  const len = w.length;
  w.byte(len & 0xff);
  w.byte((len >>> 8) & 0xff);
  w.byte((len >>> 16) & 0xff);
  w.byte((len >>> 24) & 0xff);
  const out = w.finish();
  releaseWriter(w);
  return out;
}
