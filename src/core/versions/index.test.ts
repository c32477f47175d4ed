import { describe, expect, it } from 'vitest';
import { convert, convertibleKinds, parseApiVersion, storageVersionOf } from './index';

describe('storageVersionOf', () => {
  it('returns the shared storage version of multi-version resources', () => {
    expect(storageVersionOf('autoscaling', 'horizontalpodautoscalers')).toBe('autoscaling/v1');
    expect(storageVersionOf('batch', 'cronjobs')).toBe('batch/v1');
    expect(storageVersionOf('policy', 'poddisruptionbudgets')).toBe('policy/v1');
    expect(storageVersionOf('events.k8s.io', 'events')).toBe('v1');
    expect(storageVersionOf('discovery.k8s.io', 'endpointslices')).toBe('discovery.k8s.io/v1');
    expect(storageVersionOf('flowcontrol.apiserver.k8s.io', 'flowschemas')).toBe('flowcontrol.apiserver.k8s.io/v1beta1');
  });
  it('returns the only version of single-version resources', () => {
    expect(storageVersionOf('', 'pods')).toBe('v1');
    expect(storageVersionOf('apps', 'deployments')).toBe('apps/v1');
    expect(storageVersionOf('storage.k8s.io', 'csistoragecapacities')).toBe('storage.k8s.io/v1beta1');
  });
  it('throws for an unknown resource', () => {
    expect(() => storageVersionOf('apps', 'nopes')).toThrow(/unknown resource nopes.apps/);
  });
  it('names a version the kind converts from and to', () => {
    const kinds = convertibleKinds();
    expect(kinds.HorizontalPodAutoscaler).toContain(storageVersionOf('autoscaling', 'horizontalpodautoscalers'));
    expect(kinds.Event).toContain(storageVersionOf('events.k8s.io', 'events'));
  });
});

describe('convert', () => {
  it('throws for an unknown kind or an unserved version', () => {
    expect(() => convert({ kind: 'Pod' }, 'v1', 'v1')).toThrow(/no conversion for kind "Pod"/);
    expect(() => convert({ kind: 'CronJob' }, 'batch/v1', 'batch/v2')).toThrow(/CronJob is not served at batch\/v2/);
  });
  it('sets apiVersion and kind first and never mutates the input', () => {
    const input = { metadata: { name: 'a' }, kind: 'CronJob', apiVersion: 'batch/v1beta1', spec: { schedule: '* * * * *' } };
    const snapshot = JSON.stringify(input);
    const out = convert(input, 'batch/v1beta1', 'batch/v1');
    expect(JSON.stringify(out)).toBe('{"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"a"},"spec":{"schedule":"* * * * *"}}');
    expect(JSON.stringify(input)).toBe(snapshot);
  });
  it('parses apiVersions', () => {
    expect(parseApiVersion('v1')).toEqual({ group: '', version: 'v1' });
    expect(parseApiVersion('events.k8s.io/v1beta1')).toEqual({ group: 'events.k8s.io', version: 'v1beta1' });
  });
});
