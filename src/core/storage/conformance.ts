// The conformance suite every KvBackend must pass under the MVCC store. Run it from a backend's
// test file: runStoreConformance('memory', () => createMemoryBackend(), (b) => b).

import { describe } from 'vitest';
import { commitConformance } from './conformance-commit';
import { crudConformance } from './conformance-crud';
import type { MakeBackend, ReopenBackend } from './conformance-harness';
import { historyConformance } from './conformance-history';
import { watchConformance } from './conformance-watch';

export { ControlledBackend, type MakeBackend, type ReopenBackend } from './conformance-harness';

/**
 * Registers the suite. `makeBackend` returns a fresh, empty backend per call; `reopen`, when
 * given, returns a backend over the same durable data as a closed one (enables the reopen tests).
 */
export function runStoreConformance(name: string, makeBackend: MakeBackend, reopen?: ReopenBackend): void {
  describe(`MVCC store conformance: ${name}`, () => {
    crudConformance(makeBackend);
    historyConformance(makeBackend);
    watchConformance(makeBackend);
    commitConformance(makeBackend, reopen);
  });
}
