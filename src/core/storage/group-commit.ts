// Group commit: writes issued in the same tick are coalesced into one backend commit. The first
// write of a batch schedules a flush with queueMicrotask; a synchronous backend (commit returns
// void) is applied in that same microtask, so the memory path costs one microtask per batch.
// While an asynchronous commit is in flight, new writes collect in the next batch, which is
// flushed as soon as the in-flight one settles: commits never overlap, so they land in revision
// order.
//
// Commit delay: a backend whose commits have a high fixed cost (an IndexedDB transaction costs
// about three times a put of a 1 kB value) may ask that, while several write requests are in
// progress, a batch wait a moment for the others to join it — PostgreSQL's commit_delay, which
// applies only while commit_siblings other transactions are active. A lone writer never waits.
//
// A write's callback saw the queued state (in-flight batch included). So when a commit fails,
// the queued batch, which may build on it, fails too: every pending write is rejected with
// StorageError('Backend') and the committed state is left exactly as it was.

import { StorageError, type CommitBatch, type KV, type StoreEvent, type UpdateResult } from './types';

interface Waiter {
  result: UpdateResult;
  resolve: (result: UpdateResult) => void;
  reject: (error: unknown) => void;
}

/** Writes waiting for one backend commit. */
export class PendingBatch {
  /** Final state of each written key in this batch: KV, or null when deleted. */
  readonly writes = new Map<string, KV | null>();
  readonly events: StoreEvent[] = [];
  readonly waiters: Waiter[] = [];
  /** Highest revision allocated to this batch. */
  revision = 0;
}

export interface CommitSink {
  commit(batch: CommitBatch): Promise<void> | void;
  /** Applies a committed batch to the in-memory state (index, history, watchers). */
  applied(batch: PendingBatch): void;
  compactRevision(): number;
}

/** When a batch waits for more writes (see the header). */
export interface CommitDelay {
  /** How long a batch may wait. */
  ms: number;
  /** Wait only while at least this many write requests are in progress (the batch's own included). */
  minWriters: number;
  /** Write requests in progress now. */
  activeWriters(): number;
}

export class GroupCommit {
  private queued: PendingBatch | undefined;
  private inFlight: PendingBatch | undefined;
  private idleWaiters: Array<() => void> = [];
  /** The commit delay's timer while the queued batch waits. */
  private delayTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly sink: CommitSink,
    private readonly delay?: CommitDelay,
  ) {}

  /**
   * The newest queued state of `key`: KV, null when a queued write deletes it, undefined when no
   * pending batch touches it.
   */
  pendingState(key: string): KV | null | undefined {
    const queued = this.queued?.writes.get(key);
    if (queued !== undefined) return queued;
    return this.inFlight?.writes.get(key);
  }

  /** The newest batch holding a write to `key`, if any. */
  batchWriting(key: string): PendingBatch | undefined {
    if (this.queued?.writes.has(key)) return this.queued;
    if (this.inFlight?.writes.has(key)) return this.inFlight;
    return undefined;
  }

  /** Queues one write and returns the batch it joined (its promise settles with that batch). */
  write(key: string, state: KV | null, event: StoreEvent, result: UpdateResult): Promise<UpdateResult> {
    const batch = this.openBatch();
    batch.writes.set(key, state);
    batch.events.push(event);
    batch.revision = event.rev;
    const settled = new Promise<UpdateResult>((resolve, reject) => batch.waiters.push({ result, resolve, reject }));
    // Every writer in progress has joined: nothing left to wait for.
    if (this.delayTimer !== undefined && batch.waiters.length >= this.delay!.activeWriters()) {
      clearTimeout(this.delayTimer);
      this.delayTimer = undefined;
      queueMicrotask(this.flush);
    }
    return settled;
  }

  /** Settles together with `batch` without writing (a `none` that read queued state). */
  follow(batch: PendingBatch, result: UpdateResult): Promise<UpdateResult> {
    return new Promise((resolve, reject) => batch.waiters.push({ result, resolve, reject }));
  }

  /** Resolves once nothing is queued or in flight. */
  idle(): Promise<void> {
    if (!this.queued && !this.inFlight) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private openBatch(): PendingBatch {
    if (!this.queued) {
      this.queued = new PendingBatch();
      if (!this.inFlight) this.schedule(false);
    }
    return this.queued;
  }

  /** Flushes the queued batch: after the commit delay while enough writers are active, else now or on a microtask. */
  private schedule(now: boolean): void {
    const delay = this.delay;
    if (delay && delay.activeWriters() >= delay.minWriters) this.delayTimer = setTimeout(this.flush, delay.ms);
    else if (now) this.flush();
    else queueMicrotask(this.flush);
  }

  private readonly flush = (): void => {
    if (this.delayTimer !== undefined) clearTimeout(this.delayTimer);
    this.delayTimer = undefined;
    const batch = this.queued;
    if (!batch || this.inFlight) return;
    this.queued = undefined;
    this.inFlight = batch;
    let pending: Promise<void> | void;
    try {
      pending = this.sink.commit(toCommitBatch(batch, this.sink.compactRevision()));
    } catch (error) {
      this.fail(error);
      return;
    }
    if (pending && typeof pending.then === 'function') {
      pending.then(() => this.succeed(batch), (error: unknown) => this.fail(error));
    } else {
      this.succeed(batch);
    }
  };

  private succeed(batch: PendingBatch): void {
    this.inFlight = undefined;
    this.sink.applied(batch);
    for (const w of batch.waiters) w.resolve(w.result);
    if (this.queued) this.schedule(true);
    else this.notifyIdle();
  }

  private fail(error: unknown): void {
    const failed = [this.inFlight, this.queued];
    this.inFlight = undefined;
    this.queued = undefined;
    const reason = error instanceof Error ? error.message : String(error);
    for (const batch of failed) {
      for (const w of batch?.waiters ?? []) {
        w.reject(new StorageError('Backend', `commit failed: ${reason}`));
      }
    }
    this.notifyIdle();
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function toCommitBatch(batch: PendingBatch, compactRevision: number): CommitBatch {
  const puts: KV[] = [];
  const deletes: string[] = [];
  for (const [key, state] of batch.writes) {
    if (state) puts.push(state);
    else deletes.push(key);
  }
  return { revision: batch.revision, puts, deletes, events: batch.events, compactRevision };
}
