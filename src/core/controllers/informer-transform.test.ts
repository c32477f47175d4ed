import { describe, expect, it } from 'vitest';
import { stripManagedFields } from './informer-transform';

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
