import { describe, expect, it } from 'vitest';
import { VirtualClock } from './clock';
import { KeyQueue } from './queue';

/** Lets the queue's worker run until it has nothing left. */
async function drained(q: KeyQueue): Promise<void> {
  for (let i = 0; i < 100 && !q.idle; i++) await new Promise((r) => setTimeout(r, 0));
  expect(q.idle).toBe(true);
}

describe('KeyQueue', () => {
  it('queues a key added during its own sync behind the keys added meanwhile, as client-go’s workqueue', async () => {
    const synced: string[] = [];
    const q: KeyQueue = new KeyQueue('test', new VirtualClock(), async (key) => {
      synced.push(key);
      if (synced.length === 1) {
        // The key's own events arrive first, then another key's.
        q.add('a');
        await Promise.resolve();
        q.add('b');
        q.add('a');
      }
    });
    q.add('a');
    await drained(q);
    expect(synced).toEqual(['a', 'b', 'a']);
  });

  it('syncs a key once for all the adds made while it waits', async () => {
    const synced: string[] = [];
    const q = new KeyQueue('test', new VirtualClock(), async (key) => void synced.push(key));
    q.add('a');
    q.add('b');
    q.add('a');
    await drained(q);
    expect(synced).toEqual(['a', 'b']);
  });
});
