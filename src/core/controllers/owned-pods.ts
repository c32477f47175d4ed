// How a controller that creates pods itself (ReplicaSet, ReplicationController, DaemonSet,
// StatefulSet, Job) hears of them, as kube's addPod/updatePod/deletePod handlers do: a pod with a
// controller reference of the controller's kind queues that owner (and counts against its
// expectations); a pod whose controller reference changed queues the old owner too; an orphan
// queues every owner that may adopt it. Expectations are kube's ControllerExpectations: creates
// and deletes a sync made and the informer has not shown yet, so the next sync does not act twice.
import type { Obj } from '../registry/objects';
import type { Informer } from './informer';
import { controllerRefOf } from './pods';

/** One owner's creates and deletes still to be seen (pod uids for the deletes). */
export interface PodExpectation {
  pendingAdds: number;
  deletes: Set<string>;
}

export class PodExpectations {
  private readonly byKey = new Map<string, PodExpectation>();

  /** Replaces `key`'s expectations: `adds` creates and the deletes of these pods (a sync adjusts the record for writes that failed). */
  expect(key: string, adds: number, deletes: Iterable<string> = []): PodExpectation {
    const exp = { pendingAdds: adds, deletes: new Set(deletes) };
    this.byKey.set(key, exp);
    return exp;
  }

  /** The informer showed one of `key`'s pods. */
  observe(key: string, pod: Obj, what: PodEvent): void {
    const exp = this.byKey.get(key);
    if (!exp) return;
    if (what === 'add' && exp.pendingAdds > 0) exp.pendingAdds--;
    if (what === 'delete') exp.deletes.delete(String(pod.metadata.uid));
  }

  /** Nothing made by the last sync is still unseen. */
  satisfied(key: string): boolean {
    const exp = this.byKey.get(key);
    return !exp || (exp.pendingAdds <= 0 && exp.deletes.size === 0);
  }

  forget(key: string): void {
    this.byKey.delete(key);
  }
}

export type PodEvent = 'add' | 'update' | 'delete';

export interface PodOwnerRouting {
  /** The owners' kind, as their pods' controller references name it. */
  kind: string;
  enqueue(key: string): void;
  expectations?: PodExpectations;
  /** The keys of the owners that may adopt an orphan pod (none when absent). */
  adopters?(pod: Obj): Iterable<string>;
}

/** Routes the pod informer's events to the owners they concern. */
export function followOwnedPods(pods: Informer, owner: PodOwnerRouting): void {
  const route = (pod: Obj, what: PodEvent) => {
    const ref = controllerRefOf(pod);
    if (ref) {
      if (ref.kind !== owner.kind) return;
      const key = `${String(pod.metadata?.namespace)}/${ref.name}`;
      owner.expectations?.observe(key, pod, what);
      owner.enqueue(key);
      return;
    }
    // An orphan that went away concerns nobody; one that exists may be adopted.
    if (what === 'delete' || !owner.adopters) return;
    for (const key of owner.adopters(pod)) owner.enqueue(key);
  };
  pods.addHandlers({
    onAdd: (pod) => route(pod, 'add'),
    onUpdate: (pod, old) => {
      route(pod, 'update');
      if (controllerRefOf(old)?.uid !== controllerRefOf(pod)?.uid) route(old, 'update');
    },
    onDelete: (pod) => route(pod, 'delete'),
  });
}
