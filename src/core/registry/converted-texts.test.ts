// Converted texts: the shared budget, and writes converting new revisions for versions in use.
import { describe, expect, it } from 'vitest';
import { ConvertedTexts } from './converted-texts';
import { codecFor, prepareServedTexts } from './conversion';
import { builtinResources } from '../schema';

const hpaV2Info = builtinResources.find((i) => i.group === 'autoscaling' && i.version === 'v2' && i.resource === 'horizontalpodautoscalers')!;

/** Stored text of an autoscaling/v1 HPA (the storage version) at revision `rv`. */
const storedHpa = (rv: number) =>
  JSON.stringify({
    metadata: { name: 'web', namespace: 'default', resourceVersion: String(rv) },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 60 },
  });

describe('ConvertedTexts', () => {
  it('counts keys and values, evicts oldest first across caches and never exceeds the budget', () => {
    const texts = new ConvertedTexts(100);
    const a = new Map<string, string>();
    const b = new Map<string, string>();
    texts.add(a, 'k1'.padEnd(20, '.'), 'v'.repeat(20));
    texts.add(b, 'k2'.padEnd(20, '.'), 'v'.repeat(20));
    expect(texts.size).toBe(80);
    texts.add(a, 'k3'.padEnd(20, '.'), 'v'.repeat(20));
    expect(texts.size).toBe(80);
    expect([...a.keys()]).toEqual(['k3'.padEnd(20, '.')]);
    expect(b.size).toBe(1);
    // Adding a key again changes nothing.
    texts.add(a, 'k3'.padEnd(20, '.'), 'w');
    expect(texts.size).toBe(80);
    expect(a.get('k3'.padEnd(20, '.'))).toBe('v'.repeat(20));
  });

  it('stays within budget over many adds (the order list is compacted)', () => {
    const texts = new ConvertedTexts(1000);
    const m = new Map<string, string>();
    for (let i = 0; i < 10_000; i++) texts.add(m, `key-${i}`, 'x'.repeat(40));
    expect(texts.size).toBeLessThanOrEqual(1000);
    expect(m.has('key-9999')).toBe(true);
    expect(m.has('key-0')).toBe(false);
  });
});

describe('write-time conversion for versions in use', () => {
  it('converts a new revision only for codecs read lately, and the next read finds it ready', () => {
    const texts = new ConvertedTexts();
    const codec = codecFor(hpaV2Info, texts)!;
    expect(codec).toBeDefined();
    expect(codec.inUse(Date.now())).toBe(false);
    prepareServedTexts([codec], storedHpa(1));
    expect(texts.size).toBe(0);

    const first = codec.toServedText(storedHpa(1));
    expect(JSON.parse(first).spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }]);
    expect(codec.inUse(Date.now())).toBe(true);
    const afterRead = texts.size;

    prepareServedTexts([codec], storedHpa(2));
    const prepared = texts.size;
    expect(prepared).toBeGreaterThan(afterRead);
    const second = codec.toServedText(storedHpa(2));
    expect(texts.size).toBe(prepared);
    expect(JSON.parse(second).metadata.resourceVersion).toBe('2');
    expect(codec.inUse(Date.now() + 10 * 60_000)).toBe(false);
  });
});
