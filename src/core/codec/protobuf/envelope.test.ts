import { describe, expect, it } from 'vitest';
import recorded from './testdata/recorded-bodies.json';
import { decodeProtobufObject, encodeProtobufObject, encodeWatchFrame, hasProtobufForm, NoProtobufForm, ProtobufError } from './index';

interface RecordedBody {
  log: string;
  command: string;
  size: number;
  hex?: string;
  hexPrefix?: string;
  json: Record<string, unknown>;
}

const bodies = recorded as RecordedBody[];
const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g)!.map((b) => parseInt(b, 16)));
const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

describe('recorded kubectl/helm protobuf bodies', () => {
  it('covers the recordings', () => {
    expect(bodies.filter((b) => b.hex).length).toBeGreaterThanOrEqual(20);
  });

  for (const body of bodies) {
    const label = `${body.log}: ${body.command} (${body.size} bytes)`;
    if (body.hex) {
      it(`decodes and re-encodes byte-identical: ${label}`, () => {
        const bytes = fromHex(body.hex!);
        expect(bytes.length).toBe(body.size);
        const decoded = decodeProtobufObject(bytes);
        expect(decoded.apiVersion).toBe(body.json.apiVersion);
        expect(decoded.kind).toBe(body.json.kind);
        expect(decoded.object).toEqual(body.json);
        expect(toHex(encodeProtobufObject(decoded.object))).toBe(body.hex);
      });
    } else {
      it(`encodes the recorded object to the recorded size${body.hexPrefix ? ' and prefix' : ''}: ${label}`, () => {
        const encoded = encodeProtobufObject(body.json);
        expect(encoded.length).toBe(body.size);
        if (body.hexPrefix) expect(toHex(encoded).startsWith(body.hexPrefix)).toBe(true);
        expect(decodeProtobufObject(encoded).object).toEqual(body.json);
      });
    }
  }
});

describe('envelope errors', () => {
  it('rejects a body without the k8s\\0 prefix', () => {
    expect(() => decodeProtobufObject(new TextEncoder().encode('{"kind":"Pod"}'))).toThrow(
      new ProtobufError('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]'),
    );
    expect(() => decodeProtobufObject(new Uint8Array([0x6b, 0x38]))).toThrow(ProtobufError);
  });

  it('rejects truncated and garbage bodies with a ProtobufError', () => {
    const ns = encodeProtobufObject({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } });
    for (let cut = 5; cut < ns.length - 4; cut += 3) {
      expect(() => decodeProtobufObject(ns.subarray(0, cut)), `cut at ${cut}`).toThrow(Error);
    }
    const garbage = new Uint8Array([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x05, 0x0a, 0x02, 0x76, 0x31, 0x12, 0x01, 0x50, 0x12, 0x03, 0xff, 0xff, 0xff]);
    expect(() => decodeProtobufObject(garbage)).toThrow(ProtobufError);
    const wrongWireType = new Uint8Array([...ns.subarray(0, 4), 0x0a, 0x0f, 0x0a, 0x02, 0x76, 0x31, 0x12, 0x09, ...new TextEncoder().encode('Namespace'), 0x12, 0x02, 0x08, 0x01]);
    expect(() => decodeProtobufObject(wrongWireType)).toThrow('proto: wrong wireType = 0 for field metadata');
  });

  it('requires a kind and a known kind', () => {
    const noKind = new Uint8Array([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x04, 0x0a, 0x02, 0x76, 0x31]);
    expect(() => decodeProtobufObject(noKind)).toThrow(ProtobufError);
    const custom = encodeProtobufObject({ apiVersion: 'v1', kind: 'Namespace' });
    custom[custom.indexOf(0x4e)] = 0x58; // "Namespace" → "Xamespace"
    expect(() => decodeProtobufObject(custom)).toThrow(NoProtobufForm);
  });

  it('refuses to encode kinds without a protobuf message', () => {
    expect(() => encodeProtobufObject({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } })).toThrow(NoProtobufForm);
    expect(() => encodeProtobufObject({ apiVersion: 'meta.k8s.io/v1', kind: 'Table', rows: [] })).toThrow(NoProtobufForm);
    expect(() => encodeProtobufObject({ metadata: {} })).toThrow(NoProtobufForm);
  });
});

describe('hasProtobufForm', () => {
  it('knows built-in kinds, lists, meta kinds and the removed betas', () => {
    expect(hasProtobufForm('v1', 'Namespace')).toBe(true);
    expect(hasProtobufForm('v1', 'ConfigMapList')).toBe(true);
    expect(hasProtobufForm('apps/v1', 'Deployment')).toBe(true);
    expect(hasProtobufForm('autoscaling/v1', 'Scale')).toBe(true);
    expect(hasProtobufForm('authentication.k8s.io/v1', 'TokenRequest')).toBe(true);
    expect(hasProtobufForm('authorization.k8s.io/v1', 'SelfSubjectAccessReview')).toBe(true);
    expect(hasProtobufForm('policy/v1', 'Eviction')).toBe(true);
    expect(hasProtobufForm('batch/v1beta1', 'CronJob')).toBe(true);
    expect(hasProtobufForm('policy/v1beta1', 'PodSecurityPolicy')).toBe(true);
    expect(hasProtobufForm('flowcontrol.apiserver.k8s.io/v1beta1', 'FlowSchema')).toBe(true);
    expect(hasProtobufForm('v1', 'Status')).toBe(true);
    expect(hasProtobufForm('apps/v1', 'DeleteOptions')).toBe(true);
    expect(hasProtobufForm('meta.k8s.io/v1', 'PartialObjectMetadataList')).toBe(true);
  });

  it('has no form for custom resources, Table, CRDs and typos', () => {
    expect(hasProtobufForm('example.com/v1', 'Widget')).toBe(false);
    expect(hasProtobufForm('meta.k8s.io/v1', 'Table')).toBe(false);
    expect(hasProtobufForm('apiextensions.k8s.io/v1', 'CustomResourceDefinition')).toBe(false);
    expect(hasProtobufForm('v1', 'Deployment')).toBe(false);
    expect(hasProtobufForm('', 'Status')).toBe(false);
  });
});

describe('encodeWatchFrame', () => {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', resourceVersion: '12' } };

  it('is a 4-byte big-endian length followed by envelope(WatchEvent{type, object.raw = envelope(obj)})', () => {
    const frame = encodeWatchFrame('ADDED', pod);
    const len = (frame[0] << 24) | (frame[1] << 16) | (frame[2] << 8) | frame[3];
    expect(len).toBe(frame.length - 4);
    const outer = decodeProtobufObject(frame.subarray(4));
    expect(outer.apiVersion).toBe('v1');
    expect(outer.kind).toBe('WatchEvent');
    // The inner raw is itself a protobuf envelope; the decoder unwraps it into the object.
    expect(outer.object).toEqual({ type: 'ADDED', object: pod });
    const inner = encodeProtobufObject(pod);
    expect(toHex(frame).includes(toHex(inner))).toBe(true);
  });

  it('lets the caller name the watched group/version for the event envelope', () => {
    const status = { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (2)', reason: 'Expired', code: 410 };
    const frame = encodeWatchFrame('ERROR', status, 'apps/v1');
    const outer = decodeProtobufObject(frame.subarray(4));
    expect(outer.apiVersion).toBe('apps/v1');
    expect(outer.object).toEqual({ type: 'ERROR', object: { apiVersion: 'v1', kind: 'Status', status: 'Failure', message: 'too old resource version: 1 (2)', reason: 'Expired', code: 410 } });
  });
});
