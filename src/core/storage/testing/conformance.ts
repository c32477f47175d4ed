// The conformance suite every MVCC store passes. The in-process store runs it over each KvBackend
// (runStoreConformance('memory', () => createMemoryBackend(), (b) => b)); a store of its own, as
// the etcd store, runs the parts that do not reach into the in-process commit machinery
// (runStoreConformanceOn('etcd', target)), with revisions relative to the one it opened at.

import { describe } from 'vitest';
import { commitConformance } from './conformance-commit';
import { crudConformance } from './conformance-crud';
import { backendTarget, type MakeBackend, type ReopenBackend, type StoreTarget } from './conformance-harness';
import { historyConformance } from './conformance-history';
import { watchConformance } from './conformance-watch';

export { ControlledBackend, ManualClock, WINDOW_MS, type MakeBackend, type ReopenBackend, type StoreTarget } from './conformance-harness';

/**
 * Registers the suite. `makeBackend` returns a fresh, empty backend per call; `reopen`, when
 * given, returns a backend over the same durable data as a closed one (enables the reopen tests).
 */
export function runStoreConformance(name: string, makeBackend: MakeBackend, reopen?: ReopenBackend): void {
  describe(`MVCC store conformance: ${name}`, () => {
    const target = backendTarget(makeBackend);
    crudConformance(target);
    historyConformance(target);
    watchConformance(target);
    commitConformance(makeBackend, reopen);
  });
}

/** Registers the suite for a store that is not the in-process one over a KvBackend. */
export function runStoreConformanceOn(name: string, target: StoreTarget): void {
  describe(`MVCC store conformance: ${name}`, () => {
    crudConformance(target);
    historyConformance(target);
    watchConformance(target);
  });
}
