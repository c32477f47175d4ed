// Test helper (used only by *.test.ts; imports nothing from vitest): follows the pods of a
// namespace through a watch and checks a rollout's promises after every single event, not only
// at the points a test happens to look — never more pods than allowed, never fewer available.
import type { Obj } from '../registry/objects';
import { collectStream, type StreamCollector, type TestClient } from './api-server';
import { isPodAvailable } from '../controllers/pods';

export interface PodCounts {
  /** Pods that exist and are not being deleted. */
  pods: number;
  /** Of those, available (ready for minReadySeconds). */
  available: number;
  /** The live pods, for per-node checks. */
  live: Obj[];
}

export interface RolloutWatch {
  /** Replays every event received so far, calling `check` after each; returns how many were checked. */
  checkEach(check: (counts: PodCounts, event: Obj) => void): number;
  stop(): void;
}

/** Starts a watch of the namespace's pods matching `labelSelector` from now. */
export async function watchPods(t: TestClient, namespace: string, labelSelector: string, now: () => number, minReadySeconds = 0): Promise<RolloutWatch> {
  const list = (await t.get(`/api/v1/namespaces/${namespace}/pods?labelSelector=${encodeURIComponent(labelSelector)}`)).json;
  const initial: Obj[] = list.items ?? [];
  const reply = await t.request('GET', `/api/v1/namespaces/${namespace}/pods?watch=1&labelSelector=${encodeURIComponent(labelSelector)}&resourceVersion=${list.metadata.resourceVersion}`);
  const stream: StreamCollector = collectStream(reply.raw);
  return {
    checkEach(check) {
      const pods = new Map<string, Obj>(initial.map((p) => [String(p.metadata.name), p]));
      let n = 0;
      for (const e of stream.events) {
        if (e.type === 'BOOKMARK' || e.type === 'ERROR') continue;
        const name = String(e.object.metadata.name);
        if (e.type === 'DELETED') pods.delete(name);
        else pods.set(name, e.object);
        const live = [...pods.values()].filter((p) => !p.metadata.deletionTimestamp && p.status?.phase !== 'Failed' && p.status?.phase !== 'Succeeded');
        check({ pods: live.length, available: live.filter((p) => isPodAvailable(p, minReadySeconds, now())).length, live }, e);
        n++;
      }
      return n;
    },
    stop: () => stream.cancel(),
  };
}
