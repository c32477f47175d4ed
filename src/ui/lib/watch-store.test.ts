import { describe, expect, it } from 'vitest';
import { Ring } from './event-ring';
import { createFrameScheduler, createWatchStore, objectKey } from './watch-store';
import type { KubeObject, WatchItem } from './watch';

const cm = (name: string, rv: string, ns = 'default', data = ''): KubeObject => ({ kind: 'ConfigMap', metadata: { name, namespace: ns, resourceVersion: rv }, data: { v: data } });
const bookmark = (rv: string): WatchItem => ({ type: 'BOOKMARK', object: { kind: 'ConfigMap', metadata: { resourceVersion: rv } } });

/** A scheduler the test drives by hand, like animation frames. */
function manualFrames() {
  const pending: Array<() => void> = [];
  return { schedule: (f: () => void) => void pending.push(f), frame: () => pending.splice(0).forEach((f) => f()), get pending() { return pending.length; } };
}

describe('Ring', () => {
  it('keeps the latest entries in order', () => {
    const r = new Ring<number>(3);
    expect(r.toArray()).toEqual([]);
    [1, 2].forEach((n) => r.push(n));
    expect(r.toArray()).toEqual([1, 2]);
    [3, 4, 5].forEach((n) => r.push(n));
    expect(r.toArray()).toEqual([3, 4, 5]);
    expect(r.size).toBe(3);
    r.clear();
    expect(r.toArray()).toEqual([]);
    expect(() => new Ring(0)).toThrow(RangeError);
  });
});

describe('createWatchStore', () => {
  it('applies a burst of 1,000 events as one batch with one notification', () => {
    const frames = manualFrames();
    const store = createWatchStore({ schedule: frames.schedule, logCapacity: 2000 });
    let notified = 0;
    store.subscribe(() => notified++);
    for (let i = 0; i < 1000; i++) store.push({ type: 'ADDED', object: cm(`cm-${String(i).padStart(4, '0')}`, String(100 + i)) });
    expect(frames.pending).toBe(1);
    expect(store.getSnapshot().items).toHaveLength(0); // nothing visible before the frame
    frames.frame();
    expect(notified).toBe(1);
    const snap = store.getSnapshot();
    expect(snap.items).toHaveLength(1000);
    expect(snap.items[0]!.metadata!.name).toBe('cm-0000');
    expect(snap.resourceVersion).toBe('1099');
    expect(snap.batches).toBe(1);
    expect(snap.log).toHaveLength(1000);
    expect(store.getSnapshot()).toBe(snap); // stable identity between batches
  });

  it('keys by namespace/name, applies MODIFIED and DELETED and logs every event with its version', () => {
    const frames = manualFrames();
    const store = createWatchStore({ schedule: frames.schedule });
    store.push({ type: 'ADDED', object: cm('a', '2', 'ns1') });
    store.push({ type: 'ADDED', object: cm('a', '3', 'ns2') });
    store.push({ type: 'MODIFIED', object: cm('a', '4', 'ns1', 'changed') });
    store.push({ type: 'DELETED', object: cm('a', '5', 'ns2') });
    store.push(bookmark('9'));
    frames.frame();
    const snap = store.getSnapshot();
    expect(snap.items.map(objectKey)).toEqual(['ns1/a']);
    expect(snap.byKey.get('ns1/a')).toMatchObject({ data: { v: 'changed' } });
    expect(snap.resourceVersion).toBe('9');
    expect(snap.log.map((e) => [e.seq, e.type, e.key, e.resourceVersion])).toEqual([
      [1, 'ADDED', 'ns1/a', '2'], [2, 'ADDED', 'ns2/a', '3'], [3, 'MODIFIED', 'ns1/a', '4'], [4, 'DELETED', 'ns2/a', '5'], [5, 'BOOKMARK', '', '9'],
    ]);
    expect(objectKey({ metadata: { name: 'node-1' } })).toBe('node-1');
  });

  it('replaces the contents on RELIST and on reset', () => {
    const frames = manualFrames();
    const store = createWatchStore({ schedule: frames.schedule });
    store.push({ type: 'ADDED', object: cm('old', '2') });
    store.push({ type: 'RELIST', items: [cm('x', '7'), cm('y', '8')], resourceVersion: '20' });
    store.push({ type: 'ADDED', object: cm('z', '21') });
    frames.frame();
    expect(store.getSnapshot().items.map(objectKey)).toEqual(['default/x', 'default/y', 'default/z']);
    expect(store.getSnapshot().log.find((e) => e.type === 'RELIST')).toMatchObject({ resourceVersion: '20', count: 2 });
    store.push({ type: 'ADDED', object: cm('queued', '22') });
    store.reset([cm('only', '30')], '30');
    frames.frame(); // the queued event was dropped by the reset
    expect(store.getSnapshot().items.map(objectKey)).toEqual(['default/only']);
    expect(store.getSnapshot().resourceVersion).toBe('30');
  });

  it('bounds the log, stops notifying after unsubscribe and flushes on demand', () => {
    const frames = manualFrames();
    const store = createWatchStore({ schedule: frames.schedule, logCapacity: 3 });
    let notified = 0;
    const off = store.subscribe(() => notified++);
    for (let i = 1; i <= 5; i++) store.push(bookmark(String(i)));
    store.flush();
    expect(store.getSnapshot().log.map((e) => e.resourceVersion)).toEqual(['3', '4', '5']);
    expect(notified).toBe(1);
    frames.frame(); // the scheduled flush finds nothing to do
    expect(notified).toBe(1);
    off();
    store.push(bookmark('6'));
    frames.frame();
    expect(notified).toBe(1);
    expect(store.getSnapshot().resourceVersion).toBe('6');
  });

  it('defaults to a microtask batch where there are no animation frames', async () => {
    const store = createWatchStore();
    store.push({ type: 'ADDED', object: cm('a', '1') });
    store.push({ type: 'ADDED', object: cm('b', '2') });
    expect(store.getSnapshot().items).toHaveLength(0);
    await Promise.resolve();
    expect(store.getSnapshot().items).toHaveLength(2);
    expect(store.getSnapshot().batches).toBe(1);
  });
});

