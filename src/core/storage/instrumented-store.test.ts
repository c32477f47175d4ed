import { describe, expect, it } from 'vitest';
import { createMemoryBackend } from './memory-backend';
import { instrumentStore, type StorageOperation } from './instrumented-store';
import { openMvccStore } from './mvcc';

describe('instrumentStore', () => {
  it('times each storage call with the operation kube records for it', async () => {
    const calls: Array<[StorageOperation, string, number]> = [];
    let clock = 0;
    // Every reading of the clock moves it 2 ms: each call lasts 2 ms.
    const store = instrumentStore(await openMvccStore(createMemoryBackend()), (op, key, s) => calls.push([op, key, s]), () => (clock += 2));
    const cm = (rev: number) => JSON.stringify({ rv: String(rev) });
    await store.create('/core/configmaps/default/a', cm);
    await store.get('/core/configmaps/default/a');
    await store.range('/core/configmaps/default/');
    await store.update('/core/configmaps/default/a', () => ({ kind: 'put', encode: cm }));
    await store.update('/core/configmaps/default/a', () => ({ kind: 'none' }));
    await store.update('/core/configmaps/default/a', () => ({ kind: 'delete' }));
    await expect(store.create('/core/configmaps/default/b', () => { throw new Error('refused'); })).rejects.toThrow('refused');
    expect(store.count('/core/configmaps/')).toBe(0);
    expect(calls).toEqual([
      ['create', '/core/configmaps/default/a', 0.002],
      ['get', '/core/configmaps/default/a', 0.002],
      ['list', '/core/configmaps/default/', 0.002],
      ['update', '/core/configmaps/default/a', 0.002],
      ['get', '/core/configmaps/default/a', 0.002],
      ['delete', '/core/configmaps/default/a', 0.002],
      // A failed call is timed too.
      ['create', '/core/configmaps/default/b', 0.002],
    ]);
    expect(store.revision).toBe(3);
    expect(store.backendName).toBe('memory');
    await store.close();
  });
});
