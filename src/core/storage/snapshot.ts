// A store's whole state as a backend would load it: current keys with their revisions, the
// history window and the revision counters. A host that must leave its durable backend (the
// browser's IndexedDB failing mid-session) seeds an in-memory backend with it, so objects,
// resourceVersions and resumable watches carry over instead of being renumbered by a re-import.
// Only the store's public contract is used, so it works for every MvccStore.

import type { BackendState, MvccStore, StoreEvent } from './types';

export async function snapshotOf(store: MvccStore): Promise<BackendState> {
  const { kvs, rev } = await store.range('');
  const compactRevision = store.compactRevision;
  // A watch from the compaction floor replays the whole history window (on a microtask).
  const events: StoreEvent[] = [];
  const watch = store.watch('', compactRevision, (ev) => {
    if (ev.rev <= rev) events.push(ev);
  });
  await new Promise<void>((resolve) => queueMicrotask(resolve));
  watch.cancel();
  return {
    revision: rev,
    compactRevision,
    index: kvs.map(({ key, createRev, modRev }) => ({ key, createRev, modRev })),
    values: kvs.map((kv) => [kv.key, kv.value]),
    events,
  };
}
