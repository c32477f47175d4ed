// client-go's PodControllerRefManager.ClaimPods, for the controllers that own pods directly
// (DaemonSet, StatefulSet): an owned pod that still matches is kept, an owned pod that no longer
// matches is released, and a matching orphan is adopted, each by a patch of its ownerReferences
// carrying the pod's uid (so a pod replaced under the same name is not touched). A pod that went
// away or changed meanwhile (404, 409, 422) is skipped: its watch event brings the owner back.
import { ApiCallError, type ApiClient } from './client';
import type { Obj } from '../registry/objects';
import { controllerRefOf, ownerRefTo } from './pods';
import type { Informer } from './informer';

/** The pod informer's index of pods by controller: `uid/<controller uid>`, or `orphan/<namespace>` for pods with none. */
const BY_CONTROLLER = 'controller';

function controllerIndexValues(pod: Obj): string[] {
  const ref = controllerRefOf(pod);
  return [ref ? `uid/${String(ref.uid)}` : `orphan/${String(pod.metadata?.namespace ?? '')}`];
}

/** The pods whose controller is the object with this uid, from the pod informer's index. */
export function podsControlledBy(pods: Informer, uid: string): Obj[] {
  pods.addIndex(BY_CONTROLLER, controllerIndexValues);
  return pods.byIndex(BY_CONTROLLER, `uid/${uid}`);
}

/**
 * The pods `claimPods` may keep, release or adopt for `owner`: the ones it controls and its
 * namespace's orphans. Pods of other controllers are never touched, so skipping them gives
 * what a walk over all pods gives.
 */
export function claimCandidates(pods: Informer, owner: Obj, which: 'all' | 'controlled' | 'orphans' = 'all'): Obj[] {
  const controlled = which === 'orphans' ? [] : podsControlledBy(pods, String(owner.metadata.uid));
  if (which === 'controlled') return controlled;
  // Asking for the controlled pods first defines the index the orphans are read from.
  if (which === 'orphans') pods.addIndex(BY_CONTROLLER, controllerIndexValues);
  return [...controlled, ...pods.byIndex(BY_CONTROLLER, `orphan/${String(owner.metadata.namespace ?? '')}`)];
}

export async function claimPods(client: ApiClient, owner: Obj, apiVersion: string, kind: string, pods: Iterable<Obj>, matches: (pod: Obj) => boolean): Promise<Obj[]> {
  const out: Obj[] = [];
  for (const pod of pods) {
    if (pod.metadata.namespace !== owner.metadata.namespace) continue;
    const ref = controllerRefOf(pod);
    const owned = ref?.uid === owner.metadata.uid;
    const match = matches(pod);
    if (!owned && (ref || !match || pod.metadata.deletionTimestamp || owner.metadata.deletionTimestamp)) continue;
    const path = `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`;
    try {
      if (owned && match) out.push(pod);
      else if (owned) await client.patch(path, { metadata: { ownerReferences: [{ $patch: 'delete', uid: owner.metadata.uid }], uid: pod.metadata.uid } });
      else out.push(await client.patch(path, { metadata: { ownerReferences: [ownerRefTo(owner, apiVersion, kind)], uid: pod.metadata.uid } }));
    } catch (err) {
      if (!(err instanceof ApiCallError && (err.code === 404 || err.code === 409 || err.code === 422))) throw err;
    }
  }
  return out;
}
