// Opening a store: read the backend's key index, meta and history, and the current values, and
// build the in-memory index and history window from them.

import { HistoryWindow } from './history';
import { KeyIndex } from './key-index';
import { StorageError, type KV, type KvBackend } from './types';

export interface LoadedState {
  index: KeyIndex;
  history: HistoryWindow;
  revision: number;
}

export async function loadState(backend: KvBackend, time: number): Promise<LoadedState> {
  let state;
  let values: Array<[string, string]>;
  try {
    state = await backend.open();
    values = state.values ?? (await backend.readPrefix(''));
  } catch (error) {
    if (error instanceof StorageError) throw error;
    throw new StorageError('Unavailable', `cannot open ${backend.name} backend: ${String(error)}`);
  }

  const records = new Map(state.index.map((r) => [r.key, r]));
  if (records.size !== values.length) {
    throw new StorageError('Backend', `${backend.name}: ${records.size} index records but ${values.length} values`);
  }
  const kvs: KV[] = values.map(([key, value]) => {
    const record = records.get(key);
    if (!record) throw new StorageError('Backend', `${backend.name}: value without index record`, key);
    return { key, value, createRev: record.createRev, modRev: record.modRev };
  });
  if (!isSorted(kvs)) kvs.sort((a, b) => (a.key < b.key ? -1 : 1));

  // Event times were not persisted: a reopened window starts counting now.
  const history = new HistoryWindow(state.compactRevision);
  for (const ev of state.events) {
    if (ev.rev > state.compactRevision) history.append(ev, time);
  }
  return { index: KeyIndex.fromSorted(kvs), history, revision: state.revision };
}

function isSorted(kvs: readonly KV[]): boolean {
  for (let i = 1; i < kvs.length; i++) if (!(kvs[i - 1]!.key < kvs[i]!.key)) return false;
  return true;
}
