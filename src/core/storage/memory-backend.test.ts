import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { runStoreConformance } from './testing/conformance';
import { openMvccStore } from './mvcc';
import { createMemoryBackend } from './memory-backend';

// Reopening a memory backend means opening a new store over the same backend instance.
runStoreConformance('memory', () => createMemoryBackend(), (previous) => previous);

describe('memory backend footprint', () => {
  it('holds 100,000 ConfigMaps of ~500 bytes in at most 3x their JSON size', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;

    const store = await openMvccStore(createMemoryBackend());
    const filler = 'v'.repeat(280);
    let jsonBytes = 0;
    for (let i = 0; i < 100_000; i += 1000) {
      const writes: Array<Promise<unknown>> = [];
      for (let j = i; j < i + 1000; j++) {
        const name = `cm-${((j * 7919) % 100_000).toString().padStart(6, '0')}`;
        writes.push(
          store.create(`/registry/configmaps/default/${name}`, (rev) => {
            const text = JSON.stringify({
              kind: 'ConfigMap',
              apiVersion: 'v1',
              metadata: { name, namespace: 'default', uid: `00000000-0000-4000-8000-${j.toString().padStart(12, '0')}`, resourceVersion: String(rev), creationTimestamp: '2024-01-01T00:00:00Z' },
              data: { key: `${filler}${j}` },
            });
            jsonBytes += text.length;
            return text;
          }),
        );
      }
      await Promise.all(writes);
    }
    gc();
    const used = process.memoryUsage().heapUsed - before;
    expect(store.count('/registry/configmaps/')).toBe(100_000);
    expect(jsonBytes / 100_000).toBeGreaterThan(450);
    // History (5-minute window) still holds all 100,000 create events here, and it is counted.
    expect(used).toBeLessThan(3 * jsonBytes);
    await store.close();
  });
});
