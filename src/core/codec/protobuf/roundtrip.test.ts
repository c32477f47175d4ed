// Every built-in kind: an object with every field set (generated from the descriptors) survives
// JSON → protobuf → JSON unchanged.
import { describe, expect, it } from 'vitest';
import {
  K_BOOL,
  K_BYTES,
  K_INT32,
  K_INT64,
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
  messageForKind,
  protobufKinds,
  type FieldDesc,
  type MessageDesc,
} from './descriptors';
import { decodeProtobufObject, encodeProtobufObject } from './index';

type Json = Record<string, unknown>;

function sampleScalar(kind: number, name: string): unknown {
  switch (kind) {
    case K_STRING:
      return `${name}-välue`;
    case K_INT32:
      return 7;
    case K_INT64:
      return 1234567890123;
    case K_BOOL:
      return true;
    case K_BYTES:
      return 'AAEC/w==';
    default:
      throw new Error(`kind ${kind}`);
  }
}

let intOrStringToggle = false;

function sampleMessage(desc: MessageDesc, stack: MessageDesc[]): unknown {
  switch (desc.special) {
    case S_TIME:
      return '2024-01-02T03:04:05Z';
    case S_MICROTIME:
      return '2024-01-02T03:04:05.123456Z';
    case S_DURATION:
      return '1m30s';
    case S_QUANTITY:
      return '250m';
    case S_INT_OR_STRING:
      return (intOrStringToggle = !intOrStringToggle) ? 8080 : 'http';
    case S_RAW_EXTENSION:
      return { apiVersion: 'example.com/v1', kind: 'Thing', spec: { n: 1 } };
    case S_FIELDS_V1:
      return { 'f:metadata': { 'f:labels': { '.': {} } } };
    case S_STRING_LIST:
      return ['a', 'b'];
    case S_NONE:
      return sampleObject(desc, stack);
    default:
      throw new Error(desc.name);
  }
}

function sampleField(f: FieldDesc, stack: MessageDesc[]): unknown {
  if (f.message && stack.includes(f.message)) return undefined; // recursive types: stop
  const one = () => (f.message ? sampleMessage(f.message, stack) : sampleScalar(f.kind, f.json));
  if (f.map) return { k1: one(), k2: one() };
  if (f.repeated) return [one(), one()];
  return one();
}

function sampleObject(desc: MessageDesc, stack: MessageDesc[] = []): Json {
  const obj: Json = {};
  const inner = [...stack, desc];
  for (const f of desc.fields) {
    if (f.inline) Object.assign(obj, sampleObject(f.message!, inner));
    else {
      const v = sampleField(f, inner);
      // An empty message in a Go value field is its zero value, which decoding drops.
      const emptyValue = !f.pointer && !f.repeated && !f.map && typeof v === 'object' && v !== null && Object.keys(v).length === 0;
      if (v !== undefined && !emptyValue) obj[f.json] = v;
    }
  }
  return obj;
}

const kinds = Object.entries(protobufKinds()).flatMap(([apiVersion, names]) => names.map((kind) => [apiVersion, kind] as const));

describe('round trip of every built-in kind with every field set', () => {
  it('covers the v1.23 and v1.34 groups', () => {
    expect(kinds.length).toBeGreaterThan(400);
  });

  for (const [apiVersion, kind] of kinds) {
    it(`${apiVersion} ${kind}`, () => {
      const desc = messageForKind(apiVersion, kind)!;
      const sample = { apiVersion, kind, ...sampleObject(desc) };
      const bytes = encodeProtobufObject(sample);
      const decoded = decodeProtobufObject(bytes);
      const { apiVersion: _a, kind: _k, ...fields } = sample;
      const expected = desc.name.endsWith('.WatchEvent') ? fields : { kind, apiVersion, ...fields };
      expect(decoded.object).toEqual(expected);
      // Re-encoding the decoded object is stable.
      expect(encodeProtobufObject({ apiVersion, kind, ...decoded.object })).toEqual(bytes);
    });
  }
});
