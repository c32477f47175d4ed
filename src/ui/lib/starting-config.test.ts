import { describe, expect, it } from 'vitest';
import { skeletonConfig, startingConfig } from './starting-config';

describe('starting configuration from a live object', () => {
  it('keeps what a manifest holds and drops what the server owns', () => {
    const live = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', uid: 'u1', resourceVersion: '7', generation: 2, creationTimestamp: 't', managedFields: [{ manager: 'a' }], labels: { app: 'web' }, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}', note: 'x' } },
      spec: { replicas: 2 },
      status: { replicas: 2 },
    };
    expect(startingConfig(live)).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', labels: { app: 'web' }, annotations: { note: 'x' } }, spec: { replicas: 2 } });
    expect(live.metadata.uid).toBe('u1');
  });

  it('drops an annotations map that only held the last-applied record', () => {
    expect(startingConfig({ metadata: { name: 'a', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } } })).toEqual({ metadata: { name: 'a' } });
  });

  it('builds a skeleton for a new object', () => {
    expect(skeletonConfig('v1', 'ConfigMap', 'c', 'ns')).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' } });
    expect(skeletonConfig('v1', 'Namespace', 'n')).toEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } });
  });

  it('keeps a top-level key named __proto__ as a key', () => {
    const live = JSON.parse('{"apiVersion":"x.io/v1","kind":"W","metadata":{"name":"w"},"__proto__":{"a":1},"status":{}}');
    const out = startingConfig(live);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"apiVersion":"x.io/v1","kind":"W","metadata":{"name":"w"},"__proto__":{"a":1}}');
  });
});
