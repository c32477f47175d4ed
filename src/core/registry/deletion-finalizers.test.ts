import { describe, expect, it } from 'vitest';
import { deletionFinalizers, orphansByDefault } from './deletion-finalizers';

describe('deletionFinalizers', () => {
  it('Background and no policy set nothing on a kind that deletes dependents by default', () => {
    expect(deletionFinalizers(undefined, {}, false)).toBeUndefined();
    expect(deletionFinalizers(['a'], { propagationPolicy: 'Background' }, false)).toBeUndefined();
  });
  it('Foreground and Orphan add their finalizer after the others', () => {
    expect(deletionFinalizers(['a'], { propagationPolicy: 'Foreground' }, false)).toEqual(['a', 'foregroundDeletion']);
    expect(deletionFinalizers(['a'], { propagationPolicy: 'Orphan' }, false)).toEqual(['a', 'orphan']);
    expect(deletionFinalizers([], { orphanDependents: true }, false)).toEqual(['orphan']);
  });
  it('an explicit policy replaces the other garbage-collection finalizer', () => {
    expect(deletionFinalizers(['orphan', 'a'], { propagationPolicy: 'Foreground' }, false)).toEqual(['a', 'foregroundDeletion']);
    expect(deletionFinalizers(['foregroundDeletion'], { propagationPolicy: 'Background' }, false)).toEqual([]);
    expect(deletionFinalizers(['orphan'], { orphanDependents: false }, true)).toEqual([]);
  });
  it('without a policy, a finalizer already there wins over the kind default', () => {
    expect(deletionFinalizers(['foregroundDeletion'], {}, true)).toBeUndefined();
    expect(deletionFinalizers(['orphan'], {}, false)).toBeUndefined();
    expect(deletionFinalizers([], {}, true)).toEqual(['orphan']);
  });
  it('the kinds and versions that orphan by default', () => {
    expect(orphansByDefault('', 'v1', 'replicationcontrollers')).toBe(true);
    expect(orphansByDefault('batch', 'v1', 'jobs')).toBe(true);
    expect(orphansByDefault('batch', 'v1beta1', 'cronjobs')).toBe(true);
    expect(orphansByDefault('batch', 'v1', 'cronjobs')).toBe(false);
    expect(orphansByDefault('apps', 'v1', 'replicasets')).toBe(false);
  });
});
