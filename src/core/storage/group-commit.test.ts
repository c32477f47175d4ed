// The commit delay of group commit: a batch waits for more writes only while enough write
// requests are in progress, and no longer than every one of them has joined.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GroupCommit, type CommitDelay, type PendingBatch } from './group-commit';
import type { CommitBatch, KV, StoreEvent } from './types';

/** A sink whose commits settle on the next macrotask, as IndexedDB's do, recording each batch. */
function recordingSink() {
  const commits: CommitBatch[] = [];
  const applied: PendingBatch[] = [];
  return {
    commits,
    applied,
    sink: {
      commit(batch: CommitBatch) {
        commits.push(batch);
        return new Promise<void>((resolve) => setTimeout(resolve, 0));
      },
      applied: (batch: PendingBatch) => void applied.push(batch),
      compactRevision: () => 0,
    },
  };
}

let rev = 0;
function put(group: GroupCommit, key: string) {
  rev++;
  const kv: KV = { key, value: `{"rev":${rev}}`, createRev: rev, modRev: rev };
  const event: StoreEvent = { type: 'put', key, rev, createRev: rev, value: kv.value };
  return group.write(key, kv, event, { kv, changed: true });
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.useRealTimers();
});

describe('group commit delay', () => {
  it('with enough writers in progress, writes from later ticks join the waiting batch', async () => {
    vi.useFakeTimers();
    const { sink, commits } = recordingSink();
    let active = 5;
    const delay: CommitDelay = { ms: 2, minWriters: 3, activeWriters: () => active };
    const group = new GroupCommit(sink, delay);
    const first = put(group, '/a');
    await vi.advanceTimersByTimeAsync(1);
    expect(commits).toHaveLength(0);
    const second = put(group, '/b');
    active = 4;
    await vi.advanceTimersByTimeAsync(1);
    expect(commits).toHaveLength(1);
    expect(commits[0]!.puts.map((p) => p.key)).toEqual(['/a', '/b']);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all([first, second]);
  });

  it('a lone writer (fewer than minWriters in progress) commits at once', async () => {
    const { sink, commits } = recordingSink();
    const group = new GroupCommit(sink, { ms: 60_000, minWriters: 3, activeWriters: () => 2 });
    const started = Date.now();
    await put(group, '/a');
    await put(group, '/b');
    expect(commits.map((c) => c.puts.map((p) => p.key))).toEqual([['/a'], ['/b']]);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('stops waiting once every writer in progress has joined', async () => {
    const { sink, commits } = recordingSink();
    const group = new GroupCommit(sink, { ms: 60_000, minWriters: 3, activeWriters: () => 3 });
    const writes = [put(group, '/a')];
    await tick();
    writes.push(put(group, '/b'));
    await tick();
    expect(commits).toHaveLength(0);
    writes.push(put(group, '/c'));
    await Promise.all(writes);
    expect(commits.map((c) => c.puts.map((p) => p.key))).toEqual([['/a', '/b', '/c']]);
  });

  it('writes queued behind an in-flight commit wait too, then land in one batch', async () => {
    vi.useFakeTimers();
    const { sink, commits, applied } = recordingSink();
    let active = 1;
    const group = new GroupCommit(sink, { ms: 2, minWriters: 3, activeWriters: () => active });
    const first = put(group, '/a');
    await vi.advanceTimersByTimeAsync(0);
    expect(commits).toHaveLength(1);
    // Two more arrive while the first commit is in flight; more writers are on their way.
    active = 6;
    const later = [put(group, '/b'), put(group, '/c')];
    await vi.advanceTimersByTimeAsync(0);
    expect(applied).toHaveLength(1);
    expect(commits).toHaveLength(1);
    later.push(put(group, '/d'));
    await vi.advanceTimersByTimeAsync(2);
    expect(commits.map((c) => c.puts.map((p) => p.key))).toEqual([['/a'], ['/b', '/c', '/d']]);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all([first, ...later]);
    expect(applied).toHaveLength(2);
  });

  it('without a delay, writes of one tick share a commit and later ones do not wait', async () => {
    const { sink, commits } = recordingSink();
    const group = new GroupCommit(sink);
    await Promise.all([put(group, '/a'), put(group, '/b')]);
    await put(group, '/c');
    expect(commits.map((c) => c.puts.map((p) => p.key))).toEqual([['/a', '/b'], ['/c']]);
  });
});
