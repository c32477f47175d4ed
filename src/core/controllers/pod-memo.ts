// What a controller asks of a pod on every sync (is it active, ready, whose is it, does it match
// this selector), worked out once per pod object. The informer replaces an object on each change
// and never mutates one, so an answer kept against the object itself is never stale, and it goes
// with the object. A ReplicaSet of a thousand pods syncs on nearly every one of their events;
// without this each sync re-reads every pod's conditions and labels.
import type { Obj } from '../registry/objects';
import { controllerRefOf, isActivePod, isPodReady } from './pods';

export interface PodFacts {
  /** The controller reference's uid; `hasController` tells an orphan from a reference without uid. */
  controllerUid: unknown;
  hasController: boolean;
  active: boolean;
  ready: boolean;
}

const facts = new WeakMap<Obj, PodFacts>();

export function podFacts(pod: Obj): PodFacts {
  let f = facts.get(pod);
  if (!f) {
    const ref = controllerRefOf(pod);
    f = { controllerUid: ref?.uid, hasController: ref !== undefined, active: isActivePod(pod), ready: isPodReady(pod) };
    facts.set(pod, f);
  }
  return f;
}

/** One answer per pod object for a question named by `key` (a selector's text): asked again with the same key, the kept answer. */
export class PodMemo<T> {
  private readonly answers = new WeakMap<Obj, { key: string; value: T }>();

  get(pod: Obj, key: string, compute: (pod: Obj) => T): T {
    const kept = this.answers.get(pod);
    if (kept && kept.key === key) return kept.value;
    const value = compute(pod);
    this.answers.set(pod, { key, value });
    return value;
  }
}
