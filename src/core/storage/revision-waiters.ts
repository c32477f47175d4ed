// Promises waiting for the store to reach a revision (waitForRevision), each with its own timeout.

import { StorageError } from './types';

interface RevisionWaiter {
  rev: number;
  resolve: () => void;
  reject: (error: StorageError) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class RevisionWaiters {
  private waiters: RevisionWaiter[] = [];

  wait(rev: number, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiter: RevisionWaiter = { rev, resolve, reject, timer: undefined };
      waiter.timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new StorageError('TooLargeRevision', `revision ${rev} not reached within ${timeoutMs}ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Resolves every waiter whose revision is now committed. */
  reached(revision: number): void {
    if (this.waiters.length === 0) return;
    const still: RevisionWaiter[] = [];
    for (const w of this.waiters) {
      if (w.rev <= revision) {
        clearTimeout(w.timer);
        w.resolve();
      } else still.push(w);
    }
    this.waiters = still;
  }

  rejectAll(error: StorageError): void {
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.reject(error);
    }
    this.waiters = [];
  }
}
