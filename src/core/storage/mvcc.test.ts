// Store behaviour the conformance suite does not pin down: speed at scale over the memory backend.

import { describe, expect, it } from 'vitest';
import { createMemoryBackend } from '../../backends/memory/memory-backend';
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

function median(samples: number[]): number {
  return [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

describe('MVCC store at scale (memory backend)', () => {
  it('pages 500 of 100,000 keys in well under a millisecond and counts from the index', async () => {
    const store = await openMvccStore(createMemoryBackend());
    await fill(store, 100_000, (i) => `{"i":${i}}`);
    expect(store.revision).toBe(100_000);
    expect(store.count('/registry/configmaps/')).toBe(100_000);
    expect(store.count('/registry/configmaps/ns-3/')).toBe(10_000);

    let after: string | undefined;
    const times: number[] = [];
    let listed = 0;
    for (let page = 0; page < 20; page++) {
      const start = performance.now();
      const result = await store.range('/registry/configmaps/ns-3/', { limit: 500, after });
      times.push(performance.now() - start);
      listed += result.kvs.length;
      after = result.kvs.at(-1)!.key;
      expect(result.remaining).toBe(10_000 - listed);
      expect(result.more).toBe(listed < 10_000);
    }
    expect(listed).toBe(10_000);
    expect(median(times)).toBeLessThan(0.5);

    const countTimes: number[] = [];
    for (let i = 0; i < 20; i++) {
      const start = performance.now();
      store.count(`/registry/configmaps/ns-${i % 10}/`);
      countTimes.push(performance.now() - start);
    }
    expect(median(countTimes)).toBeLessThan(0.2);
    await store.close();
  });

  it('serves a past-revision page from 10,000 keys while writes continue', async () => {
    const store = await openMvccStore(createMemoryBackend());
    await fill(store, 10_000, (i) => `{"i":${i}}`);
    const rev = store.revision;
    await store.update('/registry/configmaps/ns-0/cm-000000', () => ({ kind: 'delete' }));
    await store.create('/registry/configmaps/ns-0/aaa', () => '{}');
    const start = performance.now();
    const past = await store.range('/registry/configmaps/ns-0/', { rev, limit: 500 });
    expect(performance.now() - start).toBeLessThan(50);
    expect(past.kvs[0]!.key).toBe('/registry/configmaps/ns-0/cm-000000');
    expect(past.remaining).toBe(500);
    await store.close();
  });
});
