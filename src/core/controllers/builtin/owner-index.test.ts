import { describe, expect, it } from 'vitest';
import { OwnerIndex } from './owner-index';

const ref = (uid: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: uid, uid });

describe('OwnerIndex', () => {
  it('finds dependents by owner uid and reports only new references', () => {
    const ix = new OwnerIndex();
    expect(ix.empty).toBe(true);
    expect(ix.set('/core/configmaps/ns/a', [ref('u1')])).toEqual([ref('u1')]);
    expect(ix.set('/core/configmaps/ns/b', [ref('u1'), ref('u2')])).toHaveLength(2);
    expect(ix.dependents('u1').sort()).toEqual(['/core/configmaps/ns/a', '/core/configmaps/ns/b']);
    expect(ix.set('/core/configmaps/ns/b', [ref('u2'), ref('u3')])).toEqual([ref('u3')]);
    expect(ix.dependents('u1')).toEqual(['/core/configmaps/ns/a']);
    expect(ix.remove('/core/configmaps/ns/b')).toHaveLength(2);
    expect(ix.dependents('u2')).toEqual([]);
    ix.set('/core/configmaps/ns/a', undefined);
    expect(ix.empty).toBe(true);
  });
  it('keeps the latest copy of unchanged references without reporting them again', () => {
    const ix = new OwnerIndex();
    ix.set('/core/pods/ns/p', [ref('u1')]);
    expect(ix.set('/core/pods/ns/p', [{ ...ref('u1'), blockOwnerDeletion: true }])).toEqual([]);
    expect(ix.refs('/core/pods/ns/p')).toEqual([{ ...ref('u1'), blockOwnerDeletion: true }]);
    expect(ix.dependents('u1')).toEqual(['/core/pods/ns/p']);
  });
});
