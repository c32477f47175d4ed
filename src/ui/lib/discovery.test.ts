import { describe, expect, it } from 'vitest';
import { crdDiscoveryTrigger } from './discovery';

const crd = (name: string, generation: number) => ({ metadata: { name, generation } });

describe('crdDiscoveryTrigger', () => {
  it('ignores the first list, then fires on create, spec change and delete but not on status updates', () => {
    const changed = crdDiscoveryTrigger();
    expect(changed({ type: 'RELIST', items: [crd('a.example.com', 1)], resourceVersion: '1' })).toBe(false);
    expect(changed({ type: 'BOOKMARK', object: { metadata: {} } })).toBe(false);
    expect(changed({ type: 'ADDED', object: crd('b.example.com', 1) })).toBe(true);
    // Conditions written by the server: same generation.
    expect(changed({ type: 'MODIFIED', object: crd('b.example.com', 1) })).toBe(false);
    expect(changed({ type: 'MODIFIED', object: crd('b.example.com', 2) })).toBe(true);
    expect(changed({ type: 'DELETED', object: crd('a.example.com', 1) })).toBe(true);
  });

  it('fires on a relist (after 410) only when CRDs or their specs differ', () => {
    const changed = crdDiscoveryTrigger();
    changed({ type: 'RELIST', items: [crd('a.example.com', 1)], resourceVersion: '1' });
    expect(changed({ type: 'RELIST', items: [crd('a.example.com', 1)], resourceVersion: '1' })).toBe(false);
    expect(changed({ type: 'RELIST', items: [crd('a.example.com', 2)], resourceVersion: '1' })).toBe(true);
    expect(changed({ type: 'RELIST', items: [crd('a.example.com', 2), crd('b.example.com', 1)], resourceVersion: '1' })).toBe(true);
    expect(changed({ type: 'RELIST', items: [crd('b.example.com', 1)], resourceVersion: '1' })).toBe(true);
  });
});
