import { describe, expect, it } from 'vitest';
import { stripManagedFields, withCachedSpec } from './informer-transform';

describe('stripManagedFields', () => {
  it('drops metadata.managedFields and keeps everything else, leaving the parsed object untouched', () => {
    const obj = { kind: 'Pod', metadata: { name: 'p', namespace: 'default', managedFields: [{ manager: 'kubelet', operation: 'Update' }], labels: { app: 'a' } }, spec: { nodeName: 'n1' } };
    const kept = stripManagedFields(obj);
    expect(kept).toEqual({ kind: 'Pod', metadata: { name: 'p', namespace: 'default', labels: { app: 'a' } }, spec: { nodeName: 'n1' } });
    expect(obj.metadata.managedFields).toEqual([{ manager: 'kubelet', operation: 'Update' }]);
    expect(kept.spec).toBe(obj.spec);
  });

  it('returns an object without managedFields as it is', () => {
    const obj = { kind: 'Node', metadata: { name: 'n1' } };
    expect(stripManagedFields(obj)).toBe(obj);
  });
});

describe('withCachedSpec', () => {
  const rs = (generation: number | undefined, cpu: string, ready: number) => ({
    kind: 'ReplicaSet',
    metadata: { name: 'web', namespace: 'default', ...(generation === undefined ? {} : { generation }) },
    spec: { replicas: 3, template: { spec: { containers: [{ name: 'c', resources: { requests: { cpu } } }] } } },
    status: { readyReplicas: ready },
  });

  it('hands on the cached spec object after a status-only change, with the new status', () => {
    const old = rs(2, '100m', 1);
    const next = withCachedSpec(rs(2, '100m', 2), old);
    expect(next.spec).toBe(old.spec);
    expect(next.status).toEqual({ readyReplicas: 2 });
  });

  it('keeps a spec that differs only in form when the generation stayed (a quantity written another way)', () => {
    const old = rs(2, '100m', 1);
    const sent = rs(2, '0.1', 1);
    const next = withCachedSpec(sent, old);
    expect(next).toBe(sent);
    expect(next.spec.template.spec.containers[0].resources.requests.cpu).toBe('0.1');
  });

  it('leaves objects alone when the generation moved, is absent, or nothing was cached', () => {
    const old = rs(2, '100m', 1);
    const moved = rs(3, '100m', 1);
    expect(withCachedSpec(moved, old)).toBe(moved);
    const pod = rs(undefined, '100m', 1);
    expect(withCachedSpec(pod, rs(undefined, '100m', 0))).toBe(pod);
    expect(withCachedSpec(moved, undefined)).toBe(moved);
  });
});