describe('createFrameScheduler', () => {
  function fakeHost() {
    const frames: Array<() => void> = [];
    const timers = new Map<number, () => void>();
    let next = 0;
    return {
      frames,
      timers,
      host: {
        requestAnimationFrame: (cb: () => void) => frames.push(cb),
        setTimeout: (cb: () => void, _ms: number) => (timers.set(++next, cb), next),
        clearTimeout: (h: unknown) => void timers.delete(h as number),
      },
    };
  }

  it('runs everything scheduled before a frame in that one frame, in order, and cancels the fallback timer', () => {
    const { frames, timers, host } = fakeHost();
    const schedule = createFrameScheduler(host);
    const ran: string[] = [];
    schedule(() => ran.push('watch batch'));
    schedule(() => ran.push('query result'));
    expect(frames.length).toBe(1);
    expect(timers.size).toBe(1);
    frames.shift()!();
    expect(ran).toEqual(['watch batch', 'query result']);
    expect(timers.size).toBe(0);
    schedule(() => ran.push('next'));
    expect(frames.length).toBe(1);
  });

  it('falls back to the timer when no frame comes (a throttled background tab)', () => {
    const { frames, timers, host } = fakeHost();
    const schedule = createFrameScheduler(host);
    let runs = 0;
    schedule(() => runs++);
    [...timers.values()][0]!();
    expect(runs).toBe(1);
    frames.shift()!(); // the late frame finds nothing left to do
    expect(runs).toBe(1);
  });

  it('uses a microtask where there are no frames', async () => {
    const schedule = createFrameScheduler({ setTimeout: () => 0, clearTimeout: () => {} });
    let runs = 0;
    schedule(() => runs++);
    schedule(() => runs++);
    expect(runs).toBe(0);
    await Promise.resolve();
    expect(runs).toBe(2);
  });
});
