// The shortcuts the codec takes for speed must never change what it produces: the decoded
// string cache, the native path for long strings, the shared slot stacks after a failure, and
// objects whose keys are not in JSON order.
import { describe, expect, it } from 'vitest';
import { decodeProtobufObject, encodeProtobufObject } from './index';
import { utf8Decode } from './utf8-decode';
import { Writer } from './wire';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('utf8Decode', () => {
  it('tells apart strings that share length and sampled bytes', () => {
    // Same length, same first/middle/last bytes: they may land in one cache slot.
    const a = utf8('aXbYcZa');
    const b = utf8('aQbWcEa');
    for (let round = 0; round < 3; round++) {
      expect(utf8Decode(a, 0, a.length)).toBe('aXbYcZa');
      expect(utf8Decode(b, 0, b.length)).toBe('aQbWcEa');
    }
  });

  it('decodes slices at any offset, non-ASCII, invalid and long input like TextDecoder', () => {
    const buf = utf8('xxnginx:1.25yy');
    expect(utf8Decode(buf, 2, 12)).toBe('nginx:1.25');
    expect(utf8Decode(buf, 2, 2)).toBe('');
    const accents = utf8('välue-😀');
    expect(utf8Decode(accents, 0, accents.length)).toBe('välue-😀');
    const invalid = new Uint8Array([0x61, 0xff, 0x62]);
    expect(utf8Decode(invalid, 0, 3)).toBe('a\ufffdb');
    const long = utf8('k'.repeat(200) + 'é');
    expect(utf8Decode(long, 0, long.length)).toBe('k'.repeat(200) + 'é');
    // An ASCII string that was cached must not be returned for a same-length non-ASCII one.
    const ascii = utf8('abcd');
    const latin = new Uint8Array([0x61, 0xc3, 0xa9, 0x64]);
    expect(utf8Decode(ascii, 0, 4)).toBe('abcd');
    expect(utf8Decode(latin, 0, 4)).toBe('aéd');
  });
});

describe('Writer.utf8 on long strings', () => {
  it('writes the same bytes as TextEncoder, after earlier content and with growth', () => {
    for (const text of ['a'.repeat(100), 'ü'.repeat(70) + 'x', `${'z'.repeat(80)}😀€`, `${'q'.repeat(90)}\ud800end`]) {
      const w = new Writer(8);
      w.utf8('tail');
      w.utf8(text);
      const expected = new TextEncoder().encode(text + 'tail');
      expect(Array.from(w.finish()), text.slice(-8)).toEqual(Array.from(expected));
    }
  });
});

describe('after a failure, the next call is unaffected', () => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', labels: { app: 'a' } },
    spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }], restartPolicy: 'Always' },
  };

  it('encode: a bad value deep in the object does not leak into the next encode', () => {
    const nameless = { ...pod, spec: { containers: [{ image: 'x' }] } };
    const before = [encodeProtobufObject(nameless), encodeProtobufObject(pod)];
    const bad = { ...pod, spec: { ...pod.spec, containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 'eighty' }] }] } };
    expect(() => encodeProtobufObject(bad)).toThrow('field containerPort: cannot encode "eighty" as an integer');
    expect([encodeProtobufObject(nameless), encodeProtobufObject(pod)]).toEqual(before);
  });

  it('decode: a body that fails halfway does not leak values into the next decode', () => {
    const bytes = encodeProtobufObject(pod);
    // Container.image (field 2) retagged as a varint: the container's name is read, then it fails.
    const nginx = String.fromCharCode(...bytes).indexOf('nginx');
    expect([bytes[nginx - 2], bytes[nginx - 1]]).toEqual([0x12, 5]);
    const broken = bytes.slice();
    broken[nginx - 2] = 0x10;
    expect(() => decodeProtobufObject(broken)).toThrow('proto: wrong wireType = 0 for field image');
    const nameless = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ image: 'x' }] } };
    expect(decodeProtobufObject(encodeProtobufObject(nameless)).object).toEqual(nameless);
    expect(decodeProtobufObject(bytes).object).toEqual(pod);
  });
});

describe('key order', () => {
  it('encodes objects whose keys are out of JSON order, or unknown, like ordered ones', () => {
    const ordered = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'n' }, spec: { ports: [{ name: 'http', protocol: 'TCP', port: 80 }], type: 'ClusterIP' } };
    const shuffled = { spec: { type: 'ClusterIP', extra: 1, ports: [{ port: 80, protocol: 'TCP', name: 'http' }] }, metadata: { namespace: 'n', bogus: 'x', name: 's' }, kind: 'Service', apiVersion: 'v1' };
    expect(encodeProtobufObject(shuffled)).toEqual(encodeProtobufObject(ordered));
  });

  it('decodes keys in JSON order whatever the wire order, with embedded structs flattened in place', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      spec: { volumes: [{ name: 'v', configMap: { name: 'cm' } }], containers: [{ name: 'c', env: [{ name: 'A', value: '1' }], envFrom: [{ prefix: 'P_' }] }] },
    };
    const decoded = decodeProtobufObject(encodeProtobufObject(pod)).object as { spec: { volumes: object[]; containers: object[] } };
    expect(Object.keys(decoded)).toEqual(['kind', 'apiVersion', 'spec']);
    expect(Object.keys(decoded.spec)).toEqual(['volumes', 'containers']);
    expect(Object.keys(decoded.spec.volumes[0])).toEqual(['name', 'configMap']);
    // Go struct order puts envFrom (field 19) before env (field 7).
    expect(Object.keys(decoded.spec.containers[0])).toEqual(['name', 'envFrom', 'env']);
  });
});
