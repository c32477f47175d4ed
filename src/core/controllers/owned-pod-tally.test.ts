import { describe, expect, it } from 'vitest';
import type { Obj } from '../registry/objects';
import type { Informer, InformerHandlers } from './informer';
import { InformerIndexes, type IndexFunc } from './informer-index';
import { OwnedPodTally, type PodCounts, type TallyBasis } from './owned-pod-tally';

/** The part of an informer the tally uses: a cache with indexes whose changes reach handlers synchronously, as Informer.apply does. */
class FakePodInformer {
  private readonly cache = new Map<string, Obj>();
  private readonly indexes = new InformerIndexes();
  private readonly handlers: InformerHandlers[] = [];

  addHandlers(h: InformerHandlers): void {
    this.handlers.push(h);
    for (const obj of this.cache.values()) h.onAdd?.(obj);
  }
  addIndex(name: string, fn: IndexFunc): void {
    if (!this.indexes.has(name)) this.indexes.add(name, fn, this.cache);
  }
  byIndex(name: string, value: string): Obj[] {
    return this.indexes.get(name, value);
  }
  put(obj: Obj): void {
    const key = `${obj.metadata.namespace}/${obj.metadata.name}`;
    const old = this.cache.get(key);
    this.cache.set(key, obj);
    this.indexes.update(key, old, obj);
    for (const h of this.handlers) (old ? h.onUpdate?.(obj, old) : h.onAdd?.(obj));
  }
  remove(name: string): void {
    const key = `default/${name}`;
    const old = this.cache.get(key);
    if (!old) return;
    this.cache.delete(key);
    this.indexes.update(key, old, undefined);
    for (const h of this.handlers) h.onDelete?.(old);
  }
  all(): Obj[] {
    return [...this.cache.values()];
  }
}

function pod(name: string, o: { owner?: string; app?: string; tier?: string; ready?: boolean; phase?: string; namespace?: string; deleting?: boolean }): Obj {
  return {
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      labels: { ...(o.app ? { app: o.app } : {}), ...(o.tier ? { tier: o.tier } : {}) },
      ...(o.owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: o.owner, uid: o.owner, controller: true }] } : {}),
      ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    status: { phase: o.phase ?? 'Running', conditions: [{ type: 'Ready', status: o.ready ? 'True' : 'False' }] },
  };
}

const basis = (key = 'app=web'): TallyBasis => ({
  namespace: 'default',
  key,
  matches: (p) => p.metadata.labels?.app === 'web',
  fullyLabeled: (p) => p.metadata.labels?.app === 'web' && p.metadata.labels?.tier === 'front',
});

/** The counts by a walk over every pod, as a sync made them before the tally. */
function recount(pods: Obj[], owner: string, b: TallyBasis): PodCounts {
  const c: PodCounts = { active: 0, ready: 0, fullyLabeled: 0, unmatched: 0 };
  for (const p of pods) {
    const ref = (p.metadata.ownerReferences ?? []).find((r: Obj) => r.controller);
    if (ref?.uid !== owner || p.metadata.namespace !== b.namespace) continue;
    if (!b.matches(p)) {
      c.unmatched++;
      continue;
    }
    const active = p.status.phase !== 'Succeeded' && p.status.phase !== 'Failed' && !p.metadata.deletionTimestamp;
    if (!active) continue;
    c.active++;
    if (p.status.conditions[0].status === 'True') c.ready++;
    if (b.fullyLabeled(p)) c.fullyLabeled++;
  }
  return c;
}

describe('OwnedPodTally', () => {
  it('follows adds, updates, ownership moves and deletes to the same counts as a full recount', () => {
    const inf = new FakePodInformer();
    const tally = new OwnedPodTally(inf as unknown as Informer);
    inf.put(pod('before', { owner: 'rs-a', app: 'web', ready: true }));
    expect(tally.counts('rs-a', basis())).toEqual({ active: 1, ready: 1, fullyLabeled: 0, unmatched: 0 });

    // A seeded walk through the changes a pod goes through, checked against a recount after each.
    let seed = 7;
    const rand = (n: number) => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0), (seed >>> 16) % n);
    const phases = ['Pending', 'Running', 'Succeeded', 'Failed'];
    for (let step = 0; step < 2000; step++) {
      const name = `p${rand(40)}`;
      if (rand(10) === 0) inf.remove(name);
      else
        inf.put(
          pod(name, {
            owner: ['rs-a', 'rs-b', undefined][rand(3)],
            app: ['web', 'db'][rand(2)],
            tier: rand(2) ? 'front' : undefined,
            ready: rand(2) === 1,
            phase: phases[rand(4)],
            namespace: rand(8) ? 'default' : 'other',
            deleting: rand(10) === 0,
          }),
        );
      for (const owner of ['rs-a', 'rs-b']) expect(tally.counts(owner, basis())).toEqual(recount(inf.all(), owner, basis()));
    }
    // The walk went through every kind of pod, not a few repeated ones.
    expect(recount(inf.all(), 'rs-a', basis()).active).toBeGreaterThan(0);
    expect(recount(inf.all(), 'rs-b', basis()).unmatched).toBeGreaterThan(0);
  });

  it('counts again when asked with another selector or labels, and starts over after forget', () => {
    const inf = new FakePodInformer();
    const tally = new OwnedPodTally(inf as unknown as Informer);
    inf.put(pod('a', { owner: 'rs-a', app: 'web', tier: 'front', ready: true }));
    inf.put(pod('b', { owner: 'rs-a', app: 'db', ready: true }));
    expect(tally.counts('rs-a', basis())).toEqual({ active: 1, ready: 1, fullyLabeled: 1, unmatched: 1 });
    const everything: TallyBasis = { namespace: 'default', key: 'everything', matches: () => true, fullyLabeled: () => false };
    expect(tally.counts('rs-a', everything)).toEqual({ active: 2, ready: 2, fullyLabeled: 0, unmatched: 0 });
    // A copy: the caller's numbers do not move with later events.
    const held = tally.counts('rs-a', everything);
    inf.remove('a');
    expect(held.active).toBe(2);
    expect(tally.counts('rs-a', everything).active).toBe(1);
    tally.forget('rs-a');
    expect(tally.counts('rs-a', basis())).toEqual({ active: 0, ready: 0, fullyLabeled: 0, unmatched: 1 });
  });
});
