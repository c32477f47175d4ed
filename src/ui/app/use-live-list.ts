// Runs a watch for a collection into a watch store (one batch per animation frame) and calls
// onBatch once per applied batch, e.g. to refresh the Table page being shown.
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { ResourceRef } from '../lib/api-paths';
import type { KubeObject } from '../lib/watch';
import { createWatchStore, type WatchStoreSnapshot } from '../lib/watch-store';
import { useClient } from './client-context';

export interface LiveList {
  snapshot: WatchStoreSnapshot<KubeObject>;
  /** The error that ended the watch, shown rather than swallowed. */
  error: unknown;
}

export function useLiveList(ref: ResourceRef, namespace: string | undefined, labelSelector: string, onBatch: () => void): LiveList {
  const client = useClient();
  const store = useMemo(() => createWatchStore<KubeObject>(), [client, ref.group, ref.version, ref.resource, namespace, labelSelector]);
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => store.subscribe(onBatch), [store, onBatch]);
  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    void (async () => {
      try {
        for await (const item of client.watch(ref, { namespace, labelSelector, signal: controller.signal })) store.push(item);
      } catch (e) {
        if (!controller.signal.aborted) setError(e);
      }
    })();
    return () => controller.abort();
  }, [store]);
  return { snapshot, error };
}
