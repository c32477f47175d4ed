// Store behaviour the conformance suite does not pin down: paging and counting at scale over the
// memory backend (their speed is measured in bench/, not asserted here).

import { describe, expect, it } from 'vitest';
import { createMemoryBackend } from './memory-backend';
import { openMvccStore } from './mvcc';
import type { MvccStore } from './types';

async function fill(store: MvccStore, count: number, body: (i: number) => string): Promise<void> {
  for (let i = 0; i < count; i += 1000) {
    const writes: Array<Promise<unknown>> = [];
    for (let j = i; j < Math.min(count, i + 1000); j++) {
      // Scatter the names so inserts land all over the key order.
      const name = ((j * 7919) % count).toString().padStart(6, '0');
      writes.push(store.create(`/registry/configmaps/ns-${j % 10}/cm-${name}`, () => body(j)));
    }
    await Promise.all(writes);
  }
}

describe('MVCC store at scale (memory backend)', () => {
  it('pages 500 at a time through 100,000 keys and counts from the index', async () => {
    const store = await openMvccStore(createMemoryBackend());
    await fill(store, 100_000, (i) => `{"i":${i}}`);
    expect(store.revision).toBe(100_000);
    expect(store.count('/registry/configmaps/')).toBe(100_000);
    expect(store.count('/registry/configmaps/ns-3/')).toBe(10_000);

    let after: string | undefined;
    let listed = 0;
    for (let page = 0; page < 20; page++) {
      const result = await store.range('/registry/configmaps/ns-3/', { limit: 500, after });
      listed += result.kvs.length;
      after = result.kvs.at(-1)!.key;
      expect(result.remaining).toBe(10_000 - listed);
      expect(result.more).toBe(listed < 10_000);
    }
    expect(listed).toBe(10_000);
    for (let i = 0; i < 10; i++) expect(store.count(`/registry/configmaps/ns-${i}/`)).toBe(10_000);
    await store.close();
  });

  it('serves a past-revision page from 10,000 keys while writes continue', async () => {
    const store = await openMvccStore(createMemoryBackend());
    await fill(store, 10_000, (i) => `{"i":${i}}`);
    const rev = store.revision;
    await store.update('/registry/configmaps/ns-0/cm-000000', () => ({ kind: 'delete' }));
    await store.create('/registry/configmaps/ns-0/aaa', () => '{}');
    const past = await store.range('/registry/configmaps/ns-0/', { rev, limit: 500 });
    expect(past.kvs[0]!.key).toBe('/registry/configmaps/ns-0/cm-000000');
    expect(past.remaining).toBe(500);
    await store.close();
  });
});
