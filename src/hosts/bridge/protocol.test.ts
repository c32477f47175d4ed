import { describe, expect, it } from 'vitest';
import { BadFrame, canonicalHeaderName, decodeFrame, encodeFrame, isWatchRequest, normalizePairingCode } from './protocol';

describe('bridge frames', () => {
  it('carry a JSON header and body bytes untouched', () => {
    const body = new Uint8Array([0x6b, 0x38, 0x73, 0x00, 0xff]);
    const { header, body: out } = decodeFrame(encodeFrame({ t: 'res', id: 7, status: 200, headers: [['content-type', 'application/vnd.kubernetes.protobuf']], stream: false }, body));
    expect(header).toEqual({ t: 'res', id: 7, status: 200, headers: [['content-type', 'application/vnd.kubernetes.protobuf']], stream: false });
    expect([...out]).toEqual([...body]);
  });

  it('refuse truncated or foreign frames', () => {
    expect(() => decodeFrame(new Uint8Array([0, 0]))).toThrow(BadFrame);
    expect(() => decodeFrame(new Uint8Array([0, 0, 0, 9, 1]))).toThrow(BadFrame);
    expect(() => decodeFrame(encodeFrame({ x: 1 } as never))).toThrow(BadFrame);
  });
});

describe('isWatchRequest', () => {
  it('reads watch= as Go parses a bool, and the legacy /watch/ paths', () => {
    expect(isWatchRequest('/api/v1/pods?watch=true')).toBe(true);
    expect(isWatchRequest('/api/v1/pods?resourceVersion=5&watch=1')).toBe(true);
    expect(isWatchRequest('/api/v1/pods?watch=false')).toBe(false);
    expect(isWatchRequest('/api/v1/pods?watch=yes')).toBe(false);
    expect(isWatchRequest('/api/v1/watch/namespaces/default/pods')).toBe(true);
    expect(isWatchRequest('/apis/apps/v1/watch/deployments')).toBe(true);
    expect(isWatchRequest('/api/v1/namespaces/watch')).toBe(false);
    expect(isWatchRequest('/api/v1/pods')).toBe(false);
  });
});

describe('canonicalHeaderName', () => {
  it('spells names as Go writes them', () => {
    expect(canonicalHeaderName('x-kubernetes-pf-flowschema-uid')).toBe('X-Kubernetes-Pf-Flowschema-Uid');
    expect(canonicalHeaderName('audit-id')).toBe('Audit-Id');
    expect(canonicalHeaderName('content-type')).toBe('Content-Type');
    expect(canonicalHeaderName('bad name')).toBe('bad name');
  });

  it('pairing codes may be typed with spaces or a dash', () => {
    expect(normalizePairingCode(' 1234-5678 ')).toBe('12345678');
  });
});
